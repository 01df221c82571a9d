/**
 * Dependencies point one way: no file imports itself back through others, and no file imports from a layer above its
 * own; kit core's own rule is a lint rule, tested here too. docs/architecture.md, "Layers".
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildImportGraph,
  findCycles,
  importsOf,
  sourceFiles,
  type ImportGraph,
} from './import-graph.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

function graphOf(edges: Record<string, string[]>): ImportGraph {
  return new Map(Object.entries(edges));
}

/**
 * The layers of docs/architecture.md, bottom first, by path prefix (the longest match wins). A file imports from its
 * own layer or those below. Tests, worlds, benchmarks, the end-to-end suite and doc examples use the package and are
 * imported by none of it.
 */
const PKG = 'packages/seahaven/';
const LAYERS: readonly (readonly string[])[] = [
  [`${PKG}core/`],
  [`${PKG}libraries/`],
  [`${PKG}transports/`],
  [`${PKG}command/`, `${PKG}bin/`],
  ['worlds/', 'bench/', 'e2e/', 'docs/', `${PKG}core/test/`, ''],
];

function layerOf(file: string): number {
  if (/\.test\.[cm]?[jt]s$/.test(file)) return LAYERS.length - 1;
  let best = { layer: -1, length: -1 };
  LAYERS.forEach((prefixes, layer) => {
    for (const p of prefixes) {
      // `core/` is kit core: the files directly in it, not its folders.
      const holds =
        file.startsWith(p) && (p !== `${PKG}core/` || !file.slice(p.length).includes('/'));
      if (holds && p.length > best.length) best = { layer, length: p.length };
    }
  });
  return best.layer;
}

/** Imports from a file to a file of a higher layer. */
function upwardImports(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets)
      if (layerOf(to) > layerOf(from))
        out.push(`${from} (layer ${layerOf(from)}) → ${to} (layer ${layerOf(to)})`);
  }
  return out;
}

describe('the repository', () => {
  const files = sourceFiles(root);
  const graph = buildImportGraph(root, files);

  it('has no import cycle between files (type-only imports included)', () => {
    const cycles = findCycles(graph).map((chain) => chain.join(' → '));
    expect(
      cycles,
      `import cycles; move what both sides need into a module below them:\n${cycles.join('\n')}`,
    ).toEqual([]);
  });

  it('imports only from the same layer or below (docs/architecture.md, "Layers")', () => {
    const upward = upwardImports(graph);
    expect(
      upward,
      `imports that point up a layer; move what is shared down, or name it as an interface below:\n${upward.join('\n')}`,
    ).toEqual([]);
  });

  it('is read whole: every folder, type-only imports, and the package importing itself', () => {
    for (const folder of [
      'packages/seahaven/core/',
      'packages/seahaven/transports/serve/',
      'packages/seahaven/libraries/rewards/',
      'packages/seahaven/libraries/curricula/',
      'packages/seahaven/libraries/lint-rules/',
      'worlds/',
      'bench/',
      'docs/',
      'packages/seahaven/bin/',
    ]) {
      expect(
        files.some((f) => f.startsWith(folder)),
        folder,
      ).toBe(true);
    }
    expect(files).toContain('eslint.config.ts');
    expect(
      files.some(
        (f) =>
          f.includes('/test-fixtures/') || f.startsWith('node_modules/') || f.startsWith('dist/'),
      ),
    ).toBe(false);
    expect(graph.get('packages/seahaven/core/world.ts')).toContain(
      'packages/seahaven/core/instance.ts',
    );
    // Only `import type { World, WorldSpec } from './world-types.ts'` and `export type { … } from` join these two.
    expect(graph.get('packages/seahaven/core/world.ts')).toContain(
      'packages/seahaven/core/world-types.ts',
    );
    // `import … from 'seahaven'` resolves to the kit's entry point, as it does for users.
    expect(graph.get('worlds/crm/index.ts')).toContain('packages/seahaven/core/index.ts');
    // `.mjs` files and `../x.ts` specifiers.
    expect(graph.get('packages/seahaven/bin/seahaven.mjs')).toEqual([]);
    expect(graph.get('packages/seahaven/command/check/schema.ts')).toContain(
      'packages/seahaven/core/sql-tokens.ts',
    );
  });
});

describe('the layer table', () => {
  it('places files by folder, tests at the top, and reports only imports that point up', () => {
    expect(
      [
        'packages/seahaven/core/world.ts',
        'packages/seahaven/libraries/curricula/define.ts',
        'packages/seahaven/transports/serve/app.ts',
        'packages/seahaven/command/cli/main.ts',
        'worlds/crm/index.ts',
        'packages/seahaven/core/test/world.test.ts',
      ].map(layerOf),
    ).toEqual([0, 1, 2, 3, 4, 4]);
    const graph = graphOf({
      'packages/seahaven/core/world.ts': [
        'packages/seahaven/libraries/curricula/define.ts',
        'packages/seahaven/core/instance.ts',
      ],
      'packages/seahaven/libraries/rewards/grade.ts': ['packages/seahaven/transports/serve/app.ts'],
      'packages/seahaven/command/check/load.ts': [
        'packages/seahaven/command/cli/load-world.ts',
        'packages/seahaven/libraries/rewards/check.ts',
      ],
      'packages/seahaven/core/test/world.test.ts': ['packages/seahaven/command/cli/main.ts'],
    });
    expect(upwardImports(graph)).toEqual([
      'packages/seahaven/core/world.ts (layer 0) → packages/seahaven/libraries/curricula/define.ts (layer 1)',
      'packages/seahaven/libraries/rewards/grade.ts (layer 1) → packages/seahaven/transports/serve/app.ts (layer 2)',
    ]);
  });
});

describe('findCycles', () => {
  it('finds a two-file cycle, a longer one, and a file importing itself, each once', () => {
    const graph = graphOf({
      'a.ts': ['b.ts'],
      'b.ts': ['a.ts', 'c.ts'],
      'c.ts': ['d.ts'],
      'd.ts': ['e.ts'],
      'e.ts': ['c.ts'],
      'f.ts': ['f.ts', 'a.ts'],
    });
    expect(findCycles(graph)).toEqual([
      ['a.ts', 'b.ts', 'a.ts'],
      ['c.ts', 'd.ts', 'e.ts', 'c.ts'],
      ['f.ts', 'f.ts'],
    ]);
  });

  it('reports nothing for a graph without cycles, however the files share imports', () => {
    const graph = graphOf({
      'a.ts': ['b.ts', 'c.ts'],
      'b.ts': ['d.ts'],
      'c.ts': ['d.ts'],
      'd.ts': [],
      'e.ts': ['a.ts', 'node:fs'],
    });
    expect(findCycles(graph)).toEqual([]);
  });

  it('shows every import that closes a cycle, not only the shortest cycle', () => {
    // b.ts and c.ts each import a.ts back: cutting one import leaves the other cycle.
    const graph = graphOf({ 'a.ts': ['b.ts', 'c.ts'], 'b.ts': ['a.ts', 'c.ts'], 'c.ts': ['a.ts'] });
    const cycles = findCycles(graph);
    const shown = new Set(
      cycles.flatMap((chain) => chain.slice(1).map((to, i) => `${chain[i]} → ${to}`)),
    );
    expect([...shown].sort()).toEqual([
      'a.ts → b.ts',
      'a.ts → c.ts',
      'b.ts → a.ts',
      'b.ts → c.ts',
      'c.ts → a.ts',
    ]);
    for (const chain of cycles) expect(chain[0]).toBe(chain[chain.length - 1]);
  });

  it('handles a long chain without overflowing the stack', () => {
    const n = 20_000;
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < n; i++) edges[`m${i}.ts`] = [`m${(i + 1) % n}.ts`];
    const [cycle, ...rest] = findCycles(graphOf(edges));
    expect(rest).toEqual([]);
    expect(cycle.length).toBe(n + 1);
  });
});

describe('importsOf', () => {
  it('reads imports, re-exports and type references, and leaves run-time lazy loads out', () => {
    // `import { type C }` stays an import at run time (verbatimModuleSyntax); `import type` is erased.
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C } from './c.ts';",
      "import './d.ts';",
      "export { e } from './e.ts';",
      "export type { F } from './f.ts';",
      "export * from './g.ts';",
      "import h = require('./h.ts');",
      "type I = import('./i.ts').I;",
      "declare module './j.ts' { interface J { k: 1 } }",
      "const lazy = () => import('./lazy.ts');",
      'const text = "import { x } from \'./in-a-string.ts\'";',
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { specifier: './a.ts', typeOnly: false },
      { specifier: './b.ts', typeOnly: true },
      { specifier: './c.ts', typeOnly: false },
      { specifier: './d.ts', typeOnly: false },
      { specifier: './e.ts', typeOnly: false },
      { specifier: './f.ts', typeOnly: true },
      { specifier: './g.ts', typeOnly: false },
      { specifier: './h.ts', typeOnly: false },
      { specifier: './i.ts', typeOnly: true },
      { specifier: './j.ts', typeOnly: true },
    ]);
  });
});

describe('a cycle on disk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'seahaven-import-graph-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write(
      'package.json',
      JSON.stringify({ name: 'demo', exports: { '.': { default: './dist/core/index.js' } } }),
    );
    write('core/index.ts', "export { World } from './world.ts';\n");
    // The shape of the cycle the kit had: a type-only import one way, a value import the other.
    write(
      'core/world.ts',
      "import type { Plan } from '../plans/plan.js';\nexport class World { plan?: Plan }\n",
    );
    write(
      'plans/plan.ts',
      "import { World } from '../core/world';\nexport interface Plan { world: World }\n",
    );
    write('plans/use.mjs', "import { World } from 'demo';\nexport const w = new World();\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is found through type-only imports, `.js` and extension-less specifiers', () => {
    const graph = buildImportGraph(dir, sourceFiles(dir));
    expect(graph.get('plans/use.mjs')).toEqual(['core/index.ts']);
    expect(findCycles(graph)).toEqual([['core/world.ts', 'plans/plan.ts', 'core/world.ts']]);
  });
});

describe('the layer rule (eslint.config.ts, repo/layers)', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (file: string, text: string) => {
    const [result] = await eslint.lintText(text, { filePath: join(root, PKG, file) });
    return result.messages.filter((m) => m.ruleId === 'repo/layers').map((m) => m.line);
  };
  const offending = [
    "import { expectChanges } from '../libraries/rewards/index.ts';",
    "import type { Curriculum } from '../libraries/curricula/define.ts';",
    "export { createServer } from '../transports/serve/index.ts';",
    "export * from '../command/check/index.ts';",
    "import { defineWorld } from 'seahaven';",
    "export type T = import('../transports/mcp/index.ts').McpHttpOptions;",
    "export const load = () => import('../command/cli/main.ts');",
    "import { crm } from '../../../worlds/crm/index.ts';",
    "import { helper } from './test/test-world.ts';",
    "import { z } from 'zod';",
    "import type { Row } from './values.ts';",
    'export { expectChanges, defineWorld, crm, helper, z };',
    'export type { Curriculum, Row };',
  ].join('\n');

  it('refuses, in kit core, imports from above it, from outside the package and of the package by name', async () => {
    expect(await lint('core/layer-probe.ts', offending)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('lets each folder import down the table and the folders LAYERS lists beside it, and nothing else', async () => {
    const probe = (specifiers: string[]) => specifiers.map((s) => `import '${s}';`).join('\n');
    // transports/serve: core and libraries below it, MCP beside it; not the command above it.
    expect(
      await lint(
        'transports/serve/layer-probe.ts',
        probe([
          '../../core/world.ts',
          '../../libraries/curricula/errors.ts',
          '../mcp/index.ts',
          './app.ts',
          '../../command/cli/main.ts',
        ]),
      ),
    ).toEqual([5]);
    // libraries/testing may use the graders beside it, not the client.
    expect(
      await lint(
        'libraries/testing/layer-probe.ts',
        probe(['../rewards/check.ts', '../client/index.ts']),
      ),
    ).toEqual([2]);
    // The command's folders use each other and everything below.
    expect(
      await lint(
        'command/cli/layer-probe.ts',
        probe(['../check/index.ts', '../../transports/serve/server.ts', '../../core/index.ts']),
      ),
    ).toEqual([]);
  });

  it('leaves tests and the code outside the package alone', async () => {
    expect(await lint('core/layer-probe.test.ts', offending)).toEqual([]);
    expect(await lint('core/test/layer-probe.ts', offending)).toEqual([]);
    const [outside] = await eslint.lintText(offending, {
      filePath: join(root, 'bench', 'probe.ts'),
    });
    expect(outside.messages.filter((m) => m.ruleId === 'repo/layers')).toEqual([]);
  });
});
