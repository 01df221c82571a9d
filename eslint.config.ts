import tseslint from 'typescript-eslint';
import seahaven from './packages/seahaven/libraries/lint-rules/index.ts';

/** Specifiers kit core may not import: anything outside packages/seahaven/core/, any folder of packages/seahaven/core/, and `seahaven` itself. */
const KIT_CORE_IMPORTS = ['^\\.\\./', '^\\./[^/]+/', '^seahaven(/|$)'];
const KIT_CORE_MESSAGE =
  'Kit core (packages/seahaven/core/*.ts) is the bottom layer and imports only its sibling files and packages; move what it needs into packages/seahaven/core/, or let the other module depend on kit core instead (docs/architecture.md, "Layers").';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'docs/api/**',
      'node_modules/**',
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
  // World code follows the determinism rules it ships with.
  { ...seahaven.configs.recommended, files: ['worlds/**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}'] },
  // Kit core (packages/seahaven/core/*.ts) is the bottom layer: it imports its sibling files and packages, never a folder of packages/seahaven/core/
  // (serve, mcp, cli, check, …), a folder above it (rewards, curricula, …) or the package's own entry points.
  // Tests beside it are not part of it. docs/architecture.md, "Layers".
  {
    files: ['packages/seahaven/core/*.ts'],
    ignores: ['packages/seahaven/core/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: KIT_CORE_IMPORTS.map((regex) => ({ regex, message: KIT_CORE_MESSAGE })) },
      ],
      'no-restricted-syntax': [
        'error',
        // `import('…')` in a type and a dynamic `import()`, which no-restricted-imports does not see.
        ...KIT_CORE_IMPORTS.map((regex) => regex.replaceAll('/', '\\/')).flatMap((regex) => [
          {
            selector: `TSImportType > Literal.source[value=/${regex}/]`,
            message: KIT_CORE_MESSAGE,
          },
          {
            selector: `ImportExpression > Literal.source[value=/${regex}/]`,
            message: KIT_CORE_MESSAGE,
          },
        ]),
      ],
    },
  },
);
