/**
 * Scope-aware tracking of globals and built-in modules. Built on eslint-utils' `ReferenceTracker`, which follows
 * aliases (`const now = Date.now`), destructuring (`const { now } = Date`) and global objects (`globalThis.Date`), and
 * ignores shadowed names. The tracker only sees globals the config declares; Node and browser globals such as
 * `process` or `setTimeout` are usually undeclared, so their unresolved references are followed here too.
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

const { ReferenceTracker } = ASTUtils;

export const READ = ReferenceTracker.READ;
export const CALL = ReferenceTracker.CALL;
export const CONSTRUCT = ReferenceTracker.CONSTRUCT;
const ESM = ReferenceTracker.ESM;

/** A trace map: property paths from a global or module, with what to report at each (`READ`, `CALL`, `CONSTRUCT`). */
export interface TraceMap {
  [key: string]: TraceMap;
}

/** One tracked use of a global or module member. */
export interface TrackedReference {
  /** The identifier or member expression read, or the call/new expression. */
  node: TSESTree.Node;
  /** The property path from the global or module, e.g. `['Date', 'now']` or `['node:crypto', 'randomUUID']`. */
  path: readonly string[];
  kind: 'read' | 'call' | 'construct';
}

const GLOBAL_OBJECTS = ['globalThis', 'global', 'self', 'window'];

/** What eslint-utils' tracker yields. */
interface FoundReference {
  node: TSESTree.Node;
  path: readonly string[];
  type: symbol;
}

// The typings omit this public method of eslint-utils' tracker.
interface PropertyTracker {
  iteratePropertyReferences(node: TSESTree.Node, traceMap: TraceMap): Iterable<FoundReference>;
}

function kindOf(type: symbol): TrackedReference['kind'] {
  return type === CALL ? 'call' : type === CONSTRUCT ? 'construct' : 'read';
}

function globalScopeOf(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
): TSESLint.Scope.Scope {
  return context.sourceCode.getScope(context.sourceCode.ast);
}

/**
 * Every use of the globals in `traceMap`, declared in the config or not, reached directly, through a global object
 * (`globalThis`, `global`, `self`, `window`) or through aliases. Each node is reported once.
 */
export function* globalReferences(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  traceMap: TraceMap,
): Generator<TrackedReference> {
  const scope = globalScopeOf(context);
  const tracker = new ReferenceTracker(scope, { globalObjectNames: GLOBAL_OBJECTS });
  const seen = new Set<TSESTree.Node>();
  const emit = function* (
    found: Iterable<FoundReference>,
    prefix: readonly string[] = [],
  ): Generator<TrackedReference> {
    for (const f of found) {
      if (seen.has(f.node)) continue;
      seen.add(f.node);
      yield { node: f.node, path: [...prefix, ...f.path], kind: kindOf(f.type) };
    }
  };
  yield* emit(tracker.iterateGlobalReferences(traceMap));
  for (const ref of scope.through) {
    if (!ref.isRead() || ref.isValueReference === false) continue;
    const id = ref.identifier as TSESTree.Identifier;
    const name = id.name;
    if (Object.hasOwn(traceMap, name)) {
      const sub = traceMap[name];
      if ((sub as Record<symbol, unknown>)[READ] && !seen.has(id)) {
        seen.add(id);
        yield { node: id, path: [name], kind: 'read' };
      }
      yield* emit((tracker as unknown as PropertyTracker).iteratePropertyReferences(id, sub), [
        name,
      ]);
    } else if (GLOBAL_OBJECTS.includes(name)) {
      yield* emit((tracker as unknown as PropertyTracker).iteratePropertyReferences(id, traceMap));
    }
  }
}

/**
 * Every use of members of the built-in modules in `traceMap` (keys without the `node:` prefix), through `import`
 * (named, default or namespace) or `require()`. Paths start with the module name as written.
 */
export function* moduleReferences(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  traceMap: TraceMap,
): Generator<TrackedReference> {
  const scope = globalScopeOf(context);
  const tracker = new ReferenceTracker(scope);
  const esm: TraceMap = {};
  for (const [name, members] of Object.entries(traceMap)) {
    // A built-in module's default export is the module object itself.
    const entry = { ...members, default: members, [ESM]: true } as TraceMap;
    esm[name] = entry;
    esm[`node:${name}`] = entry;
  }
  const seen = new Set<TSESTree.Node>();
  for (const f of tracker.iterateEsmReferences(esm)) {
    if (seen.has(f.node)) continue;
    seen.add(f.node);
    yield { node: f.node, path: f.path.filter((p) => p !== 'default'), kind: kindOf(f.type) };
  }
  for (const req of globalReferences(context, {
    require: { [CALL]: true } as unknown as TraceMap,
  })) {
    if (req.kind !== 'call') continue;
    const call = req.node as TSESTree.CallExpression;
    const id = call.arguments[0] ? ASTUtils.getStringIfConstant(call.arguments[0], scope) : null;
    if (id === null) continue;
    const members = traceMap[id.replace(/^node:/, '')];
    if (!members) continue;
    for (const f of (tracker as unknown as PropertyTracker).iteratePropertyReferences(
      call,
      members,
    )) {
      if (seen.has(f.node)) continue;
      seen.add(f.node);
      yield { node: f.node, path: [id, ...f.path], kind: kindOf(f.type) };
    }
  }
}

/** `{ [READ]: true }`-style leaves, readable in trace maps. */
export const reads = { [READ]: true } as unknown as TraceMap;
export const calls = { [CALL]: true } as unknown as TraceMap;
export const readsAndCalls = { [READ]: true, [CALL]: true } as unknown as TraceMap;

/** Wrap a trace leaf with nested members: `withMembers(readsAndCalls, { bigint: calls })`. */
export function withMembers(leaf: TraceMap, members: TraceMap): TraceMap {
  return { ...leaf, ...members } as TraceMap;
}

const PASS_THROUGH = new Set<string>([
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
  AST_NODE_TYPES.TSTypeAssertion,
]);

/**
 * Whether a read of a function hands it on (as an argument, a return value, a property value, `.bind(…)`) instead of
 * calling it or binding an alias the tracker follows. Calls and tracked aliases are reported where they are called.
 */
export function escapes(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Property && node.parent?.type === AST_NODE_TYPES.ObjectPattern)
    return false;
  // An import binds an alias the tracker follows to its uses.
  if (
    node.type === AST_NODE_TYPES.ImportSpecifier ||
    node.type === AST_NODE_TYPES.ImportDefaultSpecifier ||
    node.type === AST_NODE_TYPES.ImportNamespaceSpecifier
  )
    return false;
  let n: TSESTree.Node = node;
  while (n.parent && PASS_THROUGH.has(n.parent.type)) n = n.parent;
  const p = n.parent;
  if (!p) return false;
  switch (p.type) {
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      return p.callee !== n;
    case AST_NODE_TYPES.VariableDeclarator:
      return !(
        p.init === n &&
        (p.id.type === AST_NODE_TYPES.Identifier || p.id.type === AST_NODE_TYPES.ObjectPattern)
      );
    case AST_NODE_TYPES.AssignmentExpression:
      return !(
        p.right === n &&
        (p.left.type === AST_NODE_TYPES.Identifier || p.left.type === AST_NODE_TYPES.ObjectPattern)
      );
    case AST_NODE_TYPES.AssignmentPattern:
      return !(p.right === n && p.left.type === AST_NODE_TYPES.Identifier);
    case AST_NODE_TYPES.MemberExpression: {
      if (p.object !== n) return true;
      const key = ASTUtils.getPropertyName(p);
      return key === 'call' || key === 'apply' || key === 'bind';
    }
    case AST_NODE_TYPES.ExpressionStatement:
    case AST_NODE_TYPES.TSTypeQuery:
      return false;
    case AST_NODE_TYPES.UnaryExpression:
      return p.operator !== 'typeof';
    default:
      return true;
  }
}
