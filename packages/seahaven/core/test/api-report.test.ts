/**
 * The published API, as a user's compiler sees it. The declarations `npm run build` would emit (packages/seahaven/tsconfig.build.json,
 * `stripInternal` included) are emitted in memory for the subpath entries of package.json `exports`, then read back
 * through those entries the way a project that installed the package reads them. The test checks that
 *
 * - the declarations type-check on their own, and none carries `@internal` or, among those reachable from an export,
 *   names a runtime internal (DENYLIST): what the sources hide stays hidden in the package;
 * - every declaration an export refers to is exported too, so users never meet a type they cannot import;
 * - each subpath's exports, with their kinds and declarations, match the committed `packages/seahaven/api-report/<subpath>.api.md`,
 *   and docs/api-surface.md lists exactly those exports with why each exists.
 *
 * A change to the public surface is made on purpose: update the reports with
 * `SEAHAVEN_UPDATE_API=1 npx vitest run packages/seahaven/core/test/api-report.test.ts`, review their diff, and update docs/api-surface.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The repository root; the packages below are under it. */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** The published packages, each with the folder its reports sit in. */
const PACKAGES = [
  { dir: 'packages/seahaven', reports: 'packages/seahaven/api-report' },
  { dir: 'worlds/stripe', reports: 'worlds/stripe/api-report' },
];
const UPDATE = process.env.SEAHAVEN_UPDATE_API === '1';
const UPDATE_COMMAND =
  'SEAHAVEN_UPDATE_API=1 npx vitest run packages/seahaven/core/test/api-report.test.ts';
/** Where the declarations would be written; nothing is written there, the files stay in memory. */
const OUT = join(root, 'node_modules', '.seahaven-api-report');

/** Runtime internals that no published declaration may name (members and types of the data path and the build). */
const DENYLIST = [
  'callForWire',
  'WireCallResult',
  'runBuild',
  'databases',
  'onFrame',
  'onFailure',
  'runNext',
  'Endpoint',
  'FairScheduler',
  'RowReader',
  'loadFixture',
  'setDefaultSlowCallMs',
  'getDefaultSlowCallMs',
];

interface Subpath {
  /** `seahaven`, `seahaven/serve`, … */
  name: string;
  /** The entry's source file. */
  source: string;
  /** The entry's declaration file as emitted. */
  dts: string;
  /** The report file, relative to the repository root. */
  report: string;
}

function subpaths(): Subpath[] {
  return PACKAGES.flatMap(({ dir, reports }) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, { types?: string } | string>;
    };
    return Object.entries(pkg.exports).flatMap(([key, target]) => {
      if (typeof target === 'string' || target.types === undefined) return [];
      const name = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`;
      const file = target.types.replace(/^\.\/dist\//, '');
      return [
        {
          name,
          source: join(root, dir, file.replace(/\.d\.ts$/, '.ts')),
          dts: join(OUT, dir, file),
          report: `${reports}/${name.replace(/^@/, '').replaceAll('/', '-')}.api.md`,
        },
      ];
    });
  });
}

/**
 * The installed declarations (TypeScript's own libraries, @types/node, zod, hono, …), parsed once for both programs
 * below: they have the same target and module settings, and parsing those files is a third of each program's start.
 */
const installed = new Map<string, ts.SourceFile>();
function sharingInstalled(host: ts.CompilerHost): ts.CompilerHost {
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    if (!fileName.includes('/node_modules/'))
      return getSourceFile(fileName, language, onError, fresh);
    const key = `${fileName} ${typeof language === 'object' ? `${language.languageVersion} ${language.impliedNodeFormat}` : language}`;
    let file = installed.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, language, onError, fresh);
      if (file) installed.set(key, file);
    }
    return file;
  };
  return host;
}

/**
 * The declarations packages/seahaven/tsconfig.build.json emits for the subpath entries and every module they import, by absolute path
 * under OUT. (The build also emits modules no entry reaches, such as the CLI's; users cannot load those.)
 */
function emitDeclarations(entries: string[]): {
  files: Map<string, string>;
  diagnostics: readonly ts.Diagnostic[];
} {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'packages/seahaven/tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const options: ts.CompilerOptions = {
    ...config.options,
    // Every package's declarations in one tree, as their relative imports of each other's sources need.
    rootDir: root,
    outDir: OUT,
    declaration: true,
    emitDeclarationOnly: true,
    sourceMap: false,
    declarationMap: false,
  };
  const program = ts.createProgram({
    rootNames: entries,
    options,
    host: sharingInstalled(ts.createCompilerHost(options)),
  });
  const files = new Map<string, string>();
  // Declarations only, without type-checking the sources first (`npm run typecheck` does that): a third of the time.
  // That is emit's sixth parameter, `forceDtsEmit`, which TypeScript's published typings leave out (a TypeScript
  // without it would ignore the argument and check first). The declarations are the build's but for the
  // order of some unions' members, which follows the order types were first met in; the reports are written from
  // this emit.
  const emit = program.emit.bind(program) as (
    ...args: [...Parameters<ts.Program['emit']>, forceDtsEmit: boolean]
  ) => ts.EmitResult;
  const result = emit(
    undefined,
    (name, text) => files.set(name, text),
    undefined,
    true,
    undefined,
    true,
  );
  return { files, diagnostics: result.diagnostics };
}

/**
 * A program over the emitted declarations, rooted at the subpath entries, resolving packages from node_modules, and
 * each published package (`seahaven`, as Stripe World's declarations import it) from the declarations emitted here.
 */
function declarationProgram(
  files: Map<string, string>,
  entries: string[],
  published: Record<string, string[]> = {},
): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: false,
    paths: published,
  };
  const host = sharingInstalled(ts.createCompilerHost(options));
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const dirs = new Set(
    [...files.keys()].flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  host.directoryExists = (d) =>
    dirs.has(d.replace(/\/$/, '')) || (directoryExists?.call(host, d) ?? false);
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, onError) => {
    const text = files.get(f);
    return text !== undefined
      ? ts.createSourceFile(f, text, language, true)
      : getSourceFile.call(host, f, language, onError);
  };
  return ts.createProgram({ rootNames: entries, options, host });
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** Where an export of another package comes from, as the declarations write it: `re-exported from zod`. */
function reexportOf(
  checker: ts.TypeChecker,
  symbol: ts.Symbol,
  files: Map<string, string>,
): string {
  let s: ts.Symbol | undefined = symbol;
  let last: ts.ImportSpecifier | ts.ExportSpecifier | undefined;
  for (let hops = 0; s && s.flags & ts.SymbolFlags.Alias && hops < 20; hops++) {
    const d = s.declarations?.find(
      (x): x is ts.ImportSpecifier | ts.ExportSpecifier =>
        (ts.isImportSpecifier(x) || ts.isExportSpecifier(x)) &&
        files.has(x.getSourceFile().fileName),
    );
    if (d === undefined) break;
    last = d;
    s = checker.getImmediateAliasedSymbol(s);
  }
  const statement =
    last && (ts.isImportSpecifier(last) ? last.parent.parent.parent : last.parent.parent);
  const specifier = statement?.moduleSpecifier;
  if (last === undefined || specifier === undefined || !ts.isStringLiteral(specifier))
    return 're-exported from another package';
  const name = (last.propertyName ?? last.name).getText();
  return `re-exported from ${specifier.text}${name !== symbol.name ? ` (its ${name})` : ''}`;
}

const isHidden = (m: ts.ClassElement | ts.TypeElement) =>
  (m.name !== undefined && ts.isPrivateIdentifier(m.name)) ||
  (ts.canHaveModifiers(m) &&
    !!ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword));

/** A declaration as the report shows it: without comments, `export`/`declare`, and private members. */
function printDeclaration(node: ts.Node, source: ts.SourceFile): string {
  let shown: ts.Node = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  if (ts.isClassDeclaration(shown)) {
    const c = shown;
    shown = ts.factory.updateClassDeclaration(
      c,
      c.modifiers,
      c.name,
      c.typeParameters,
      c.heritageClauses,
      c.members.filter((m) => !isHidden(m)),
    );
  }
  return printer
    .printNode(ts.EmitHint.Unspecified, shown, source)
    .replace(/^export /, '')
    .replace(/^declare /, '');
}

function kindOf(node: ts.Node): string {
  if (ts.isFunctionDeclaration(node)) return 'function';
  if (ts.isClassDeclaration(node)) return 'class';
  if (ts.isInterfaceDeclaration(node)) return 'interface';
  if (ts.isTypeAliasDeclaration(node)) return 'type';
  if (ts.isVariableDeclaration(node))
    return ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const ? 'const' : 'variable';
  if (ts.isEnumDeclaration(node)) return 'enum';
  if (ts.isModuleDeclaration(node)) return 'namespace';
  return ts.SyntaxKind[node.kind];
}

/** Whether any re-export on the way from the entry to the declaration is `export type`. */
function exportedAsTypeOnly(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  let s: ts.Symbol | undefined = symbol;
  for (let hops = 0; s && s.flags & ts.SymbolFlags.Alias && hops < 20; hops++) {
    if (
      s.declarations?.some(
        (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
      )
    )
      return true;
    s = checker.getImmediateAliasedSymbol(s);
  }
  return false;
}

/** Case-insensitive, then by code unit: deterministic on every machine. */
const byName = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

interface Export {
  name: string;
  /** The line above the declaration in the report: the name and its kind. */
  heading: string;
  /** Its declarations among the emitted files (none for a re-export from another package). */
  declarations: ts.Declaration[];
}

/** Every export of a subpath, sorted by name, with its kind and declarations. */
function exportsOf(
  checker: ts.TypeChecker,
  entry: ts.SourceFile,
  files: Map<string, string>,
): Export[] {
  const symbols = checker
    .getExportsOfModule(checker.getSymbolAtLocation(entry)!)
    .sort((a, b) => byName(a.name, b.name));
  return symbols.map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const all = target.declarations ?? [];
    const declarations = all.filter((d) => files.has(d.getSourceFile().fileName));
    if (declarations.length === 0)
      return {
        name: symbol.name,
        heading: `${symbol.name}: ${reexportOf(checker, symbol, files)}`,
        declarations,
      };
    const kinds = [...new Set(declarations.map(kindOf))].join(' + ');
    const typeOnly =
      exportedAsTypeOnly(checker, symbol) && target.flags & ts.SymbolFlags.Value
        ? ', exported as a type only (no runtime value)'
        : '';
    const named =
      target.name !== symbol.name && target.name !== 'default'
        ? ` (declared as ${target.name})`
        : '';
    return {
      name: symbol.name,
      heading: `${symbol.name}: ${kinds}${typeOnly}${named}`,
      declarations,
    };
  });
}

const isTopLevel = (d: ts.Node) => {
  const statement = ts.isVariableDeclaration(d) ? d.parent.parent : d;
  return ts.isSourceFile(statement.parent) || ts.isModuleBlock(statement.parent);
};

/** The declarations a user can reach from `roots`: the roots and every emitted declaration their text names, transitively. */
function reachableDeclarations(
  checker: ts.TypeChecker,
  roots: ts.Declaration[],
  files: Map<string, string>,
): Set<ts.Declaration> {
  const seen = new Set<ts.Declaration>();
  const queue = [...roots];
  while (queue.length > 0) {
    const d = queue.pop()!;
    if (seen.has(d)) continue;
    seen.add(d);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) {
        let symbol = checker.getSymbolAtLocation(node);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias)
          symbol = checker.getAliasedSymbol(symbol);
        for (const r of symbol?.declarations ?? [])
          if (files.has(r.getSourceFile().fileName) && isTopLevel(r) && !seen.has(r)) queue.push(r);
      }
      ts.forEachChild(node, visit);
    };
    visit(d);
  }
  return seen;
}

/** The report of one subpath. */
function reportOf(name: string, exports: Export[]): string {
  const blocks = exports.map((e) =>
    [`// ${e.heading}`, ...e.declarations.map((d) => printDeclaration(d, d.getSourceFile()))].join(
      '\n',
    ),
  );
  return [
    `# ${name}`,
    '',
    `The public API of \`${name}\`: its exports as the published declarations show them. Generated by`,
    `packages/seahaven/core/test/api-report.test.ts; after a deliberate change to the surface, run \`${UPDATE_COMMAND}\``,
    'and commit this file (docs/api-surface.md says why each export exists).',
    '',
    '```ts',
    blocks.join('\n\n'),
    '```',
    '',
  ].join('\n');
}

/** The exports docs/api-surface.md lists, by subpath: the names in the first column of each subpath's table. */
function documentedExports(markdown: string): Map<string, string[]> {
  const listed = new Map<string, string[]>();
  let section: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## `([^`]+)`/.exec(line);
    if (heading) listed.set(heading[1], (section = []));
    else if (line.startsWith('## ')) section = undefined;
    else if (section && /^\| `/.test(line))
      section.push(...[...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  }
  return listed;
}

/** Where a declaration lives, for messages: `packages/seahaven/core/capture.ts: RowReader`. */
const placeOf = (d: ts.Declaration) =>
  `${relative(OUT, d.getSourceFile().fileName)
    .split(sep)
    .join('/')
    .replace(
      /\.d\.ts$/,
      '.ts',
    )}: ${ts.getNameOfDeclaration(d)?.getText() ?? ts.SyntaxKind[d.kind]}`;

describe('the published API', () => {
  const paths = subpaths();
  let emitted: { files: Map<string, string>; diagnostics: readonly ts.Diagnostic[] };
  let program: ts.Program;
  let exports: Map<string, Export[]>;
  /** Every declaration a user reaches through the subpaths' exports. */
  let reached: Set<ts.Declaration>;

  beforeAll(() => {
    emitted = emitDeclarations(paths.map((p) => p.source));
    program = declarationProgram(
      emitted.files,
      paths.map((p) => p.dts),
      Object.fromEntries(paths.map((p) => [p.name, [p.dts]])),
    );
    const checker = program.getTypeChecker();
    exports = new Map(
      paths.map((p) => [p.name, exportsOf(checker, program.getSourceFile(p.dts)!, emitted.files)]),
    );
    reached = reachableDeclarations(
      checker,
      [...exports.values()].flat().flatMap((e) => e.declarations),
      emitted.files,
    );
  }, 120_000);

  // The programs hold some 190 MB; the files after this one share its process (vitest.config.ts).
  afterAll(() => {
    installed.clear();
    [emitted, program, exports, reached] = [undefined!, undefined!, undefined!, undefined!];
  });

  const describeDiagnostics = (ds: readonly ts.Diagnostic[]) =>
    ds.map(
      (d) =>
        `${d.file ? `${relative(OUT, d.file.fileName).split(sep).join('/')}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );

  it('emits declarations without errors, and they type-check as a user loads them', () => {
    expect(describeDiagnostics(emitted.diagnostics)).toEqual([]);
    for (const p of paths) expect(emitted.files.has(p.dts), `${p.name}: no ${p.dts}`).toBe(true);
    const loaded = program.getSourceFiles().filter((f) => emitted.files.has(f.fileName));
    expect(
      describeDiagnostics(
        loaded.flatMap((f) => [
          ...program.getSyntacticDiagnostics(f),
          ...program.getSemanticDiagnostics(f),
        ]),
      ),
    ).toEqual([]);
  });

  it('ships no @internal member, and no exported declaration names a runtime internal', () => {
    const tagged = [...emitted.files]
      .filter(([, text]) => text.includes('@internal'))
      .map(([f]) => relative(OUT, f));
    expect(
      tagged,
      'declarations still carrying @internal (is stripInternal set in packages/seahaven/tsconfig.build.json?)',
    ).toEqual([]);
    const named = [...reached].flatMap((d) => {
      const text = printDeclaration(d, d.getSourceFile());
      return DENYLIST.filter((n) => new RegExp(`\\b${n}\\b`).test(text)).map(
        (n) => `${placeOf(d)} names ${n}`,
      );
    });
    expect(
      named,
      'internals visible through a subpath: make them #private, mark them @internal, or stop exporting what names them',
    ).toEqual([]);
  });

  it('exports every declaration its exports refer to', () => {
    const exported = new Set([...exports.values()].flat().flatMap((e) => e.declarations));
    // A `unique symbol` brand stays unexported on purpose: it keeps users from forging the branded type.
    const brand = (d: ts.Declaration) =>
      ts.isVariableDeclaration(d) &&
      !!d.type &&
      ts.isTypeOperatorNode(d.type) &&
      d.type.operator === ts.SyntaxKind.UniqueKeyword;
    const forgotten = [...reached]
      .filter((d) => !exported.has(d) && !brand(d))
      .map(placeOf)
      .sort();
    expect(
      forgotten,
      'a public declaration refers to these, so users meet them without being able to import them: export them from a subpath, or hide the members that name them',
    ).toEqual([]);
  });

  it('lists every export, and only those, in docs/api-surface.md', () => {
    const listed = documentedExports(readFileSync(join(root, 'docs/api-surface.md'), 'utf8'));
    for (const p of paths) {
      const names = exports
        .get(p.name)!
        .map((e) => e.name)
        .sort(byName);
      expect(
        [...(listed.get(p.name) ?? [])].sort(byName),
        `docs/api-surface.md, section \`${p.name}\`: one table row per export, saying why a user needs it`,
      ).toEqual(names);
    }
    expect([...listed.keys()].sort(), 'docs/api-surface.md has a section per subpath').toEqual(
      paths.map((p) => p.name).sort(),
    );
  });

  it.each(paths.map((p) => [p.name, p] as const))(
    'matches the committed API report of %s',
    (name, p) => {
      const report = reportOf(name, exports.get(name)!);
      const file = join(root, p.report);
      if (UPDATE) {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, report);
        return;
      }
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : '(no report committed)';
      expect(
        report,
        `the public API of ${name} changed. If that is intended, update ${p.report} with\n  ${UPDATE_COMMAND}\nreview its diff and say why in docs/api-surface.md; otherwise undo the change to the exports`,
      ).toBe(committed);
    },
  );
});
