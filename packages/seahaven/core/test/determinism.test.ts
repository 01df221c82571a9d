import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScript } from './node-script.ts';
import { kitWorld } from './test-world.ts';

const script = fileURLToPath(new URL('./episode-script.ts', import.meta.url));
describe('replay', () => {
  // The episode played by three processes at once: seed 11 twice, seed 12 once.
  let played: [string, string, string];
  beforeAll(async () => {
    const runs = await Promise.all([11, 11, 12].map((seed) => runScript(script, [String(seed)])));
    played = runs.map((r) => r.stdout) as [string, string, string];
  }, 60_000);

  it('the same episode in two separate processes is byte-identical', () => {
    const [a, b] = played;
    expect(a.length).toBeGreaterThan(1000);
    expect(a).toBe(b);
  });

  it('a different seed changes only the random parts', () => {
    const [a, b] = [JSON.parse(played[0]), JSON.parse(played[2])];
    const stampA = a[2].result;
    const stampB = b[2].result;
    // Time is the same: the clock does not depend on the seed.
    expect(stampA.ts).toBe(stampB.ts);
    expect(stampA.sql.ts).toBe(stampB.sql.ts);
    expect(stampA.sql.month_ago).toBe(stampB.sql.month_ago);
    expect(stampA.sql.u).toBe(stampB.sql.u);
    expect(a[a.length - 2].clock).toEqual(b[b.length - 2].clock);
    // Randomness differs.
    expect(stampA.rng).not.toBe(stampB.rng);
    expect(stampA.uuid).not.toBe(stampB.uuid);
    expect(stampA.sql.r).not.toBe(stampB.sql.r);
    expect(stampA.sql.rb).not.toBe(stampB.sql.rb);
    expect(a[0].result.id).not.toBe(b[0].result.id);
    // Sequences are counters, not random.
    expect(stampA.seq).toBe(stampB.seq);
  });
});

describe('virtual time in SQL', () => {
  it('CURRENT_TIMESTAMP defaults, stamping triggers and now-relative functions follow the virtual clock', () => {
    const inst = kitWorld.instance({ clock: 'tick' });
    const r = inst.call('add_item', { label: 'a', qty: 1 });
    const id = r.ok ? (r.result as { id: string }).id : '';
    expect(r.ok && (r.result as { created_at: string }).created_at).toBe('2026-03-01 12:00:01');
    inst.call('set_qty', { id, qty: 2 });
    expect(inst.query('SELECT at FROM audit')).toEqual([{ at: '2026-03-01T12:00:02.000Z' }]);
    const s = inst.call('stamp', {});
    expect(s.ok && (s.result as { sql: unknown }).sql).toMatchObject({
      ts: '2026-03-01 12:00:03',
      month_ago: '2026-01-30 12:00:03',
      u: 1772366403,
      ut: 'integer',
    });
    expect(s.ok && (s.result as { ts: string }).ts).toBe('2026-03-01T12:00:03.000Z');
  });

  it('clock modes: fixed stays, tick adds a second per call, advance moves both, now may not precede the start', () => {
    const fixed = kitWorld.instance();
    fixed.call('stamp', {});
    expect(fixed.clock.iso()).toBe('2026-03-01T12:00:00.000Z');
    fixed.clock.advance(1500);
    expect(fixed.state().clock.now).toBe('2026-03-01T12:00:01.500Z');
    // iso() keeps the text of the instant it last formatted; an advance or a tick gives new text.
    expect(fixed.clock.iso()).toBe('2026-03-01T12:00:01.500Z');
    const tick = kitWorld.instance({ clock: 'tick' });
    const first = tick.clock.iso();
    tick.call('stamp', {});
    expect(tick.clock.iso()).not.toBe(first);
    expect(Date.parse(tick.clock.iso()) - Date.parse(first)).toBe(1000);
    const later = kitWorld.instance({ now: '2026-04-01T00:00:00Z' });
    expect(later.clock.iso()).toBe('2026-04-01T00:00:00.000Z');
    expect(() => kitWorld.instance({ now: '2020-01-01T00:00:00Z' })).toThrow(/earlier than/);
    expect(() => kitWorld.instance({ now: 'yesterday' })).toThrow(/ISO-8601/);
  });

  it('ids: uuid-shaped, prefixed tokens, per-instance sequences', () => {
    const inst = kitWorld.instance({ seed: 1 });
    const a = inst.call('stamp', {});
    const b = inst.call('stamp', {});
    const ra = a.ok ? (a.result as { uuid: string; seq: number }) : null;
    const rb = b.ok ? (b.result as { uuid: string; seq: number }) : null;
    expect(ra!.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect([ra!.seq, rb!.seq]).toEqual([1, 2]);
    const item = inst.call('add_item', { label: 'x' });
    expect(item.ok && (item.result as { id: string }).id).toMatch(/^itm_[0-9A-Za-z]{10}$/);
  });

  it('SQL random() cannot shift ctx.ids or ctx.rng', () => {
    const a = kitWorld.instance({ seed: 8 });
    const b = kitWorld.instance({ seed: 8 });
    b.query('SELECT random(), random(), randomblob(16)');
    const ra = a.call('stamp', {});
    const rb = b.call('stamp', {});
    const pick = (r: typeof ra) => (r.ok ? (r.result as { uuid: string; rng: number }) : null);
    expect(pick(rb)!.uuid).toBe(pick(ra)!.uuid);
    expect(pick(rb)!.rng).toBe(pick(ra)!.rng);
  });
});

describe('overrides agree with SQLite when no "now" is involved', () => {
  const expressions = [
    "datetime('2026-03-01 12:34:56')",
    "datetime('2026-03-01T12:34:56Z', '+1 day')",
    "datetime('2026-03-01T12:34:56.789+02:00')",
    "date('2024-02-29', '+1 year')",
    "date('2026-01-31', '+1 month')",
    "date('2026-01-31', 'start of month')",
    "date('2026-02-28', '+1 day', 'start of year')",
    "datetime('2026-06-15', 'weekday 0')",
    "time('12:00:00', '-90 minutes')",
    "time('12:00', 'utc')",
    "julianday('2000-01-01')",
    "julianday('2026-01-01') - julianday('2025-01-01')",
    "unixepoch('2026-01-01')",
    "typeof(unixepoch('2026-01-01'))",
    "unixepoch('2026-01-01 00:00:00.250', 'subsec')",
    "typeof(unixepoch('2026-01-01 00:00:00.250', 'subsec'))",
    "strftime('%Y-%m-%d %H:%M:%f', '2026-05-05 05:05:05.123')",
    "strftime('%s', '2026-01-01')",
    "strftime('%j %w %W %u', '2026-12-31')",
    "strftime('%H', '2026-01-01 23:59:59', '+1 second')",
    "datetime(1700000000, 'unixepoch')",
    "datetime(1700000000.5, 'unixepoch', 'subsec')",
    'datetime(2460000.5)',
    'datetime(NULL)',
    "date('garbage')",
    "timediff('2026-03-01', '2025-01-15')",
    "timediff('2026-03-01 10:00', '2026-03-01 12:30:15.5')",
    "datetime('2026-01-01', 'localtime')",
    "date(20000, 'unixepoch')",
    "datetime('2026-03-29 00:59:59', '+1 hour', 'utc')",
  ];
  it(`${expressions.length} expressions give identical values and types`, () => {
    const plain = new Database(':memory:');
    plain.defaultSafeIntegers(true);
    const inst = kitWorld.instance();
    for (const expr of expressions) {
      const sql = `SELECT ${expr} AS v, typeof(${expr}) AS t`;
      const want = plain.prepare(sql).get() as { v: unknown; t: string };
      const got = inst.query(sql)[0];
      const norm = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);
      expect({ expr, v: got.v, t: got.t }).toEqual({ expr, v: norm(want.v), t: want.t });
    }
    plain.close();
  });

  it("strftime('%Y-%m-%dT%H:%M:%fZ', 'now') is exactly what SQLite writes for the virtual instant", () => {
    const plain = new Database(':memory:');
    const instants = [
      '2026-03-01T12:00:00.000Z',
      '2026-06-01T09:00:00.123Z',
      '2026-12-31T23:59:59.999Z',
      '2030-02-28T12:34:56.007Z',
      '2100-01-01T00:00:00.500Z',
    ];
    for (const now of instants) {
      const inst = kitWorld.instance({ now });
      const got = inst.query<{ v: string }>("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS v")[0]
        .v;
      const want = (
        plain.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ?) AS v").get(now) as { v: string }
      ).v;
      expect(got).toBe(want);
      expect(got).toBe(now);
      inst.destroy();
    }
    plain.close();
  });
});
