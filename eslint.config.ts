import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import tseslint from 'typescript-eslint';
import seahaven from './packages/seahaven/libraries/lint-rules/index.ts';

/** The published package, whose folders are the layers of docs/architecture.md ("Layers"). */
const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), 'packages', 'seahaven');

/**
 * The layer table, bottom first: each folder of packages/seahaven, its layer, and the folders of its own layer it may
 * import besides itself. A file imports from its own folder, a folder of a lower layer, or one listed here; never from
 * above, from outside the package (worlds, benchmarks: they use it), or the package by its own name.
 */
export const LAYERS: Readonly<Record<string, { layer: number; sideways?: readonly string[] }>> = {
  core: { layer: 1 },
  'libraries/rewards': { layer: 2 },
  'libraries/curricula': { layer: 2 },
  'libraries/lint-rules': { layer: 2 },
  'libraries/client': { layer: 2 },
  'libraries/testing': { layer: 2, sideways: ['libraries/rewards'] },
  'transports/serve': { layer: 3, sideways: ['transports/mcp'] },
  'transports/mcp': { layer: 3, sideways: ['transports/serve'] },
  'transports/console': { layer: 3 },
  command: { layer: 4 },
  'command/cli': {
    layer: 4,
    sideways: ['command', 'command/check', 'command/eval', 'command/publish', 'command/scaffold'],
  },
  'command/check': { layer: 4, sideways: ['command/cli'] },
  'command/scaffold': { layer: 4, sideways: ['command', 'command/cli'] },
  'command/publish': { layer: 4, sideways: ['command/scaffold'] },
  'command/eval': { layer: 4 },
  bin: { layer: 4, sideways: ['command/cli'] },
};

/** The layer folder a path inside packages/seahaven belongs to (`core` holds only the files directly in it). */
function folderOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] === 'core') return parts.length === 2 ? 'core' : undefined;
  if (parts[0] === 'bin') return 'bin';
  if (parts[0] === 'command' && parts.length === 2) return 'command';
  const two = `${parts[0]}/${parts[1]}`;
  return two in LAYERS ? two : undefined;
}

/** Why `from` (a layer folder) may not import `specifier` resolved to `to` (a path in the package, or undefined). */
function refusal(from: string, specifier: string, to: string | undefined): string | undefined {
  if (/^(seahaven|@seahaven\/[^/]+)(\/|$)/.test(specifier))
    return `the package imports its own files by relative path, never \`${specifier}\` (a name the users above it import)`;
  if (!specifier.startsWith('.')) return undefined;
  if (to === undefined || to.startsWith('../'))
    return `\`${specifier}\` is outside packages/seahaven: the worlds, benchmarks and tests there use the package, which imports none of them`;
  const target = folderOf(to);
  if (target === undefined)
    return `\`${specifier}\` is in no layer of the package (core/ is its files, not its folders; core/test/ is its tests)`;
  if (target === from) return undefined;
  const own = LAYERS[from];
  const theirs = LAYERS[target];
  if (theirs.layer < own.layer || own.sideways?.includes(target)) return undefined;
  return theirs.layer > own.layer
    ? `${from}/ (layer ${own.layer}) may not import ${target}/ (layer ${theirs.layer}), which sits above it; move what is shared down, or name it as an interface below`
    : `${from}/ may not import ${target}/ beside it in layer ${own.layer} (LAYERS in eslint.config.ts lists what it may); move what is shared down, or name it as an interface below`;
}

const layersRule: TSESLint.RuleModule<'layer', []> = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports inside packages/seahaven pointing down the layer table.' },
    messages: {
      layer: '{{why}} (docs/architecture.md, "Layers").',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const file = relative(PACKAGE, context.filename).split(sep).join('/');
    const from = folderOf(file);
    if (from === undefined) return {};
    const check = (node: TSESTree.Node | null | undefined) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      const specifier = node.value;
      const to = specifier.startsWith('.')
        ? relative(PACKAGE, join(dirname(context.filename), specifier))
            .split(sep)
            .join('/')
        : undefined;
      const why = refusal(from, specifier, to);
      if (why !== undefined) context.report({ node, messageId: 'layer', data: { why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => {
        const argument = (node as { argument?: TSESTree.TypeNode }).argument;
        check(argument?.type === 'TSLiteralType' ? argument.literal : undefined);
      },
      TSExternalModuleReference: (node) => check(node.expression),
    };
  },
};

/** Stripe World files that still read request parameters as `any`; each leaves this list when it is typed. */
const STRIPE_STILL_UNTYPED = [
  'worlds/stripe/lib/untyped.ts',
  'worlds/stripe/billing/invoice-item-model.ts',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'docs/api/**',
      '**/node_modules/**',
      '**/test-fixtures/**',
      'test-artifacts/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  // Stripe World's code is typed: stored objects are lib/objects.ts's (generated from the SDK's declarations), and
  // arbitrary JSON is `unknown`, narrowed where it is read.
  {
    files: ['worlds/stripe/**/*.ts'],
    ignores: ['worlds/stripe/test/**', '**/*.test.ts', ...STRIPE_STILL_UNTYPED],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  // World code follows the determinism rules it ships with.
  { ...seahaven.configs.recommended, files: ['worlds/**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}'] },
  // The published package's folders are the layers: each imports down the table (LAYERS above). Its tests, and the
  // test support beside them, use the package as its users do and are not part of it.
  {
    files: ['packages/seahaven/**/*.{ts,mts,js,mjs}'],
    ignores: ['**/*.test.ts', 'packages/seahaven/core/test/**'],
    plugins: { repo: { rules: { layers: layersRule } } },
    rules: { 'repo/layers': 'error' },
  },
);
