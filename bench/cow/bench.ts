/**
 * Writing sessions on Stripe World's `big_co` (747 MB): what they cost when each deserializes the fixture image, as the
 * kit does today, against copy-on-write episodes that share one base and hold only the pages they changed (cowvfs.c,
 * kit-hook.ts). Both run Stripe World's real tools through the unchanged kit; the hook only changes what
 * `new Database(resetImage)` opens.
 *
 * Each configuration runs in a process of its own, so its RSS is its own: N sessions each open the fixture, read
 * (`list_customers`) and write (`create_customer`, `create_product`, `create_coupon`) and stay open, their episode
 * transactions running, as served sessions do between calls. Session 0 also times reads and writes over many calls,
 * and one session times `inst.restart()`. A check process runs the same calls both ways and compares `changes()` and
 * the serialized database byte for byte.
 *
 * Run: `npx tsx bench/cow/bench.ts [--fixture big_co] [--today 1,4] [--cow 1,8,64] [--write]` (`--write` records the
 * figures in bench/results.md).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { storeDatabases } from 'seahaven/internal/core/instance-internals';
import { loadFixture } from 'seahaven/internal/core/fixtures';
import type { Instance } from 'seahaven';
import { stripe } from '@seahaven/stripe';
import { machine, percentile, spawnChild, writeSection } from '../harness.ts';
import Database from 'better-sqlite3';
import { CAPTURE_FN } from 'seahaven/internal/core/capture-sql';
import { changedBytes, CowBase, type CowEpisode } from './cow.ts';
import { openCopyOnWrite, useCopyOnWrite } from './kit-hook.ts';

export const HEADING = '## Big fixtures: copy-on-write pages';

type Mode = 'today' | 'cow';

interface Figures {
  mode: Mode;
  sessions: number;
  /** RSS (MiB) once the fixture is loaded, before any session. */
  rssLoaded: number;
  /** RSS (MiB) with every session open after its writes, and its file-backed part. */
  rss: number;
  rssFile: number;
  /** Bytes the copy-on-write stores hold (their committed or spilled pages). */
  storeBytes: number;
  /** ms from `world.instance()` to the first read's result, p50 over the sessions, and the first session's. */
  openMs: number;
  firstOpenMs: number;
  /** µs per call, p50, on session 0. */
  readUs: number;
  writeUs: number;
  /** ms for `inst.restart()` of a session that wrote. */
  restartMs: number;
  /** RSS (MiB) and changed pages held once every session committed its episode (what a fork or hibernation keeps). */
  rssCommitted: number;
  storeBytesCommitted: number;
}

const MiB = 2 ** 20;

function memory(): { rss: number; rssFile: number } {
  const status = (name: string) => Number(/(\d+) kB/.exec(statusLine(name))?.[1] ?? 0) / 1024;
  return { rss: status('VmRSS'), rssFile: status('RssFile') + status('RssShmem') };
}

let statusText = '';
function statusLine(name: string): string {
  return statusText.split('\n').find((l) => l.startsWith(name + ':')) ?? '';
}
async function readStatus(): Promise<void> {
  const { readFileSync } = await import('node:fs');
  statusText = readFileSync('/proc/self/status', 'utf8');
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** The calls of one session: a read, then writes as an agent setting up a customer would make them. */
function sessionCalls(inst: Instance, i: number): void {
  must(inst.call('create_customer', { name: `Session ${i}`, email: `s${i}@example.com` }));
  must(inst.call('create_product', { name: `Plan ${i}` }));
  must(inst.call('create_coupon', { name: `Welcome ${i}`, percent_off: 10 }));
  must(inst.call('create_customer', { name: `Second ${i}`, email: `t${i}@example.com` }));
  must(inst.call('list_customers', { limit: 5 }));
}

function must(r: { ok: boolean; error?: unknown }): void {
  if (!r.ok) throw new Error(`call failed: ${JSON.stringify(r.error)}`);
}

async function runSessions(mode: Mode, sessions: number, fixture: string): Promise<Figures> {
  const loaded = loadFixture(stripe, fixture);
  if (mode === 'cow') openCopyOnWrite(loaded.resetImages.get(null)!);
  gc();
  await readStatus();
  const rssLoaded = memory().rss;
  const instances: Instance[] = [];
  const opens: number[] = [];
  for (let i = 0; i < sessions; i++) {
    const t = performance.now();
    const inst = stripe.instance({ fixture, seed: i });
    must(inst.call('list_customers', { limit: 3 }));
    opens.push(performance.now() - t);
    sessionCalls(inst, i);
    instances.push(inst);
  }
  const first = instances[0];
  const reads: number[] = [];
  const writes: number[] = [];
  for (let k = 0; k < 200; k++) {
    let t = performance.now();
    must(first.call('list_customers', { limit: 3 }));
    reads.push((performance.now() - t) * 1000);
    t = performance.now();
    must(first.call('create_customer', { name: `Customer ${k}` }));
    writes.push((performance.now() - t) * 1000);
  }
  gc();
  await readStatus();
  const mem = memory();
  const storeBytes = mode === 'cow' ? changedBytes() : 0;
  // A restart rolls the episode back on the same connection (timed to the next call's result).
  const last = instances.pop()!;
  const t = performance.now();
  const next = last.restart({ fixture, seed: 7 });
  if (next === null) throw new Error('restart returned null');
  must(next.call('list_customers', { limit: 3 }));
  const restartMs = performance.now() - t;
  sessionCalls(next, sessions);
  instances.push(next);
  // Committing the episodes moves their pages from each connection's cache into its database.
  for (const inst of instances) inst[storeDatabases]();
  gc();
  await readStatus();
  const rssCommitted = memory().rss;
  const storeBytesCommitted = mode === 'cow' ? changedBytes() : 0;
  for (const inst of instances) inst.destroy();
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  return {
    mode,
    sessions,
    rssLoaded,
    rss: mem.rss,
    rssFile: mem.rssFile,
    storeBytes,
    openMs: percentile(sorted(opens), 50),
    firstOpenMs: opens[0],
    readUs: percentile(sorted(reads), 50),
    writeUs: percentile(sorted(writes), 50),
    restartMs,
    rssCommitted,
    storeBytesCommitted,
  };
}

interface Check {
  /** Whether `changes()`, `changeLog()` and the serialized database were the same both ways. */
  changes: boolean;
  changeLog: boolean;
  bytes: boolean;
  sha256: string;
}

/** The same calls on a deserialized episode and a copy-on-write one: the same history and the same bytes. */
function runCheck(fixture: string): Check {
  openCopyOnWrite(loadFixture(stripe, fixture).resetImages.get(null)!);
  const episode = (cow: boolean) => {
    useCopyOnWrite(cow);
    const inst = stripe.instance({ fixture, seed: 3 });
    sessionCalls(inst, 1);
    for (let k = 0; k < 50; k++) must(inst.call('create_customer', { name: `Customer ${k}` }));
    const restarted = inst.restart({ fixture, seed: 3 })!;
    sessionCalls(restarted, 2);
    const out = {
      changes: JSON.stringify(restarted.changes()),
      changeLog: JSON.stringify(restarted.changeLog()),
      sha256: createHash('sha256')
        .update(restarted[storeDatabases]().get(null)!.serialize())
        .digest('hex'),
    };
    restarted.destroy();
    return out;
  };
  const today = episode(false);
  const cow = episode(true);
  return {
    changes: today.changes === cow.changes,
    changeLog: today.changeLog === cow.changeLog,
    bytes: today.sha256 === cow.sha256,
    sha256: cow.sha256,
  };
}

interface ForkFigures {
  /** ms to fork an episode that wrote (to the fork's first read): today serialize + deserialize, copy-on-write a copy of the changed pages. */
  todayForkMs: number;
  cowForkMs: number;
  /** Changed pages the fork holds (copy-on-write). */
  cowForkPages: number;
  /** ms to close an episode that wrote and reopen it (hibernation and wake), to the first read. */
  todaySleepWakeMs: number;
  cowSleepWakeMs: number;
  /** The base file the copy-on-write episodes map (for the `raw` run). */
  basePath: string;
}

/** Fork and hibernation at the connection level, where the kit would call them: today's bytes against the store's pages. */
function runFork(fixture: string): ForkFigures {
  const image = loadFixture(stripe, fixture).resetImages.get(null)!;
  const base = openCopyOnWrite(image);
  const ready = (db: InstanceType<typeof Database>) => {
    db.function(CAPTURE_FN, { varargs: true }, () => null);
    db.exec('PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
    return db;
  };
  const read = (db: InstanceType<typeof Database>) =>
    db.prepare('SELECT count(*) FROM customers').pluck().get();
  const write = (db: InstanceType<typeof Database>) =>
    db.exec("UPDATE customers SET name = name || ' (renamed)' WHERE rowid % 500 = 1");
  const timed = (fn: () => void) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };

  const mem = ready(new Database(image));
  write(mem);
  let copy: InstanceType<typeof Database> | null = null;
  const todayForkMs = timed(() => read(ready((copy = new Database(mem.serialize())))));
  copy!.close();
  let woken: InstanceType<typeof Database> | null = null;
  const todaySleepWakeMs = timed(() => {
    const bytes = mem.serialize();
    mem.close();
    read(ready((woken = new Database(bytes))));
  });
  woken!.close();

  const ep = base.open();
  ready(ep.db);
  write(ep.db);
  let fork: CowEpisode | null = null;
  const cowForkMs = timed(() => read(ready((fork = ep.fork()).db)));
  const cowForkPages = fork!.changedPages;
  fork!.destroy();
  let again: CowEpisode | null = null;
  const cowSleepWakeMs = timed(() => {
    ep.close();
    read(ready((again = base.open(ep.name)).db));
  });
  again!.destroy();
  return {
    todayForkMs,
    cowForkMs,
    cowForkPages,
    todaySleepWakeMs,
    cowSleepWakeMs,
    basePath: base.path,
  };
}

interface RawFigures {
  sessions: number;
  /** RSS (MiB) of the process with the base mapped and no session, then with every session open after its writes. */
  rssBase: number;
  rss: number;
  rssFile: number;
  /** ms to open an episode and read, p50. */
  openMs: number;
}

/**
 * Copy-on-write episodes with nothing else in the process: no kit, no cached reset image (the kit's own copy, which
 * an adopting kit would not keep). Each session opens the base, begins its episode transaction and writes as a
 * `POST /v1/customers` does (a customer row, an event row) plus an update of an existing customer, four times.
 */
async function runRaw(basePath: string, sessions: number): Promise<RawFigures> {
  const base = new CowBase(basePath);
  gc();
  await readStatus();
  const rssBase = memory().rss;
  const open: CowEpisode[] = [];
  const opens: number[] = [];
  for (let i = 0; i < sessions; i++) {
    const t = performance.now();
    const ep = base.open();
    ep.db.function(CAPTURE_FN, { varargs: true }, () => null);
    ep.db.exec('PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
    ep.db.prepare('SELECT id FROM customers ORDER BY created DESC, seq DESC LIMIT 3').all();
    opens.push(performance.now() - t);
    ep.db.exec('BEGIN');
    for (let k = 0; k < 4; k++) {
      const n = i * 4 + k;
      ep.db
        .prepare(
          `INSERT INTO customers (id, seq, created, data, email, name, deleted, search_email, search_metadata, search_name, search_phone)
           SELECT 'cus_new' || ?, (SELECT max(seq) FROM customers) + 1, created, data, email, name, deleted, search_email, search_metadata, search_name, search_phone FROM customers WHERE rowid = ?`,
        )
        .run(n, 1 + ((n * 7919) % 20000));
      ep.db
        .prepare(
          `INSERT INTO events (id, seq, created, data, type, object_id)
           SELECT 'evt_new' || ?, (SELECT max(seq) FROM events) + 1, created, data, type, object_id FROM events WHERE rowid = ?`,
        )
        .run(n, 1 + ((n * 104729) % 24000));
      ep.db
        .prepare("UPDATE customers SET name = name || ' (edited)' WHERE rowid = ?")
        .run(1 + ((n * 31337) % 20000));
    }
    open.push(ep);
  }
  gc();
  await readStatus();
  const mem = memory();
  for (const ep of open) ep.destroy();
  return {
    sessions,
    rssBase,
    rss: mem.rss,
    rssFile: mem.rssFile,
    openMs: percentile(
      [...opens].sort((a, b) => a - b),
      50,
    ),
  };
}

const list = (v: string | undefined, d: number[]) => (v ? v.split(',').map(Number) : d);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function child(): Promise<void> {
  const [, , , what, fixture, n] = process.argv;
  const reply =
    what === 'check'
      ? runCheck(fixture)
      : what === 'fork'
        ? runFork(fixture)
        : what === 'raw'
          ? await runRaw(fixture, Number(n))
          : await runSessions(what as Mode, Number(n), fixture);
  process.send!(reply);
  process.exit(0);
}

async function inChild(args: string[]): Promise<unknown> {
  const c = await spawnChild('./cow/bench.ts', ['child', ...args], ['--expose-gc']);
  return c.first;
}

function table(rows: Figures[]): string {
  const head =
    '| sessions | how | RSS loaded | RSS with sessions (file-backed) | per session | store pages, open episodes | open + first read p50 (first) | read p50 | write p50 | restart + read | committed: RSS, store pages |\n|---|---|---|---|---|---|---|---|---|---|---|';
  const line = (r: Figures) =>
    `| ${r.sessions} | ${r.mode === 'today' ? 'deserialize (today)' : 'copy-on-write'} | ${r.rssLoaded.toFixed(0)} MiB | ${r.rss.toFixed(0)} MiB (${r.rssFile.toFixed(0)}) | ${((r.rss - r.rssLoaded) / r.sessions).toFixed(1)} MiB | ${(r.storeBytes / MiB).toFixed(1)} MiB | ${r.openMs.toFixed(1)} ms (${r.firstOpenMs.toFixed(0)} ms) | ${r.readUs.toFixed(0)} µs | ${r.writeUs.toFixed(0)} µs | ${r.restartMs.toFixed(2)} ms | ${r.rssCommitted.toFixed(0)} MiB, ${(r.storeBytesCommitted / MiB).toFixed(1)} MiB |`;
  return [head, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const fixture = arg('--fixture') ?? 'big_co';
  const rows: Figures[] = [];
  const check = (await inChild(['check', fixture])) as Check;
  console.log('check', check);
  const fork = (await inChild(['fork', fixture])) as ForkFigures;
  console.log('fork', fork);
  for (const n of list(arg('--today'), [1, 4])) {
    rows.push((await inChild(['today', fixture, String(n)])) as Figures);
    console.log(table(rows.slice(-1)));
  }
  for (const n of list(arg('--cow'), [1, 8, 64])) {
    rows.push((await inChild(['cow', fixture, String(n)])) as Figures);
    console.log(table(rows.slice(-1)));
  }
  const raws: RawFigures[] = [];
  for (const n of list(arg('--raw'), [64])) {
    raws.push((await inChild(['raw', fork.basePath, String(n)])) as RawFigures);
    console.log(raws.at(-1));
  }
  const rawLines = raws
    .map(
      (r) =>
        `${r.sessions} sessions: ${r.rss.toFixed(0)} MiB RSS (${r.rssFile.toFixed(0)} MiB of it file-backed: Node's code and the base pages read), ${r.rssBase.toFixed(0)} MiB before the first, ${((r.rss - r.rssBase) / r.sessions).toFixed(2)} MiB per session; open + first read ${r.openMs.toFixed(1)} ms p50`,
    )
    .join('; ');
  const body = `Machine: ${machine()}. Fixture \`${fixture}\`; each configuration in a process of its own (\`npx tsx bench/cow/bench.ts\`).

Each session opens the fixture through \`stripe.instance()\`, reads once, makes 4 writes (two \`create_customer\`, \`create_product\`, \`create_coupon\`) and a list, and stays open in its episode transaction; session 0 then times 200 reads (\`list_customers\`, limit 3) and 200 writes (\`create_customer\`). "RSS loaded" is the process after \`loadFixture\` (the kit's cached reset image, plus the base it maps for copy-on-write); "per session" is what each session added. Restart is \`inst.restart()\` of a session that wrote (a rollback, both ways).

${table(rows)}

Same calls both ways (\`check\`): \`changes()\` ${check.changes ? 'identical' : 'DIFFER'}, \`changeLog()\` ${check.changeLog ? 'identical' : 'DIFFER'}, serialized database ${check.bytes ? 'byte-identical' : 'DIFFERS'} (sha256 ${check.sha256.slice(0, 16)}…).

Fork and hibernation at the connection level (an episode that renamed every 500th customer; timed to the first read of the new connection): fork ${fork.todayForkMs.toFixed(0)} ms today (serialize + deserialize) against ${fork.cowForkMs.toFixed(2)} ms copy-on-write (the fork holds ${fork.cowForkPages} changed pages); close and reopen (hibernation, then wake) ${fork.todaySleepWakeMs.toFixed(0)} ms today against ${fork.cowSleepWakeMs.toFixed(2)} ms.

Copy-on-write episodes alone in a process (no kit, so no cached reset image; raw SQL writing a customer and an event and updating a customer, four times, in each session's open episode transaction): ${rawLines}.`;
  console.log(body);
  if (process.argv.includes('--write')) {
    writeSection(HEADING, body);
    execFileSync('npx', [
      'prettier',
      '--write',
      fileURLToPath(new URL('../results.md', import.meta.url)),
    ]);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'child') await child();
  else await main();
}
