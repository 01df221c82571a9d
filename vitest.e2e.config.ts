import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// The unit suite's projects (which of its files share a process) are its own.
const { projects: _unitProjects, ...unit } = base.test!;

// The end-to-end suite (`npm run test:e2e`): slow tests that drive real trainers against real servers, kept out of
// `npm test`. It shares the unit suite's export conditions and environment.
export default defineConfig({
  ...base,
  test: {
    ...unit,
    include: ['e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
