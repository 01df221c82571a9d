/**
 * Seahaven's ESLint plugin: rules that keep world code deterministic and isolated, so the same fixture, seed and
 * clock replay byte for byte. World time comes from `ctx.clock`, randomness from `ctx.rng` and `ctx.ids`, data from
 * the world's own database through `?` parameters; the host's clock, entropy, environment, timers and I/O are off
 * limits. The default export is the plugin; `configs.recommended` is a flat config that turns on every recommended
 * rule (derived from each rule's `meta.docs.recommended`) for TypeScript and JavaScript files, tests excluded.
 *
 * @example
 * // eslint.config.mjs
 * import seahaven from 'seahaven/lint';
 * export default [seahaven.configs.recommended];
 *
 * @module seahaven/lint
 */
import * as parser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';
import noCryptoRandom from './no-crypto-random.ts';
import noIo from './no-io.ts';
import noLocaleFormat from './no-locale-format.ts';
import noMathRandom from './no-math-random.ts';
import noMonotonicClock from './no-monotonic-clock.ts';
import noProcessEnv from './no-process-env.ts';
import noSqlInterpolation from './no-sql-interpolation.ts';
import noTimers from './no-timers.ts';
import noWallClock from './no-wall-clock.ts';
import requireOrderBy from './require-order-by.ts';

export type { SeahavenRuleDocs } from './create-rule.ts';

/** Every rule, by id (the file name). */
export const rules = {
  'no-crypto-random': noCryptoRandom,
  'no-io': noIo,
  'no-locale-format': noLocaleFormat,
  'no-math-random': noMathRandom,
  'no-monotonic-clock': noMonotonicClock,
  'no-process-env': noProcessEnv,
  'no-sql-interpolation': noSqlInterpolation,
  'no-timers': noTimers,
  'no-wall-clock': noWallClock,
  'require-order-by': requireOrderBy,
};

/** The files `configs.recommended` applies to: world code in TypeScript or JavaScript. */
export const WORLD_FILES = ['**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}'];
/** Tests and build output: not world code. */
export const NOT_WORLD_FILES = [
  '**/*.test.*',
  '**/*.spec.*',
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/dist/**',
  '**/node_modules/**',
];

export interface SeahavenPlugin extends TSESLint.FlatConfig.Plugin {
  meta: { name: string };
  rules: typeof rules;
  configs: { recommended: TSESLint.FlatConfig.Config };
}

const recommendedRules: TSESLint.FlatConfig.Rules = Object.fromEntries(
  Object.entries(rules)
    .filter(([, rule]) => rule.meta.docs?.recommended)
    .map(([id]) => [`seahaven/${id}`, 'error' as const]),
);

const plugin: SeahavenPlugin = {
  meta: { name: 'seahaven' },
  rules,
  configs: {} as SeahavenPlugin['configs'],
};

plugin.configs.recommended = {
  name: 'seahaven/recommended',
  files: WORLD_FILES,
  ignores: NOT_WORLD_FILES,
  languageOptions: { parser },
  plugins: { seahaven: plugin },
  rules: recommendedRules,
};

export default plugin;
