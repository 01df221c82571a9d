import tseslint from 'typescript-eslint';
import seahaven from './lint-rules/index.ts';

export default tseslint.config(
  { ignores: ['dist/**', 'docs/api/**', 'node_modules/**', '**/test-fixtures/**', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // World code follows the determinism rules it ships with.
  { ...seahaven.configs.recommended, files: ['worlds/**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}'] },
);
