import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// The end-to-end suite (`npm run test:e2e`): slow tests that drive real trainers against real servers, kept out of
// `npm test`. It shares the unit suite's export conditions and environment.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
