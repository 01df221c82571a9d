/**
 * Reset latency: an instance ready for its first call (image deserialized, connection set up, SQL overrides installed,
 * change capture armed), used once and destroyed, against the raw floor measured in the same run:
 * `new Database(image)` + one read + `close()` on plain better-sqlite3.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool, defineWorld, z } from '../kit/index.ts';
import { crm } from '../worlds/crm/index.ts';
import { machine, percentile, sample, us } from './harness.ts';

const READ_SQL = 'SELECT * FROM contacts ORDER BY id LIMIT 1';
const firstContact = defineTool({ name: 'first_contact', description: 'Read one contact.', input: z.object({}), run: (ctx) => ctx.db.one(READ_SQL) ?? null });
const world = defineWorld({ name: 'crm', version: crm.version, schema: crm.schema, tools: [firstContact], fixtures: crm.fixtures, fixturesDir: crm.fixturesDir! });

export interface ResetRow {
  fixture: string;
  bytes: number;
  floor: { p50: number; p99: number };
  kit: { p50: number; p99: number };
}

export function runResetBench(opts: { fixtures?: string[]; quick?: boolean } = {}): ResetRow[] {
  const rows: ResetRow[] = [];
  for (const id of opts.fixtures ?? ['empty', 'small_startup', 'big_co']) {
    const image = readFileSync(join(crm.fixturesDir!, `${id}.sqlite`));
    world.instance({ fixture: id }).destroy(); // load + verify + arm once, as a server does at start
    const n = Math.max(opts.quick ? 20 : 50, Math.round((opts.quick ? 4e7 : 2e8) / image.length / 10));
    const floorSamples: number[] = [];
    const kitSamples: number[] = [];
    // Interleave small batches so both sides see the same machine conditions.
    for (let batch = 0; batch < 10; batch++) {
      floorSamples.push(...sample(n, () => {
        const db = new Database(image);
        db.prepare(READ_SQL).get();
        db.close();
      }));
      kitSamples.push(...sample(n, () => {
        const inst = world.instance({ fixture: id });
        inst.call('first_contact', {});
        inst.destroy();
      }));
    }
    floorSamples.sort((a, b) => a - b);
    kitSamples.sort((a, b) => a - b);
    rows.push({
      fixture: id,
      bytes: image.length,
      floor: { p50: percentile(floorSamples, 50), p99: percentile(floorSamples, 99) },
      kit: { p50: percentile(kitSamples, 50), p99: percentile(kitSamples, 99) },
    });
  }
  return rows;
}

export function formatReset(rows: ResetRow[]): string {
  const size = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : `${Math.round(b / 1024)} KB`);
  return [
    `machine: ${machine()}`,
    '',
    '| fixture | image | floor p50 | floor p99 | reset p50 | reset p99 | p50 × floor |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.fixture} | ${size(r.bytes)} | ${us(r.floor.p50)} | ${us(r.floor.p99)} | ${us(r.kit.p50)} | ${us(r.kit.p99)} | ${(r.kit.p50 / r.floor.p50).toFixed(2)} |`),
    '',
    'Reset = `world.instance({ fixture })` + one read tool call + `destroy()`: the image deserialized, the connection set up, SQL overrides installed, change capture armed, used once. ' +
      'Floor = `new Database(image)` + the same read + `close()` on plain better-sqlite3, interleaved in the same run. ' +
      `Target ≤ 2× the floor (p50) at 100 KB and at 5 MB: ${rows.filter((r) => r.fixture !== 'empty').every((r) => r.kit.p50 / r.floor.p50 <= 2) ? 'met' : 'not met'}.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatReset(runResetBench()));
}
