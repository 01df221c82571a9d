/**
 * A world whose fixtures live in a folder the test fills, then breaks one way per fixture: missing, unreadable,
 * tampered with, frozen for another schema, stale, built non-deterministically, throwing, drifted.
 */
import { defineWorld, type Ctx, type FixtureSpec } from '../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from './shared.ts';

const NOW = '2026-06-01T09:00:00.000Z';
const items = (...names: string[]) => (ctx: Ctx) => {
  for (const name of names) ctx.db.run('INSERT INTO items (id, name) VALUES (?, ?)', ctx.ids.token('itm_', 10), name);
};
let builds = 0;

const fixture = (description: string, build: (ctx: Ctx) => void): FixtureSpec => ({ description, difficulty: 1, now: NOW, build });

export function fixtureWorld(fixturesDir: string) {
  return defineWorld({
    name: 'fixture_world',
    version: '1.0.0',
    schema: ITEMS_SCHEMA,
    tools: [addItem],
    fixturesDir,
    fixtures: {
      good: fixture('Two items.', items('apple', 'pear')),
      missing: fixture('Never frozen.', items('fig')),
      bad_json: fixture('Sidecar is not JSON.', items('kiwi')),
      bad_shape: fixture('Sidecar has a bad sha256.', items('lime')),
      tampered: fixture('Image replaced after the freeze.', items('plum')),
      old_schema: fixture('Frozen for another schema.', items('date')),
      stale: fixture('Builder changed since the freeze.', items('grape', 'melon')),
      // Module state: every build inserts one more row than the last.
      flaky: fixture('Builder depends on how often it ran.', (ctx) => items(...Array.from({ length: ++builds }, (_, i) => `n${i}`))(ctx)),
      throws: fixture('Builder fails.', () => {
        throw new Error('seed data file is gone');
      }),
      drifted: fixture('Sidecar written for an older description.', items('lemon')),
    },
  });
}
