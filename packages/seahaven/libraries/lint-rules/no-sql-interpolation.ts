/** Disallow SQL text built from values (`${…}` or `+`) passed to `ctx.db`; values travel as `?` parameters. */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.ts';
import {
  builtVia,
  dbMethodOf,
  isBounded,
  sqlParts,
  sqlSkeleton,
  unboundedParts,
  type SqlPart,
} from './sql.ts';

// Text right before a spliced expression that puts it where a value goes (not a table, column or keyword).
const VALUE_BEFORE = /(?:[=<>+\-*/%]|\|\||\b(?:LIKE|GLOB|IS|NOT|LIMIT|OFFSET|THEN|ELSE|WHEN))\s*$/i;
const IN_VALUES_LIST = /\bVALUES\s*\((?:[^()]|\([^()]*\))*[(,]\s*$/i;
const NAMED_PARAMS = /[@:$][A-Za-z_]|\?\d/;

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 40 ? one.slice(0, 37) + '…' : one;
}

/** Source text of a string with the given value. */
function quote(value: string): string {
  if (!/['\n\\]/.test(value)) return `'${value}'`;
  return '`' + value.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
}

/**
 * The rewrite of a call whose SQL splices values: each value becomes a `?` (a quoted `'${v}'` loses its quotes) and
 * joins the parameters in placeholder order. Null when any splice is not clearly a value, or the existing
 * parameters cannot be aligned with the placeholders.
 */
function parameterized(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  call: TSESTree.CallExpression,
  parts: SqlPart[],
): string | null {
  const existing = call.arguments.slice(1);
  if (existing.some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return null;
  const scope = context.sourceCode.getScope(call);
  // Fold constants back into the text; anything else spliced must sit where a value goes.
  const pieces: ({ text: string } | { expr: TSESTree.Expression })[] = [];
  for (const p of parts) {
    if ('text' in p) pieces.push({ text: p.text });
    else {
      const value = ASTUtils.getStaticValue(p.expr, scope);
      if (value !== null && (typeof value.value === 'string' || typeof value.value === 'number'))
        pieces.push({ text: String(value.value) });
      else if (isBounded(context, p.expr)) return null;
      else pieces.push(p);
    }
  }
  let sql = '';
  const args: string[] = [];
  let pending = existing.map((a) => context.sourceCode.getText(a));
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if ('text' in piece) {
      const placeholders = (sqlSkeleton(piece.text).match(/\?/g) ?? []).length;
      if (NAMED_PARAMS.test(sqlSkeleton(piece.text))) return null;
      if (placeholders > pending.length) return null;
      args.push(...pending.slice(0, placeholders));
      pending = pending.slice(placeholders);
      sql += piece.text;
      continue;
    }
    const next = pieces[i + 1];
    const after = next && 'text' in next ? next.text : '';
    if (
      sql.endsWith("'") &&
      after.startsWith("'") &&
      (VALUE_BEFORE.test(sql.slice(0, -1)) || IN_VALUES_LIST.test(sql.slice(0, -1)))
    ) {
      sql = sql.slice(0, -1) + '?';
      if (next && 'text' in next) pieces[i + 1] = { text: after.slice(1) };
    } else if (VALUE_BEFORE.test(sql) || IN_VALUES_LIST.test(sql)) {
      sql += '?';
    } else {
      return null;
    }
    args.push(context.sourceCode.getText(piece.expr));
  }
  if (pending.length > 0) return null;
  return [quote(sql), ...args].join(', ');
}

export default createRule({
  name: 'no-sql-interpolation',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow SQL built by interpolation or concatenation in `ctx.db` calls',
      recommended: true,
      typeAware: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      interpolated:
        "SQL passed to `ctx.db.{{method}}()` interpolates `{{expr}}`. Spliced values are injection holes and defeat the statement cache; bind them as `?` parameters, e.g. `ctx.db.{{method}}('… WHERE id = ?', id)`. To pick a table or column, choose among fixed SQL strings.",
      concatenated:
        "SQL passed to `ctx.db.{{method}}()` is concatenated with `{{expr}}`. Spliced values are injection holes and defeat the statement cache; bind them as `?` parameters, e.g. `ctx.db.{{method}}('… WHERE id = ?', id)`. To pick a table or column, choose among fixed SQL strings.",
      builtElsewhere:
        '`{{name}}` holds SQL built from `{{expr}}` and is passed to `ctx.db.{{method}}()`. Bind values as `?` parameters instead of writing them into the text.',
      useParameters: 'Bind the spliced values as `?` parameters.',
    },
  },
  create(context) {
    return {
      CallExpression(call) {
        const method = dbMethodOf(context, call);
        const sqlArg = call.arguments[0];
        if (method === null || !sqlArg || sqlArg.type === AST_NODE_TYPES.SpreadElement) return;
        const parts = sqlParts(sqlArg);
        if (parts) {
          const loose = unboundedParts(context, parts);
          if (loose.length === 0) return;
          const rewrite = parameterized(context, call, parts);
          const [from, to] = [sqlArg.range[0], call.arguments[call.arguments.length - 1].range[1]];
          context.report({
            node: sqlArg,
            messageId:
              sqlArg.type === AST_NODE_TYPES.TemplateLiteral ? 'interpolated' : 'concatenated',
            data: { method, expr: short(context.sourceCode.getText(loose[0])) },
            suggest: rewrite
              ? [
                  {
                    messageId: 'useParameters',
                    fix: (fixer) => fixer.replaceTextRange([from, to], rewrite),
                  },
                ]
              : [],
          });
        } else if (sqlArg.type === AST_NODE_TYPES.Identifier) {
          const via = builtVia(context, sqlArg);
          if (via)
            context.report({
              node: sqlArg,
              messageId: 'builtElsewhere',
              data: {
                name: sqlArg.name,
                method,
                expr: short(context.sourceCode.getText(via.expr)),
              },
            });
        }
      },
    };
  },
});
