/**
 * What the SQL rules share: recognising `ctx.db` calls, splitting an SQL argument into literal text and interpolated
 * expressions, deciding whether an expression can only take a fixed set of values, and reading static SQL text.
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { typeServices } from './create-rule.ts';

type Context = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;
export type DbMethod = 'one' | 'all' | 'run';

const DB_METHODS: readonly string[] = ['one', 'all', 'run'];

function unwrap(node: TSESTree.Node): TSESTree.Node {
  let n = node;
  while (
    n.type === AST_NODE_TYPES.TSNonNullExpression ||
    n.type === AST_NODE_TYPES.TSAsExpression ||
    n.type === AST_NODE_TYPES.ChainExpression
  )
    n = n.expression;
  return n;
}

/** Whether `node` is a `ctx.db` handle: `<x>.db`, a variable named `db`, or a variable bound to `<x>.db` / `{ db }`. */
function isDbHandle(context: Context, node: TSESTree.Node): boolean {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.MemberExpression) return ASTUtils.getPropertyName(n) === 'db';
  if (n.type !== AST_NODE_TYPES.Identifier) return false;
  if (n.name === 'db') return true;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(n), n);
  for (const def of variable?.defs ?? []) {
    if (def.node.type !== AST_NODE_TYPES.VariableDeclarator) continue;
    if (
      def.node.id.type === AST_NODE_TYPES.Identifier &&
      def.node.init &&
      unwrap(def.node.init).type === AST_NODE_TYPES.MemberExpression
    ) {
      return ASTUtils.getPropertyName(unwrap(def.node.init) as TSESTree.MemberExpression) === 'db';
    }
    if (def.node.id.type === AST_NODE_TYPES.ObjectPattern) {
      return def.node.id.properties.some(
        (p) =>
          p.type === AST_NODE_TYPES.Property &&
          p.value === def.name &&
          ASTUtils.getPropertyName(p) === 'db',
      );
    }
  }
  return false;
}

/** The `ctx.db` method a call invokes (`one`, `all`, `run`), or null. */
export function dbMethodOf(context: Context, call: TSESTree.CallExpression): DbMethod | null {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const name = ASTUtils.getPropertyName(callee);
  if (name === null || !DB_METHODS.includes(name) || !isDbHandle(context, callee.object))
    return null;
  return name as DbMethod;
}

/** A piece of SQL text: literal text, or an expression whose value is spliced in. */
export type SqlPart = { text: string } | { expr: TSESTree.Expression };

/** Split a template literal, `+` concatenation or string literal into parts; null for any other expression. */
export function sqlParts(node: TSESTree.Node): SqlPart[] | null {
  if (node.type === AST_NODE_TYPES.Literal)
    return typeof node.value === 'string' ? [{ text: node.value }] : null;
  if (node.type === AST_NODE_TYPES.TemplateLiteral) {
    const parts: SqlPart[] = [];
    node.quasis.forEach((q, i) => {
      parts.push({ text: q.value.cooked ?? q.value.raw });
      if (i < node.expressions.length) parts.push({ expr: node.expressions[i] });
    });
    return parts;
  }
  if (node.type === AST_NODE_TYPES.BinaryExpression && node.operator === '+') {
    const side = (n: TSESTree.Node): SqlPart[] =>
      sqlParts(n) ?? [{ expr: n as TSESTree.Expression }];
    return [...side(node.left), ...side(node.right)];
  }
  return null;
}

const PLACEHOLDERS = /^[\s?,()]*\?[\s?,()]*$/;

function isPlaceholderText(context: Context, node: TSESTree.Node): boolean {
  if (
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionExpression
  ) {
    const body = node.body;
    if (body.type !== AST_NODE_TYPES.BlockStatement) return isPlaceholderText(context, body);
    const ret =
      body.body.length === 1 && body.body[0].type === AST_NODE_TYPES.ReturnStatement
        ? body.body[0].argument
        : null;
    return ret ? isPlaceholderText(context, ret) : false;
  }
  const value = ASTUtils.getStaticValue(node, context.sourceCode.getScope(node));
  return typeof value?.value === 'string' && PLACEHOLDERS.test(value.value);
}

/** `ids.map(() => '?').join(', ')`, `Array(n).fill('?').join(',')`, `'?, '.repeat(n)`: a run of placeholders, not data. */
function isPlaceholderList(context: Context, node: TSESTree.Node): boolean {
  const n = unwrap(node);
  if (
    n.type !== AST_NODE_TYPES.CallExpression ||
    unwrap(n.callee).type !== AST_NODE_TYPES.MemberExpression
  )
    return false;
  const callee = unwrap(n.callee) as TSESTree.MemberExpression;
  const method = ASTUtils.getPropertyName(callee);
  if (method === 'repeat') return isPlaceholderText(context, callee.object);
  if (method !== 'join') return false;
  const source = unwrap(callee.object);
  if (source.type === AST_NODE_TYPES.ArrayExpression)
    return source.elements.every((e) => e !== null && isPlaceholderText(context, e));
  return (
    source.type === AST_NODE_TYPES.CallExpression &&
    source.arguments.some((a) => isPlaceholderText(context, a))
  );
}

/** A type annotation that admits only literal values: `'a' | 'b'`, `1 | 2`, or a local alias of one. */
function isLiteralTypeNode(context: Context, node: TSESTree.TypeNode, depth = 0): boolean {
  if (depth > 4) return false;
  if (node.type === AST_NODE_TYPES.TSLiteralType)
    return node.literal.type === AST_NODE_TYPES.Literal;
  if (node.type === AST_NODE_TYPES.TSUnionType)
    return node.types.every((t) => isLiteralTypeNode(context, t, depth + 1));
  if (
    node.type === AST_NODE_TYPES.TSTypeReference &&
    node.typeName.type === AST_NODE_TYPES.Identifier
  ) {
    const variable = ASTUtils.findVariable(context.sourceCode.getScope(node), node.typeName.name);
    const alias = variable?.defs.find((d) => d.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration)
      ?.node as TSESTree.TSTypeAliasDeclaration | undefined;
    return alias ? isLiteralTypeNode(context, alias.typeAnnotation, depth + 1) : false;
  }
  return false;
}

/** With type information: whether the expression's type is a literal or a union of literals. */
function hasLiteralType(context: Context, node: TSESTree.Node): boolean {
  const services = typeServices(context);
  if (!services) return false;
  const type = services.getTypeAtLocation(node);
  const checker = services.program.getTypeChecker();
  const literal = (t: typeof type) =>
    t.isLiteral() || ['true', 'false'].includes(checker.typeToString(t));
  return type.isUnion() ? type.types.every(literal) : literal(type);
}

/**
 * Whether an interpolated expression can only take values the author wrote down: a constant, a placeholder list, a
 * choice between such values, or a variable typed as a union of literals (from its annotation, or from type
 * information when the program is available).
 */
export function isBounded(context: Context, node: TSESTree.Node, depth = 0): boolean {
  if (depth > 4) return false;
  const n = unwrap(node);
  if (ASTUtils.getStaticValue(n, context.sourceCode.getScope(n)) !== null) return true;
  if (isPlaceholderList(context, n)) return true;
  if (n.type === AST_NODE_TYPES.ConditionalExpression)
    return (
      isBounded(context, n.consequent, depth + 1) && isBounded(context, n.alternate, depth + 1)
    );
  if (n.type === AST_NODE_TYPES.Identifier) {
    const variable = ASTUtils.findVariable(context.sourceCode.getScope(n), n);
    const def = variable?.defs[0];
    const annotation =
      def && def.name.type === AST_NODE_TYPES.Identifier
        ? def.name.typeAnnotation?.typeAnnotation
        : undefined;
    if (annotation && isLiteralTypeNode(context, annotation)) return true;
  }
  return hasLiteralType(context, n);
}

/** The expressions written into SQL text that are not bounded. */
export function unboundedParts(context: Context, parts: SqlPart[]): TSESTree.Expression[] {
  const out: TSESTree.Expression[] = [];
  for (const p of parts) if ('expr' in p && !isBounded(context, p.expr)) out.push(p.expr);
  return out;
}

/**
 * Where the SQL held by a variable was built, when it was built from unbounded pieces: the declaration's initialiser
 * or any later assignment (`sql += ' AND x = ' + x`).
 */
export function builtVia(
  context: Context,
  id: TSESTree.Identifier,
): { expr: TSESTree.Expression; built: TSESTree.Node } | null {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(id), id);
  if (!variable) return null;
  for (const ref of variable.references) {
    const written = ref.writeExpr;
    if (!written) continue;
    const parts = sqlParts(written);
    // `sql += x` writes `x` onto the text: a concatenation even when `x` is a bare expression.
    const assign = written.parent;
    const appended =
      assign?.type === AST_NODE_TYPES.AssignmentExpression && assign.operator === '+='
        ? (parts ?? [{ expr: written as TSESTree.Expression }])
        : parts;
    if (!appended) continue;
    const loose = unboundedParts(context, appended);
    if (loose.length > 0) return { expr: loose[0], built: written };
  }
  return null;
}

/** SQL text with comments, string literals and quoted identifiers blanked out, upper-cased, for keyword scans. */
export function sqlSkeleton(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length;) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
      out += ' ';
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (; j < sql.length; j++) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) j++;
          else break;
        }
      }
      out += c === "'" ? " '' " : ' X ';
      i = j + 1;
    } else {
      out += c.toUpperCase();
      i++;
    }
  }
  return out;
}

/** The skeleton with everything inside parentheses removed: only the outermost statement's own clauses remain. */
export function topLevel(skeleton: string): string {
  let depth = 0;
  let out = '';
  for (const c of skeleton) {
    if (c === '(') {
      if (depth === 0) out += ' ( ';
      depth++;
    } else if (c === ')') {
      depth = Math.max(0, depth - 1);
      if (depth === 0) out += ' ) ';
    } else if (depth === 0) {
      out += c;
    }
  }
  return out;
}
