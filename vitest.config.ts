import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The workspace's packages import each other by name (`seahaven`, `seahaven/rewards`, `@seahaven/crm`, …); the
// `@seahaven/source` export condition resolves those names to the TypeScript sources in the repository.
const conditions = ['@seahaven/source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['**/*.test.ts'],
    // e2e/: the slow end-to-end suite, `npm run test:e2e` (vitest.e2e.config.ts).
    exclude: ['**/node_modules/**', '**/dist/**', '**/scaffold-out/**', 'e2e/**'],
    env: { TZ: 'UTC' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
