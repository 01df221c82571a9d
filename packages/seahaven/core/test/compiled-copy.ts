/**
 * A compiled copy of the repository's TypeScript, for the child processes tests start. A `seahaven serve` started
 * through packages/seahaven/bin/seahaven.mjs runs its sources through tsx, whose module hooks run on a thread of their
 * own that every import waits on: about 0.3 s of each start and a second core's worth of CPU while it lasts. The test
 * suite starts some sixty such processes, so `vitest.global-setup.ts` compiles every source once per run (esbuild,
 * file by file, the same transform tsx applies) into node_modules/.cache/seahaven-compiled/, mirroring the tree:
 * `worlds/crm/index.ts` becomes `worlds/crm/index.ts.mjs`. Each compiled module keeps its source's `import.meta.url`
 * (so fixtures, schemas and assets are found beside the source), its imports of `seahaven…` and `@seahaven/…` are
 * bound to the compiled entries the `@seahaven/source` condition names, and an import of a computed path (a world
 * given on the command line) is mapped to the compiled copy of that source. Nothing is registered as a module hook.
 *
 * Tests that are about the command line itself (cli.test.ts, server.test.ts, the packed install of the e2e suite)
 * still run packages/seahaven/bin/seahaven.mjs; the others take `compiledBin()` and `compiledScript(file)`, which fall
 * back to the sources through tsx when no compiled copy was built (a test file run outside vitest's global set-up).
 * TypeScript outside the repository (a project `seahaven new` wrote in a temporary folder) is not in the copy: a
 * computed import of it is passed on unchanged, so a test that loads such a world runs the real bin.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { init, parse } from 'es-module-lexer';
import { transform } from 'esbuild';
import { resolveExports } from 'resolve-pkg-maps';
import { CONDITION, sourceRoute } from '../../bin/source-condition.mjs';
import { writeAtomic } from '../../command/eval/store.ts';

/** The repository root. */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The folders whose TypeScript is compiled: everything a child process of a test loads from the repository. */
const FOLDERS = ['packages/seahaven', 'worlds', 'bench', 'e2e'];
/** The environment variable that names the compiled copy's folder to the test processes and their children. */
export const COMPILED_ENV = 'SEAHAVEN_COMPILED';
const SOURCE_BIN = join(ROOT, 'packages/seahaven/bin/seahaven.mjs');

/** The compiled copy's folder, when one was built for this run. */
function compiledRoot(): string | undefined {
  const dir = process.env[COMPILED_ENV];
  return dir && existsSync(join(dir, 'packages/seahaven/bin/seahaven.mjs')) ? dir : undefined;
}

/** The `seahaven` command to run in a child process: `[node arguments…, script]`, before the command's own. */
export function compiledBin(): string[] {
  const dir = compiledRoot();
  return dir ? [join(dir, 'packages/seahaven/bin/seahaven.mjs')] : [SOURCE_BIN];
}

/** The compiled copy of the repository's TypeScript file `file`, when one was built for this run. */
export function compiledCopyOf(file: string): string | undefined {
  const dir = compiledRoot();
  const rel = relative(ROOT, file);
  const copy = dir && !rel.startsWith('..') ? join(dir, `${rel}.mjs`) : undefined;
  return copy !== undefined && existsSync(copy) ? copy : undefined;
}

/** `[node arguments…, script]` that run the TypeScript file `file` of the repository in a child process. */
export function compiledScript(file: string): string[] {
  const copy = compiledCopyOf(file);
  // The sources: the published names resolve to them by the condition, and tsx compiles them.
  return copy !== undefined
    ? [copy]
    : ['--conditions=@seahaven/source', '--import', import.meta.resolve('tsx'), file];
}

// ---------------------------------------------------------------------------------------------------------------------
// Building the copy

interface Manifest {
  name: string;
  exports?: Record<string, string | Record<string, string>>;
}

/** The workspace's packages by name, each with its folder and export map. */
function workspacePackages(): Map<string, { dir: string; manifest: Manifest }> {
  const dirs = [
    'packages/seahaven',
    ...readdirSync(join(ROOT, 'worlds')).map((d) => `worlds/${d}`),
    'bench',
    'e2e',
  ];
  const out = new Map<string, { dir: string; manifest: Manifest }>();
  for (const d of dirs) {
    const file = join(ROOT, d, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    out.set(manifest.name, { dir: join(ROOT, d), manifest });
  }
  return out;
}

/** The source file a workspace package name resolves to under the `@seahaven/source` condition, or undefined. */
function sourceOf(
  specifier: string,
  packages: Map<string, { dir: string; manifest: Manifest }>,
): string | undefined {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const pkg = packages.get(name);
  if (!pkg?.manifest.exports) return undefined;
  let targets: string[];
  try {
    targets = resolveExports(pkg.manifest.exports, specifier.slice(name.length + 1), [
      CONDITION,
      'default',
    ]);
  } catch {
    return undefined; // not exported
  }
  const source = targets.find((t) => t.endsWith('.ts'));
  return source === undefined ? undefined : join(pkg.dir, source);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts'))
      out.push(p);
  }
  return out;
}

/**
 * Write `text` to `file` unless it holds it already; a file is replaced whole (written beside it, then renamed), so
 * the child processes of another run reading the copy meanwhile never see half of one. Returns whether it wrote.
 */
function writeChanged(file: string, text: string): boolean {
  try {
    if (readFileSync(file, 'utf8') === text) return false;
  } catch {
    // not built yet
  }
  mkdirSync(dirname(file), { recursive: true });
  writeAtomic(file, text);
  return true;
}

/** The runtime half: maps a computed import's target (a path, a file URL, a workspace name) to its compiled copy. */
const RUNTIME = `// Written by packages/seahaven/core/test/compiled-copy.ts.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
const ROOT = ${JSON.stringify(ROOT)};
const OUT = fileURLToPath(new URL('./', import.meta.url));
const NAMES = NAMES_TABLE;
export function compiled(target) {
  if (typeof target !== 'string' && !(target instanceof URL)) return target;
  const text = String(target);
  if (Object.hasOwn(NAMES, text)) return NAMES[text];
  const path = text.startsWith('file:') ? fileURLToPath(text) : text.startsWith('/') ? text : undefined;
  if (path === undefined || !path.startsWith(ROOT) || !path.endsWith('.ts')) return target;
  const copy = OUT + path.slice(ROOT.length) + '.mjs';
  return existsSync(copy) ? pathToFileURL(copy).href : target;
}
`;

/**
 * Compile the repository's sources into `out` (default node_modules/.cache/seahaven-compiled), writing only the
 * files whose compiled text changed. Returns the folder.
 */
export async function buildCompiledCopy(
  out = join(ROOT, 'node_modules/.cache/seahaven-compiled'),
): Promise<string> {
  await init;
  const packages = workspacePackages();
  const files = FOLDERS.flatMap((f) => sourceFiles(join(ROOT, f)));
  const compiledSet = new Set(files);
  const copyOf = (file: string) => join(out, `${relative(ROOT, file)}.mjs`);
  const runtime = join(out, '__compiled.mjs');
  const names: Record<string, string> = {};
  const nameCopy = (specifier: string): string | undefined => {
    const source = sourceOf(specifier, packages);
    if (source === undefined || !compiledSet.has(source)) return undefined;
    return (names[specifier] = pathToFileURL(copyOf(source)).href);
  };
  await Promise.all(
    files.map(async (file) => {
      const dest = copyOf(file);
      const code = readFileSync(file, 'utf8');
      const url = pathToFileURL(file).href;
      const result = await transform(code, {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
        sourcefile: file,
        // tsconfig.json's settings that change the emitted JavaScript, as tsx applies them: imports stay as written.
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, target: 'ES2022' } },
        define: {
          'import.meta.url': JSON.stringify(url),
          'import.meta.filename': JSON.stringify(file),
          'import.meta.dirname': JSON.stringify(dirname(file)),
        },
      });
      const [imports] = parse(result.code);
      let text = result.code;
      let computed = false;
      // From the end, so earlier positions stay valid.
      for (const imp of [...imports].reverse()) {
        if (imp.d === -2) continue; // import.meta
        const spec = imp.n;
        if (spec === undefined) {
          // import(expression): mapped at run time.
          computed = true;
          text = `${text.slice(0, imp.s)}__compiled(${text.slice(imp.s, imp.e)})${text.slice(imp.e)}`;
          continue;
        }
        let replacement: string | undefined;
        if (spec.startsWith('./') || spec.startsWith('../')) {
          const target = join(dirname(file), spec);
          replacement = compiledSet.has(target) ? `${spec}.mjs` : pathToFileURL(target).href;
        } else if (sourceRoute(spec) !== null) {
          replacement = nameCopy(spec);
        }
        if (replacement === undefined) continue;
        // A static import's s..e is the specifier without quotes; a dynamic one's includes them.
        const quoted = imp.d > -1;
        text = quoted
          ? `${text.slice(0, imp.s)}${JSON.stringify(replacement)}${text.slice(imp.e)}`
          : `${text.slice(0, imp.s)}${replacement}${text.slice(imp.e)}`;
      }
      if (computed)
        text = `import { compiled as __compiled } from ${JSON.stringify(pathToFileURL(runtime).href)};\n${text}`;
      writeChanged(dest, text);
    }),
  );
  // The workspace names a computed import may give (a bench package, a world by name).
  for (const [name, { manifest }] of packages)
    for (const key of Object.keys(manifest.exports ?? {}))
      if (!key.includes('*')) nameCopy(key === '.' ? name : `${name}/${key.slice(2)}`);
  // Sorted: the files compile at once, so the order names were met in differs from run to run.
  const table = Object.fromEntries(Object.entries(names).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeChanged(runtime, RUNTIME.replace('NAMES_TABLE', JSON.stringify(table)));
  // The command: the TZ the real bin sets, then the compiled main.
  const bin = join(out, 'packages/seahaven/bin/seahaven.mjs');
  writeChanged(
    bin,
    `// Written by packages/seahaven/core/test/compiled-copy.ts: packages/seahaven/bin/seahaven.mjs without tsx.\nprocess.env.TZ = 'UTC';\nawait import(${JSON.stringify(`.${sep}${relative(dirname(bin), copyOf(join(ROOT, 'packages/seahaven/command/cli/main.ts')))}`.replaceAll(sep, '/'))});\n`,
  );
  return out;
}
