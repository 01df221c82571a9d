/** Find the tool context in scope, so suggestions can offer the `ctx` replacement (`ctx.clock.now()`, `ctx.rng.next()`). */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

type AnyFunction =
  TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

function isFunction(node: TSESTree.Node): node is AnyFunction {
  return (
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression
  );
}

function isCtxType(param: TSESTree.Identifier): boolean {
  const ann = param.typeAnnotation?.typeAnnotation;
  if (ann?.type !== AST_NODE_TYPES.TSTypeReference) return false;
  const name = ann.typeName;
  return (
    (name.type === AST_NODE_TYPES.Identifier && name.name === 'Ctx') ||
    (name.type === AST_NODE_TYPES.TSQualifiedName && name.right.name === 'Ctx')
  );
}

/** The key a function is stored under: `run` in `{ run(ctx) {…} }` or `{ run: (ctx) => … }`. */
function keyOf(fn: AnyFunction): string | null {
  const p = fn.parent;
  if (
    (p?.type === AST_NODE_TYPES.Property || p?.type === AST_NODE_TYPES.MethodDefinition) &&
    p.value === fn
  )
    return ASTUtils.getPropertyName(p);
  return null;
}

/**
 * The name of the tool context visible at `node`: the first parameter of an enclosing `run(ctx, …)` or fixture
 * `build(ctx)`, or of a function whose parameter is typed `Ctx`, else a variable named `ctx` in scope; `null` when
 * there is none (then a suggestion would not compile, and none is offered).
 */
export function ctxNameAt(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  node: TSESTree.Node,
): string | null {
  for (let n: TSESTree.Node | undefined = node.parent; n; n = n.parent) {
    if (!isFunction(n)) continue;
    const first = n.params[0];
    if (first?.type !== AST_NODE_TYPES.Identifier) continue;
    const key = keyOf(n);
    if (isCtxType(first) || key === 'run' || key === 'build') return first.name;
  }
  return ASTUtils.findVariable(context.sourceCode.getScope(node), 'ctx') ? 'ctx' : null;
}
