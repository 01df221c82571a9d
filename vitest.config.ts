import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Docs examples and world code import the published names; inside the repository they resolve to the sources.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^seahaven\/rewards$/, replacement: here('./rewards/index.ts') },
      { find: /^seahaven\/curricula$/, replacement: here('./curricula/index.ts') },
      { find: /^seahaven\/lint$/, replacement: here('./lint-rules/index.ts') },
      { find: /^seahaven\/client$/, replacement: here('./kit/client/index.ts') },
      { find: /^seahaven\/testing$/, replacement: here('./kit/testing/index.ts') },
      { find: /^seahaven\/serve$/, replacement: here('./kit/serve/index.ts') },
      { find: /^seahaven\/worlds\/stripe$/, replacement: here('./worlds/stripe/index.ts') },
      { find: /^seahaven$/, replacement: here('./kit/index.ts') },
    ],
  },
  test: {
    include: ['**/*.test.ts'],
    // e2e/: the slow end-to-end suite, `npm run test:e2e` (vitest.e2e.config.ts).
    exclude: ['node_modules/**', 'dist/**', '**/scaffold-out/**', 'e2e/**'],
    env: { TZ: 'UTC' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
