/**
 * The repository's module graph: every source file's static imports and re-exports (type-only ones too), resolved to
 * files, and the cycles in it. `import-graph.test.ts` holds the tree to no cycles and to the layers of
 * docs/architecture.md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import of a file: the specifier as written, and whether it is erased at run time (`import type`, …). */
export interface ImportRef {
  specifier: string;
  typeOnly: boolean;
}

/** Files by repository-relative path (with `/`), each with the repository files it imports. */
export type ImportGraph = Map<string, string[]>;

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs'];
/** Folders that hold no source of ours: dependencies, build and test output, deliberately broken fixtures. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'test-fixtures',
  'test-artifacts',
  'scaffold-out',
]);
/** Generated folders, by path from the root (typedoc's output). */
const SKIPPED_PATHS = new Set(['docs/api']);

/**
 * The static imports of a module's text: import declarations, `export … from`, `import x = require(…)`,
 * `import('…')` in type positions and `declare module '…'` augmentations. A dynamic `import()` call is a run-time lazy
 * load, not a static dependency, and is left out.
 */
export function importsOf(text: string, fileName = 'module.ts'): ImportRef[] {
  const kind = /\.[cm]?js$/.test(fileName)
    ? ts.ScriptKind.JS
    : fileName.endsWith('.tsx')
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const refs: ImportRef[] = [];
  const literal = (node: ts.Node | undefined) =>
    node && ts.isStringLiteralLike(node) ? node.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      // `import { type A } from` is not erased: under verbatimModuleSyntax it stays as `import {} from`.
      if (specifier !== undefined)
        refs.push({ specifier, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier !== undefined) refs.push({ specifier, typeOnly: node.isTypeOnly });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      const specifier = literal(node.moduleReference.expression);
      if (specifier !== undefined) refs.push({ specifier, typeOnly: node.isTypeOnly });
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      // `declare module './x.ts' { … }` augments x.ts: a dependency on it, for types.
      refs.push({ specifier: node.name.text, typeOnly: true });
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      const specifier = ts.isLiteralTypeNode(argument) ? literal(argument.literal) : undefined;
      if (specifier !== undefined) refs.push({ specifier, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

type ExportTarget = string | null | { [condition: string]: ExportTarget };

/** The source file an export leads to: its `@seahaven/source` target, else the `.ts` beside its built `dist/` file. */
function sourceOf(target: ExportTarget): string | undefined {
  if (target === null) return undefined;
  if (typeof target === 'string') {
    if (target.endsWith('.ts') || target.endsWith('.mjs')) return target;
    if (target.startsWith('./dist/') && target.endsWith('.js'))
      return './' + target.slice('./dist/'.length).replace(/\.js$/, '.ts');
    return undefined;
  }
  return sourceOf(target['@seahaven/source'] ?? null) ?? sourceOf(target.default ?? null);
}

/** The folders of the workspace's packages (`workspaces` in the root package.json: `dir` or `dir/*`), else the root. */
function packageDirs(root: string): string[] {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    workspaces?: string[];
  };
  if (workspaces === undefined) return [''];
  return workspaces.flatMap((w) =>
    w.endsWith('/*')
      ? readdirSync(join(root, w.slice(0, -2)), { withFileTypes: true })
          .filter(
            (e) =>
              e.isDirectory() && existsSync(join(root, w.slice(0, -2), e.name, 'package.json')),
          )
          .map((e) => `${w.slice(0, -2)}/${e.name}`)
      : [w],
  );
}

/**
 * The names the workspace's packages export (`seahaven`, `seahaven/rewards`, `@seahaven/crm`, …) mapped to their
 * source files, as the `@seahaven/source` condition resolves them; a pattern (`@seahaven/bench/*`) maps to a path with
 * a `*`.
 */
export function selfReferences(root: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const dir of packageDirs(root)) {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, ExportTarget>;
    };
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source = sourceOf(target);
      if (source === undefined) continue;
      const path = join(dir, source).split(sep).join('/');
      const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      if (path.includes('*') || existsSync(join(root, path))) map.set(name, path);
    }
  }
  return map;
}

/** The file `specifier` names through `self` (a name, or a `*` pattern of one), if any. */
function ownTarget(specifier: string, self: Map<string, string>): string | undefined {
  const exact = self.get(specifier);
  if (exact !== undefined) return exact;
  for (const [name, path] of self) {
    if (!name.endsWith('/*') || !specifier.startsWith(name.slice(0, -1))) continue;
    return path.replace('*', specifier.slice(name.length - 1));
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The repository file a specifier names, or undefined for a package or a built-in module. */
export function resolveSpecifier(
  root: string,
  from: string,
  specifier: string,
  self: Map<string, string>,
): string | undefined {
  const own = ownTarget(specifier, self);
  if (own !== undefined) return isFile(join(root, own)) ? own : undefined;
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined;
  const base = resolve(root, dirname(from), specifier.split('?')[0]!);
  const candidates = [base];
  // `./x.js` written for `./x.ts` (NodeNext style), and extension-less or folder specifiers.
  const ext = extname(base);
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs')
    candidates.push(base.slice(0, -ext.length) + ext.replace('js', 'ts'));
  for (const e of SOURCE_EXTENSIONS) candidates.push(base + e);
  for (const e of SOURCE_EXTENSIONS) candidates.push(join(base, `index${e}`));
  const hit = candidates.find(isFile);
  return hit === undefined ? undefined : relative(root, hit).split(sep).join('/');
}

/**
 * Every source file under `dirs` (paths from `root`; `''` is the whole tree), skipping dependencies, build and test
 * output, fixtures, generated docs and dot-files.
 */
export function sourceFiles(root: string, dirs: readonly string[] = ['']): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_PATHS.has(path)) walk(path);
      } else if (SOURCE_EXTENSIONS.includes(extname(entry.name)) && !entry.name.endsWith('.d.ts')) {
        out.push(path);
      }
    }
  };
  for (const dir of dirs) {
    if (dir !== '' && isFile(join(root, dir))) out.push(dir);
    else if (existsSync(join(root, dir))) walk(dir);
  }
  return out.sort();
}

/** The import graph of the given files: an edge for every import that resolves to a file of the repository. */
export function buildImportGraph(root: string, files: readonly string[]): ImportGraph {
  const self = selfReferences(root);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const { specifier } of importsOf(readFileSync(join(root, file), 'utf8'), file)) {
      const target = resolveSpecifier(root, file, specifier, self);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The cycles of a graph, each as a chain of files that starts and ends with the same file: `a → b → c → a`.
 * Every import that takes part in some cycle appears in at least one listed chain (each chain is the shortest
 * cycle through an import not yet shown), so the list names every edge to cut without enumerating every cycle.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const edges = (n: string) => graph.get(n) ?? [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const component of stronglyConnected(graph)) {
    const within = new Set(component);
    const shown = new Set<string>();
    for (const from of component) {
      for (const to of edges(from)) {
        if (!within.has(to) || shown.has(`${from}\0${to}`)) continue;
        const back = shortestPath(to, from, within, edges);
        if (back === undefined) continue;
        const chain = rotate([from, ...back]);
        for (let i = 0; i + 1 < chain.length; i++) shown.add(`${chain[i]}\0${chain[i + 1]}`);
        const key = chain.join('\0');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(chain);
        }
      }
    }
  }
  return cycles.sort((a, b) => a.join('\0').localeCompare(b.join('\0')));
}

/** Tarjan's strongly connected components, iterative so a deep graph cannot overflow the stack. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flat()])].sort();
  const edges = (n: string) => graph.get(n) ?? [];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const enter = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
  };
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const out = edges(frame.node);
      if (frame.i < out.length) {
        const to = out[frame.i++]!;
        if (!index.has(to)) {
          enter(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** The shortest path of files from `from` to `to` inside `within`, both ends included; `[from]` when they are equal. */
function shortestPath(
  from: string,
  to: string,
  within: Set<string>,
  edges: (n: string) => readonly string[],
): string[] | undefined {
  if (from === to) return [from];
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const next of edges(node)) {
      if (!within.has(next) || previous.has(next)) continue;
      previous.set(next, node);
      if (next === to) {
        const back = [to];
        for (let n = node; n !== from; n = previous.get(n)!) back.push(n);
        back.push(from);
        return back.reverse();
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** A cycle `[a, …, a]` started at its alphabetically first file, so the same cycle always reads the same way. */
function rotate(chain: string[]): string[] {
  const ring = chain.slice(0, -1);
  const first = ring.indexOf([...ring].sort()[0]!);
  const turned = [...ring.slice(first), ...ring.slice(0, first)];
  return [...turned, turned[0]!];
}
