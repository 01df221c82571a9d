import { fileURLToPath } from 'node:url';
import { defaultServerConditions, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { CONDITION, sourceRoute } from './packages/seahaven/bin/source-condition.mjs';

// The workspace's packages import each other by name (`seahaven`, `seahaven/rewards`, `@seahaven/crm`, …); the
// `@seahaven/source` export condition resolves those names to the TypeScript sources in the repository.
const conditions = [CONDITION, ...defaultServerConditions];

// The rule packages/seahaven/bin/source-condition.mjs applies for the command (its `sourceRoute`), applied for the
// in-process tests that run the command: a world outside the repository (`seahaven new` freezing a new project's fixtures before its `npm install`) resolves
// `seahaven…` to this copy of the kit, and `@seahaven/<world>` from its own folder, else from here.
const repo = fileURLToPath(new URL('./package.json', import.meta.url));
const kitFromAnywhere: Plugin = {
  name: 'seahaven-kit-from-anywhere',
  enforce: 'pre',
  async resolveId(id, importer, options) {
    const route = sourceRoute(id);
    if (route === null) return null;
    if (route === 'world') {
      const own = await this.resolve(id, importer, { ...options, skipSelf: true });
      if (own) return own;
    }
    return this.resolve(id, repo, { ...options, skipSelf: true });
  },
};

export default defineConfig({
  plugins: [kitFromAnywhere],
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['**/*.test.ts'],
    // e2e/: the slow end-to-end suite, `npm run test:e2e` (vitest.e2e.config.ts).
    exclude: ['**/node_modules/**', '**/dist/**', '**/scaffold-out/**', 'e2e/**'],
    env: { TZ: 'UTC' },
    // Compiles the sources once for the child processes the tests start (vitest.global-setup.ts).
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
