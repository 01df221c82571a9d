/**
 * Writing sessions on Stripe World's `big_co` (747 MB): what they cost when each deserializes the fixture image (the
 * kit's fallback, `SEAHAVEN_COPY_ON_WRITE=off`) against the kit's copy-on-write fixtures, where episodes share one
 * base and hold only the pages they changed (packages/seahaven/core/cowvfs.c, cow-pages.ts). Both run Stripe World's real tools through
 * the kit.
 *
 * Each configuration runs in a process of its own, so its RSS is its own: N sessions each open the fixture, read
 * (`list_customers`) and write (`create_customer`, `create_product`, `create_coupon`) and stay open, their episode
 * transactions running, as served sessions do between calls. Session 0 also times reads and writes over many calls,
 * one session times `inst.restart()`, and one times `inst.fork()` and hibernation. A check runs the same calls both
 * ways and compares `changes()`, `changeLog()` and the serialized database byte for byte.
 *
 * Run: `npm run bench -- cow [--write]`, or `npx tsx bench/cow/bench.ts [--fixture big_co] [--today 1,4]
 * [--cow 1,8,64] [--write]` (`--write` records the figures in bench/results.md).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { storeDatabases } from 'seahaven/internal/core/instance-internals';
import { loadFixture } from 'seahaven/internal/core/fixtures';
import { changedPageBytes } from 'seahaven/internal/core/cow-pages';
import type { Instance } from 'seahaven';
import { stripe } from '@seahaven/stripe';
import { machine, percentile, spawnChild, writeSection } from '../harness.ts';

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
  loadFixture(stripe, fixture);
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
  const storeBytes = changedPageBytes();
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
  const storeBytesCommitted = changedPageBytes();
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
  /** sha256 of `changes()`, `changeLog()` and the serialized database after the same calls. */
  changes: string;
  changeLog: string;
  bytes: string;
}

const hex = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The same calls, a restart, a fork and a hibernation: what must come out the same both ways. */
function runCheck(fixture: string): Check {
  const inst = stripe.instance({ fixture, seed: 3 });
  sessionCalls(inst, 1);
  for (let k = 0; k < 50; k++) must(inst.call('create_customer', { name: `Customer ${k}` }));
  const restarted = inst.restart({ fixture, seed: 3 })!;
  sessionCalls(restarted, 2);
  const fork = restarted.fork();
  sessionCalls(fork, 3);
  fork.hibernate();
  sessionCalls(fork, 4);
  const out = {
    changes: hex(JSON.stringify(fork.changes())),
    changeLog: hex(JSON.stringify(fork.changeLog())),
    bytes: hex(fork[storeDatabases]().get(null)!.serialize()),
  };
  restarted.destroy();
  fork.destroy();
  return out;
}

interface ForkFigures {
  /** ms for `inst.fork()` of an episode that wrote, to the fork's first read. */
  forkMs: number;
  /** ms for `inst.hibernate()` of an episode that wrote, then its next read (the wake). */
  sleepWakeMs: number;
  /** Bytes of changed pages the process holds with the original and its fork open. */
  forkPageBytes: number;
}

/** Fork and hibernation of a session that wrote, through the kit. */
function runFork(fixture: string): ForkFigures {
  const inst = stripe.instance({ fixture, seed: 5 });
  sessionCalls(inst, 1);
  const timed = (fn: () => void) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };
  let fork: Instance | null = null;
  const forkMs = timed(() => must((fork = inst.fork()).call('list_customers', { limit: 3 })));
  const forkPageBytes = changedPageBytes();
  const sleepWakeMs = timed(() => {
    inst.hibernate();
    must(inst.call('list_customers', { limit: 3 }));
  });
  fork!.destroy();
  inst.destroy();
  return { forkMs, sleepWakeMs, forkPageBytes };
}

const list = (v: string | undefined, d: number[]) => (v ? v.split(',').map(Number) : d);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function child(): Promise<void> {
  const [, , , what, mode, fixture, n] = process.argv;
  // Read when the fixture loads: the fallback deserializes, the default maps big fixtures copy-on-write.
  if (mode === 'today') process.env.SEAHAVEN_COPY_ON_WRITE = 'off';
  else delete process.env.SEAHAVEN_COPY_ON_WRITE;
  const reply =
    what === 'check'
      ? runCheck(fixture)
      : what === 'fork'
        ? runFork(fixture)
        : await runSessions(mode as Mode, Number(n), fixture);
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
    `| ${r.sessions} | ${r.mode === 'today' ? 'deserialize (fallback)' : 'copy-on-write'} | ${r.rssLoaded.toFixed(0)} MiB | ${r.rss.toFixed(0)} MiB (${r.rssFile.toFixed(0)}) | ${((r.rss - r.rssLoaded) / r.sessions).toFixed(1)} MiB | ${(r.storeBytes / MiB).toFixed(1)} MiB | ${r.openMs.toFixed(1)} ms (${r.firstOpenMs.toFixed(0)} ms) | ${r.readUs.toFixed(0)} µs | ${r.writeUs.toFixed(0)} µs | ${r.restartMs.toFixed(2)} ms | ${r.rssCommitted.toFixed(0)} MiB, ${(r.storeBytesCommitted / MiB).toFixed(1)} MiB |`;
  return [head, ...rows.map(line)].join('\n');
}

/** Both ways, recorded in bench/results.md with `write`. */
export async function runCowBench(
  o: { fixture?: string; today?: number[]; cow?: number[] } = {},
): Promise<string> {
  const fixture = o.fixture ?? 'big_co';
  const rows: Figures[] = [];
  const checks: Check[] = [];
  const forks: ForkFigures[] = [];
  for (const mode of ['today', 'cow'] as const) {
    checks.push((await inChild(['check', mode, fixture])) as Check);
    forks.push((await inChild(['fork', mode, fixture])) as ForkFigures);
    console.log(mode, checks.at(-1), forks.at(-1));
  }
  for (const n of o.today ?? [1, 4]) {
    rows.push((await inChild(['sessions', 'today', fixture, String(n)])) as Figures);
    console.log(table(rows.slice(-1)));
  }
  for (const n of o.cow ?? [1, 8, 64]) {
    rows.push((await inChild(['sessions', 'cow', fixture, String(n)])) as Figures);
    console.log(table(rows.slice(-1)));
  }
  const same = (k: keyof Check) => (checks[0][k] === checks[1][k] ? 'identical' : 'DIFFER');
  const [today, cow] = forks;
  return `Machine: ${machine()}. Fixture \`${fixture}\`; each configuration in a process of its own (\`npm run bench -- cow\`).

Each session opens the fixture through \`stripe.instance()\`, reads once, makes 4 writes (two \`create_customer\`, \`create_product\`, \`create_coupon\`) and a list, and stays open in its episode transaction; session 0 then times 200 reads (\`list_customers\`, limit 3) and 200 writes (\`create_customer\`). "deserialize" is the kit's fallback (\`SEAHAVEN_COPY_ON_WRITE=off\`, or no C compiler), "copy-on-write" its default for big fixtures. "RSS loaded" is the process after \`loadFixture\`; "per session" is what each session added; "store pages" what the copy-on-write stores hold. Restart is \`inst.restart()\` of a session that wrote (a rollback, both ways).

${table(rows)}

Same calls both ways (a restart, a fork, a hibernation of the fork, then more calls): \`changes()\` ${same('changes')}, \`changeLog()\` ${same('changeLog')}, serialized database ${same('bytes') === 'identical' ? 'byte-identical' : 'DIFFERS'} (sha256 ${checks[1].bytes.slice(0, 16)}…).

\`inst.fork()\` of a session that wrote, to the fork's first read: ${today.forkMs.toFixed(0)} ms deserializing against ${cow.forkMs.toFixed(2)} ms copy-on-write (the process then holds ${(cow.forkPageBytes / MiB).toFixed(2)} MiB of changed pages); \`inst.hibernate()\` then the next read (the wake): ${today.sleepWakeMs.toFixed(0)} ms against ${cow.sleepWakeMs.toFixed(2)} ms.`;
}

async function main(): Promise<void> {
  const body = await runCowBench({
    fixture: arg('--fixture'),
    today: arg('--today') ? list(arg('--today'), []) : undefined,
    cow: arg('--cow') ? list(arg('--cow'), []) : undefined,
  });
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
