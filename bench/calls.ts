/**
 * In-process tool-call overhead: a one-row read tool and a one-row write tool (with change capture) against the same
 * statement run directly on better-sqlite3 over the same fixture image, in the same run.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { defineTool, defineWorld, z } from 'seahaven';
import { crm } from '@seahaven/crm';
import { bestOf, loop, machine, us } from './harness.ts';

const READ_SQL = 'SELECT * FROM contacts WHERE id = ?';
const WRITE_SQL = 'UPDATE contacts SET notes = ? WHERE id = ?';

const readContact = defineTool({
  name: 'read_contact',
  description: 'Read one contact.',
  input: z.object({ id: z.string() }),
  run: (ctx, { id }) => ctx.db.one(READ_SQL, id),
});
const noteContact = defineTool({
  name: 'note_contact',
  description: "Set one contact's notes.",
  input: z.object({ id: z.string(), notes: z.string() }),
  run: (ctx, { id, notes }) => ctx.db.run(WRITE_SQL, notes, id).changes,
});

// crm's schema and frozen fixtures with two minimal tools, so only the kit's overhead differs from the floor.
const world = defineWorld({
  name: 'crm',
  version: crm.version,
  schema: crm.schema,
  tools: [readContact, noteContact],
  fixtures: crm.fixtures,
  fixturesDir: crm.fixturesDir!,
});

export interface CallsResult {
  floorReadNs: number;
  readNs: number;
  floorWriteNs: number;
  writeNs: number;
}

export function runCallsBench(opts: { n?: number; rounds?: number } = {}): CallsResult {
  const n = opts.n ?? 100_000;
  const rounds = opts.rounds ?? 5;
  const image = readFileSync(new URL('small_startup.sqlite', `file://${crm.fixturesDir}/`));
  const raw = new Database(image);
  raw.pragma('temp_store = MEMORY');
  const ids = (raw.prepare('SELECT id FROM contacts ORDER BY id').pluck().all() as string[]).slice(
    0,
    64,
  );
  const rawRead = raw.prepare(READ_SQL);
  const rawWrite = raw.prepare(WRITE_SQL);
  const inst = world.instance({ fixture: 'small_startup' });
  // Calls build history (call log, change log); a fresh instance per round keeps memory flat, as an episode would.
  let kit = inst;
  const best = bestOf(rounds, {
    floorRead: () => loop(n, (i) => rawRead.get(ids[i & 63])),
    read: () => loop(n, (i) => kit.call('read_contact', { id: ids[i & 63] })),
    floorWrite: () => loop(n, (i) => rawWrite.run(i & 1 ? 'a' : 'b', ids[i & 63])),
    write: () => {
      kit.destroy();
      kit = world.instance({ fixture: 'small_startup' });
      return loop(n, (i) =>
        kit.call('note_contact', { id: ids[i & 63], notes: i & 1 ? 'a' : 'b' }),
      );
    },
  });
  kit.destroy();
  raw.close();
  return {
    floorReadNs: best.floorRead,
    readNs: best.read,
    floorWriteNs: best.floorWrite,
    writeNs: best.write,
  };
}

const met = (ok: boolean) => (ok ? 'met' : 'not met');

export function formatCalls(r: CallsResult): string {
  const perSec = (ns: number) => Math.round(1e9 / ns).toLocaleString('en-US');
  return [
    `machine: ${machine()}`,
    '',
    '| what | per call | calls/s | × raw statement |',
    '|---|---|---|---|',
    `| raw better-sqlite3 SELECT by id (floor) | ${us(r.floorReadNs)} | ${perSec(r.floorReadNs)} | 1.00 |`,
    `| kit read tool \`call('read_contact')\` | ${us(r.readNs)} | ${perSec(r.readNs)} | ${(r.readNs / r.floorReadNs).toFixed(2)} |`,
    `| raw better-sqlite3 UPDATE by id (floor, no capture) | ${us(r.floorWriteNs)} | ${perSec(r.floorWriteNs)} | 1.00 |`,
    `| kit write tool with change capture \`call('note_contact')\` | ${us(r.writeNs)} | ${perSec(r.writeNs)} | ${(r.writeNs / r.floorWriteNs).toFixed(2)} |`,
    '',
    `Targets: a one-row read tool ≥ 150,000 calls/s and ≤ 5.5× the raw statement (${met(1e9 / r.readNs >= 150_000 && r.readNs / r.floorReadNs <= 5.5)}); ` +
      `a one-row write tool with change capture ≥ 60,000 calls/s (${met(1e9 / r.writeNs >= 60_000)}). Each figure is the best of interleaved rounds on crm \`small_startup\`.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatCalls(runCallsBench()));
}
