/**
 * Reset latency: an instance ready for its first use (image deserialized, connection set up, SQL overrides and the
 * capture function installed, the episode transaction begun), used once and destroyed, against the raw floor measured
 * in the same run: `new Database(image)` + one read + `close()` on plain better-sqlite3. The first use is either a read
 * tool (what an agent's episode starts with) or `inst.query()` (what a grader or a harness does).
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool, defineWorld, z } from 'seahaven';
import { crm } from '@seahaven/crm';
import { stripe } from '@seahaven/stripe';
import { loadFixture, type LoadedFixture } from 'seahaven/internal/core/fixtures';
import { hasIdleRoom, takeIdle } from 'seahaven/internal/core/idle-connections';
import { machine, percentile, sample, us } from './harness.ts';

const READ_SQL = 'SELECT * FROM contacts ORDER BY id LIMIT 1';
const firstContact = defineTool({
  name: 'first_contact',
  description: 'Read one contact.',
  input: z.object({}),
  run: (ctx) => ctx.db.one(READ_SQL) ?? null,
});
const world = defineWorld({
  name: 'crm',
  version: crm.version,
  schema: crm.schema,
  tools: [firstContact],
  fixtures: crm.fixtures,
  fixturesDir: crm.fixturesDir!,
});
// Stripe World's big_co (hundreds of MB): the same measurement with a one-row read of its customers. Its image is built
// on first use in a checkout (minutes) and is measured with fewer samples.
const STRIPE_READ_SQL = 'SELECT * FROM customers ORDER BY id LIMIT 1';
const firstCustomer = defineTool({
  name: 'first_customer',
  description: 'Read one customer.',
  input: z.object({}),
  run: (ctx) => ctx.db.one(STRIPE_READ_SQL) ?? null,
});
const stripeWorld = defineWorld({
  name: 'stripe',
  version: stripe.version,
  schema: stripe.schema,
  tools: [firstCustomer],
  fixtures: stripe.fixtures,
  fixturesDir: stripe.fixturesDir!,
});

export interface ResetRow {
  fixture: string;
  bytes: number;
  floor: { p50: number; p99: number };
  /** Reset, one read tool call, destroy, with no idle connection to take: the image is opened. */
  kit: { p50: number; p99: number };
  /** Reset, `query('SELECT 1')`, destroy, with no idle connection to take. */
  query: { p50: number; p99: number };
  /** Reset, one read tool call, destroy, back to back: each reset takes the connection the last destroy left. */
  recycled: { p50: number; p99: number } | null;
}

/** The fixtures measured: `<id>` is crm's, `stripe/<id>` Stripe World's. */
export const RESET_FIXTURES = ['empty', 'small_startup', 'big_co', 'stripe/big_co'];

/** Close the connections destroyed instances of the fixture left (idle-connections.ts), so the next reset opens its image. */
function drainIdle(loaded: LoadedFixture): void {
  for (let set = takeIdle(loaded); set !== undefined; set = takeIdle(loaded))
    for (const c of set) c?.close();
}

/** Time `fn` `n` times, calling `before` (untimed) ahead of each. */
function sampleAfter(n: number, before: () => void, fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    before();
    out.push(...sample(1, fn));
  }
  return out;
}

export function runResetBench(opts: { fixtures?: string[]; quick?: boolean } = {}): ResetRow[] {
  const rows: ResetRow[] = [];
  for (const name of opts.fixtures ?? RESET_FIXTURES) {
    const isStripe = name.startsWith('stripe/');
    const id = isStripe ? name.slice('stripe/'.length) : name;
    const w = isStripe ? stripeWorld : world;
    const tool = isStripe ? 'first_customer' : 'first_contact';
    const readSql = isStripe ? STRIPE_READ_SQL : READ_SQL;
    w.instance({ fixture: id }).destroy(); // load + verify + arm once (building the image if missing), as a server does at start
    const loaded = loadFixture(w, id);
    const image = readFileSync(join(w.fixturesDir!, `${id}.sqlite`));
    // Small images: enough samples for a steady p99; images of hundreds of MB: a few per batch (each is a copy).
    const n =
      image.length > 50e6
        ? opts.quick
          ? 1
          : 3
        : Math.max(opts.quick ? 20 : 50, Math.round((opts.quick ? 4e7 : 2e8) / image.length / 10));
    const floorSamples: number[] = [];
    const kitSamples: number[] = [];
    const querySamples: number[] = [];
    const recycledSamples: number[] = [];
    const drain = () => drainIdle(loaded);
    const withTool = () => {
      const inst = w.instance({ fixture: id });
      inst.call(tool, {});
      inst.destroy();
    };
    drain();
    const recyclable = hasIdleRoom(loaded);
    // Interleave small batches so every side sees the same machine conditions.
    for (let batch = 0; batch < 10; batch++) {
      floorSamples.push(
        ...sample(n, () => {
          const db = new Database(image);
          db.prepare(readSql).get();
          db.close();
        }),
      );
      kitSamples.push(...sampleAfter(n, drain, withTool));
      querySamples.push(
        ...sampleAfter(n, drain, () => {
          const inst = w.instance({ fixture: id });
          inst.query('SELECT 1');
          inst.destroy();
        }),
      );
      // A fixture too large to keep idle (Stripe's big_co) reopens its image every time: nothing to recycle.
      if (recyclable) {
        withTool();
        recycledSamples.push(...sample(n, withTool));
      }
    }
    drain();
    const p = (samples: number[]) => {
      samples.sort((a, b) => a - b);
      return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
    };
    rows.push({
      fixture: name,
      bytes: image.length,
      floor: p(floorSamples),
      kit: p(kitSamples),
      query: p(querySamples),
      recycled: recycledSamples.length > 0 ? p(recycledSamples) : null,
    });
  }
  return rows;
}

export function formatReset(rows: ResetRow[]): string {
  const size = (b: number) =>
    b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : `${Math.round(b / 1024)} KB`;
  const ratio = (r: ResetRow, x: { p50: number } | null) =>
    x === null ? 'n/a' : (x.p50 / r.floor.p50).toFixed(2);
  const measured = rows.filter((r) => r.fixture !== 'empty');
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  return [
    `machine: ${machine()}`,
    '',
    '| fixture | image | floor p50 | floor p99 | reset + read tool p50 | p99 | p50 × floor | reset + query() p50 | p99 | p50 × floor | recycled reset + read tool p50 | p99 | p50 × floor |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.fixture} | ${size(r.bytes)} | ${us(r.floor.p50)} | ${us(r.floor.p99)} | ${us(r.kit.p50)} | ${us(r.kit.p99)} | ${ratio(r, r.kit)} | ${us(r.query.p50)} | ${us(r.query.p99)} | ${ratio(r, r.query)} | ` +
        `${r.recycled ? us(r.recycled.p50) : 'n/a'} | ${r.recycled ? us(r.recycled.p99) : 'n/a'} | ${ratio(r, r.recycled)} |`,
    ),
    '',
    "Reset + read tool = `world.instance({ fixture })` + one read tool call + `destroy()`; reset + query() = the same with `inst.query('SELECT 1')` as the first use. " +
      'In those two columns no destroyed instance has left a connection to take (the idle ones are closed before each sample, untimed): the image is deserialized, the connection set up with the SQL overrides and the capture function, the episode transaction begun, the instance used once, and its destroy() leaves the connection idle for a later instance (rolled back, not closed). ' +
      '"Recycled" is the same reset + read tool back to back, as a loop of episodes runs them: each `world.instance()` takes the connection the previous `destroy()` rolled back to the fixture (docs/performance.md, "Reset"). A fixture too large to keep idle (Stripe\'s big_co) has no recycled column. ' +
      "Floor = `new Database(image)` + the tool's read + `close()` on plain better-sqlite3, interleaved in the same run. " +
      "Fixtures are crm's, and Stripe World's `big_co` (`stripe/big_co`, read: its first customer by id). " +
      `Target ≤ 2× the floor (p50) at 100 KB, at 5 MB and for Stripe's big_co: opening the image, with a read tool ${met(measured.every((r) => r.kit.p50 / r.floor.p50 <= 2))}, with query() ${met(measured.every((r) => r.query.p50 / r.floor.p50 <= 2))}; ` +
      `recycled ${met(measured.every((r) => (r.recycled ?? r.kit).p50 / r.floor.p50 <= 2))}.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatReset(runResetBench()));
}
