// The one-way order between Stripe World's folders (docs/stripe.md, "How the code is laid out"): a file may import
// from its own folder and the folders below it, never from one above. Imports are read with the TypeScript parser,
// static, re-exports and dynamic `import()` alike, so a back edge cannot hide in a string or a lazy load.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Lowest first. Anything else in the world (the top-level files, fixtures/, test/) sits above them all. */
export const FOLDER_ORDER = ['lib', 'resources', 'billing'] as const;
const TOP = FOLDER_ORDER.length;

function rankOf(file: string): number {
  const first = relative(ROOT, file).split(sep)[0];
  const at = (FOLDER_ORDER as readonly string[]).indexOf(first);
  return at < 0 ? TOP : at;
}

const folderName = (rank: number): string =>
  rank === TOP ? 'the top level' : `${FOLDER_ORDER[rank]}/`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file names: `import … from`, `import '…'`, `export … from`, `import('…')`, `import x = require('…')`. */
export function importsOf(fileName: string, text: string): { specifier: string; line: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node, literal: ts.Expression | undefined) => {
    if (literal && ts.isStringLiteralLike(literal)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ specifier: literal.text, line });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      add(node, node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node, node.arguments[0]);
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    )
      add(node, node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node, node.argument.literal as ts.Expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The imports that go up the order, each as `file:line imports target (folder above folder)`. */
function backEdges(files: readonly { path: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { path: file, text } of files) {
    const rank = rankOf(file);
    for (const { specifier, line } of importsOf(file, text)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(ROOT + sep)) continue;
      const targetRank = rankOf(target);
      if (targetRank > rank)
        out.push(
          `${relative(ROOT, file)}:${line} imports ${relative(ROOT, target)} ` +
            `(${folderName(targetRank)} sits above ${folderName(rank)})`,
        );
    }
  }
  return out;
}

describe('folder order', () => {
  it('has no import from a folder above the importing one', () => {
    const files = sourceFiles(ROOT).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(
      backEdges(files),
      `move the imported code down to the importing file's folder (or lower), or the importer up; the order is ${FOLDER_ORDER.join(' ← ')} ← the top level`,
    ).toEqual([]);
  });

  it('reads static, re-exported, dynamic and type-only imports', () => {
    const text = [
      "import { a } from '../resources/a.ts';",
      "import '../billing/b.ts';",
      "export { c } from './c.ts';",
      "const d = await import('../billing/d.ts');",
      "type E = import('../resources/e.ts').E;",
      "import f = require('./f.ts');",
      'const g = \'import("../billing/not-an-import.ts")\';',
    ].join('\n');
    expect(importsOf('x.ts', text)).toEqual([
      { specifier: '../resources/a.ts', line: 1 },
      { specifier: '../billing/b.ts', line: 2 },
      { specifier: './c.ts', line: 3 },
      { specifier: '../billing/d.ts', line: 4 },
      { specifier: '../resources/e.ts', line: 5 },
      { specifier: './f.ts', line: 6 },
    ]);
  });

  it('names the offending import, and lets a folder import its own and lower folders', () => {
    const files = [
      {
        path: join(ROOT, 'lib', 'x.ts'),
        text: "import { store } from './store.ts';\n\nimport('../billing/y.ts');",
      },
      { path: join(ROOT, 'billing', 'y.ts'), text: "import { c } from '../resources/c.ts';" },
      { path: join(ROOT, 'resources', 'c.ts'), text: "export type { T } from '../tools.ts';" },
      { path: join(ROOT, 'tools.ts'), text: "import { y } from './billing/y.ts';" },
    ];
    expect(backEdges(files)).toEqual([
      'lib/x.ts:3 imports billing/y.ts (billing/ sits above lib/)',
      'resources/c.ts:1 imports tools.ts (the top level sits above resources/)',
    ]);
  });
});
