/** Require `ORDER BY` in SQL read with `ctx.db.all()`: without it SQLite returns rows in whatever order the plan gives. */
import { ASTUtils, AST_NODE_TYPES } from '@typescript-eslint/utils';
import { createRule } from './create-rule.ts';
import { dbMethodOf, sqlSkeleton, topLevel } from './sql.ts';

const AGGREGATE =
  /\b(?:COUNT|SUM|AVG|MIN|MAX|TOTAL|GROUP_CONCAT|STRING_AGG|JSON_GROUP_ARRAY|JSON_GROUP_OBJECT)\s*\(/;

/** Whether a static query can return several rows in an unspecified order. */
export function isUnorderedQuery(sql: string): boolean {
  const skeleton = sqlSkeleton(sql).trim();
  const head = skeleton.replace(/^[\s(]+/, '');
  if (!/^(SELECT|WITH)\b/.test(head)) return false;
  const top = topLevel(skeleton).replace(/\s+/g, ' ');
  if (/\bORDER BY\b/.test(top)) return false;
  // At most one row: LIMIT 1, no FROM, or an aggregate without GROUP BY (and no window).
  if (/\bLIMIT 1\b(?! ?,)/.test(top)) return false;
  if (/\b(UNION|INTERSECT|EXCEPT)\b/.test(top)) return true;
  const select = top.slice(top.lastIndexOf('SELECT'));
  const from = select.search(/\bFROM\b/);
  if (from === -1) return false;
  if (
    !/\bGROUP BY\b/.test(select) &&
    AGGREGATE.test(select.slice(0, from)) &&
    !/\bOVER\b/.test(skeleton)
  )
    return false;
  return true;
}

export default createRule({
  name: 'require-order-by',
  meta: {
    type: 'problem',
    docs: { description: 'Require `ORDER BY` in SQL read with `ctx.db.all()`', recommended: true },
    schema: [],
    messages: {
      unordered:
        "Rows from `ctx.db.{{method}}()` without `ORDER BY` come in whatever order SQLite's query plan gives, which can change with an index or a version, and the agent sees that order. Add an `ORDER BY` that makes the order total, e.g. `ORDER BY created_at, id`.",
    },
  },
  create(context) {
    return {
      CallExpression(call) {
        if (dbMethodOf(context, call) !== 'all') return;
        const sqlArg = call.arguments[0];
        if (!sqlArg || sqlArg.type === AST_NODE_TYPES.SpreadElement) return;
        const value = ASTUtils.getStaticValue(sqlArg, context.sourceCode.getScope(sqlArg));
        if (typeof value?.value !== 'string') return;
        if (isUnorderedQuery(value.value))
          context.report({ node: sqlArg, messageId: 'unordered', data: { method: 'all' } });
      },
    };
  },
});
