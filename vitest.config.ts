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

const exclude = ['**/node_modules/**', '**/dist/**', '**/scaffold-out/**', 'e2e/**'];

// Files that need a process of their own; every other file shares one with the files before it.
const OWN_PROCESS = [
  // Loads the kit's other tests with SEAHAVEN_COPY_ON_WRITE=all set before anything reads it.
  'packages/seahaven/core/test/on-copy-on-write.test.ts',
  // Expect no idle connection (core/idle-connections.ts) an earlier file's destroyed instance left for the fixture.
  'packages/seahaven/core/test/hibernate-episode.test.ts',
  'packages/seahaven/transports/serve/idle-hibernation.test.ts',
  'packages/seahaven/transports/serve/memory-budget.test.ts',
];

export default defineConfig({
  plugins: [kitFromAnywhere],
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      // Modules stay loaded, and compiled, from one file to the next.
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['**/*.test.ts'],
          // e2e/: the slow end-to-end suite, `npm run test:e2e` (vitest.e2e.config.ts).
          exclude: [...exclude, ...OWN_PROCESS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
    ],
    env: { TZ: 'UTC' },
    // Compiles the sources once for the child processes the tests start (vitest.global-setup.ts).
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
