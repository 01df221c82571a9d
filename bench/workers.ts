/**
 * `seahaven serve --workers N`: what the worker processes cost and save, measured on the real command line.
 *
 * - **CPU per step**: the same WebSocket load (8 sessions looping over the crm calls, from a load generator in a process
 *   of its own) against `--workers 1` and `--workers 2`; the server's CPU time (every process: the primary and the
 *   workers, from /proc) over the measured window, divided by the steps served. Equal figures mean the cluster adds
 *   nothing on a step's path.
 * - **Hand-over latency**: HTTP `/step` calls on one keep-alive connection (so on one worker), to a session that worker
 *   holds and to one the other worker holds (handed over on the loopback): p50 and p99 of each, and the difference.
 * - **Sessions per GiB of RSS**: WebSocket sessions opened on crm `small_startup` and `big_co` (reset only: idle; then
 *   each plays one episode), with the server's total RSS (every process) before and after.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/workers.ts [--quick] [--write]` (or `seahaven bench workers`). `--write` replaces the
 * "Workers" section of bench/results.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  spawnServe,
  type ServeProcess,
} from 'seahaven/internal/transports/serve/test-fixtures/spawn-serve';
import { machine, spawnChild, writeSection, type Child } from './harness.ts';
import { call, crmEpisodeOpening, crmRows, crmScripts } from './ws.ts';
import type { GroupResult, LoadGroup } from './ws-load.ts';

/** [workers, sessions] of the CPU runs. */
const CPU_RUNS: [number, number][] = [
  [1, 1],
  [2, 1],
  [1, 4],
  [2, 8],
  [1, 8],
];

export const HEADING = '## Workers (`seahaven serve --workers N`)';

/** A 12-frame crm episode on `fixture`, with ids from that fixture: a reset, reads, and a few writes. */
export function episodeOn(fixture: string): string[] {
  const { contact, deal } = crmRows(fixture);
  return [
    ...crmEpisodeOpening(fixture, contact),
    call('get_deal', { id: deal }),
    call('update_deal', { id: deal, stage: 'negotiation' }),
    call('list_contacts', { company_id: contact.company_id }),
    call('create_company', { name: 'Bench Co @@' }),
  ];
}

interface HealthRow {
  worker: number;
  pid: number;
}

/** Every process of a server: the command's own, and its workers'. */
async function serverPids(s: ServeProcess): Promise<number[]> {
  const h = (await (await fetch(`${s.url}/health`)).json()) as { workers?: HealthRow[] };
  return [s.child.pid!, ...(h.workers ?? []).map((w) => w.pid)];
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? 0 : Number(m[1]) * 1024;
}

const total = (pids: number[], f: (pid: number) => number) => pids.reduce((n, p) => n + f(p), 0);

export interface CpuRow {
  workers: number;
  /** WebSocket sessions of the load. */
  sessions: number;
  steps: number;
  stepsPerSec: number;
  /** Server CPU (all processes) per step, in µs. */
  cpuUsPerStep: number;
  /** Of which the primary's (0 with one worker: there is none). */
  primaryCpuUs: number;
  p50Us: number;
  p99Us: number;
}

export interface HandoverRow {
  path: 'direct' | 'handed over';
  p50Us: number;
  p99Us: number;
}

export interface MemoryRow {
  fixture: string;
  workers: number;
  idleSessions: number;
  /** Sessions that played an episode. */
  sessions: number;
  /** RSS of every process before any session, in bytes. */
  baseRss: number;
  idleBytes: number;
  afterEpisodeBytes: number;
}

export interface WorkersResult {
  machine: string;
  load: number;
  cpu: CpuRow[];
  rounds: number;
  durationMs: number;
  handover: HandoverRow[];
  handoverRequests: number;
  memory: MemoryRow[];
}

export interface WorkersBenchOptions {
  quick?: boolean;
  /** Tiny runs that only prove the benchmark works (tests). */
  smoke?: boolean;
  log?: (line: string) => void;
}

function start(workers: number, cwd: string, extra: string[] = []): Promise<ServeProcess> {
  return spawnServe(
    [
      'crm',
      '--workers',
      String(workers),
      '--no-console',
      '--max-sessions',
      '100000',
      '--session-timeout',
      '0',
      ...extra,
    ],
    { cwd, timeoutMs: 120_000 },
  );
}

/** Sequential HTTP steps on one keep-alive connection, timed one by one (µs). */
async function timeSteps(
  url: string,
  agent: Agent,
  id: string,
  n: number,
): Promise<{ times: number[]; worker: string; entry: string | undefined }> {
  const body = JSON.stringify({
    action: { type: 'call_tool', tool_name: 'pipeline_summary', arguments: {} },
  });
  const times: number[] = [];
  let worker = '';
  let entry: string | undefined;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${url}/step`,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'x-session-id': id },
        },
        (res) => {
          worker = String(res.headers['x-seahaven-worker']);
          entry = res.headers['x-seahaven-entry-worker'] as string | undefined;
          res.resume();
          res.on('end', () =>
            res.statusCode === 200
              ? resolve()
              : reject(new Error(`step answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    times.push((performance.now() - t0) * 1000);
  }
  return { times, worker, entry };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** POST a reset (to `small_startup`) for session `id`; the worker that answered. */
async function post(url: string, agent: Agent, path: string, id: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-session-id': id },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.headers['x-seahaven-worker'])));
      },
    );
    req.on('error', reject);
    req.end('{"fixture":"small_startup"}');
  });
}

async function cpuRun(
  gen: Child,
  workers: number,
  sessions: number,
  cwd: string,
  script: string[],
  warmupMs: number,
  durationMs: number,
): Promise<CpuRow> {
  const s = await start(workers, cwd);
  try {
    const pids = await serverPids(s);
    const group: LoadGroup = {
      label: `workers ${workers}`,
      url: `${s.url.replace('http', 'ws')}/ws`,
      count: sessions,
      script,
      loopFrom: 1,
      inflight: 1,
    };
    // The window the generator measures starts after its warm-up; the CPU is read at the same moments.
    const run = gen.ask({ cmd: 'run', groups: [group], warmupMs, durationMs });
    await new Promise((r) => setTimeout(r, warmupMs + 50));
    const cpu0 = pids.map(cpuSeconds);
    await new Promise((r) => setTimeout(r, durationMs - 100));
    const cpu1 = pids.map(cpuSeconds);
    const g = (await run).groups[0] as GroupResult;
    const steps = g.served.reduce((a, b) => a + b, 0) * ((durationMs - 100) / durationMs);
    const used = cpu1.reduce((n, c, i) => n + c - cpu0[i], 0);
    return {
      workers,
      sessions,
      steps: Math.round(steps),
      stepsPerSec: steps / ((durationMs - 100) / 1000),
      cpuUsPerStep: (used / steps) * 1e6,
      primaryCpuUs: workers > 1 ? (cpu1[0] - cpu0[0]) * 1e6 : 0,
      p50Us: g.p50Us,
      p99Us: g.p99Us,
    };
  } finally {
    await s.stop('SIGTERM');
  }
}

export async function runWorkersBench(opts: WorkersBenchOptions = {}): Promise<WorkersResult> {
  const log = opts.log ?? (() => undefined);
  const warmupMs = opts.smoke ? 200 : 500;
  const durationMs = opts.smoke ? 600 : opts.quick ? 2000 : 4000;
  const rounds = opts.smoke ? 1 : opts.quick ? 2 : 3;
  const load = loadavg()[0];
  const cwd = mkdtempSync(join(tmpdir(), 'seahaven-bench-workers-'));
  const gen = await spawnChild('./ws-load.ts');
  try {
    const { calls } = crmScripts();
    const cpu: CpuRow[] = [];
    for (const [workers, sessions] of CPU_RUNS) {
      let best: CpuRow | undefined;
      for (let r = 0; r < rounds; r++) {
        log(
          `CPU per step: --workers ${workers}, ${sessions} session(s), round ${r + 1} of ${rounds}`,
        );
        const row = await cpuRun(gen, workers, sessions, cwd, calls, warmupMs, durationMs);
        if (!best || row.cpuUsPerStep < best.cpuUsPerStep) best = row;
      }
      cpu.push(best!);
    }

    log(
      'hand-over latency: HTTP steps on one connection, to a session of its worker and of the other',
    );
    const n = opts.smoke ? 50 : opts.quick ? 1000 : 3000;
    const s = await start(2, cwd);
    const handover: HandoverRow[] = [];
    try {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      // Session ids belong to the worker their hash picks: reset a few, and keep one of each kind.
      const ids: Record<string, string> = {};
      for (let i = 0; i < 16 && Object.keys(ids).length < 2; i++) {
        const id = `lat-${i}`;
        await post(s.url, agent, '/reset', id);
        const probe = await timeSteps(s.url, agent, id, 1);
        ids[probe.entry === undefined ? 'direct' : 'handed over'] ??= id;
      }
      for (const path of ['direct', 'handed over'] as const) {
        await timeSteps(s.url, agent, ids[path], Math.min(200, n)); // warm-up
        const { times } = await timeSteps(s.url, agent, ids[path], n);
        times.sort((a, b) => a - b);
        handover.push({ path, p50Us: pct(times, 50), p99Us: pct(times, 99) });
      }
      agent.destroy();
    } finally {
      await s.stop('SIGTERM');
    }

    const memory: MemoryRow[] = [];
    // [fixture, idle sessions, sessions that play an episode]: idle sessions are cheap, so many are needed to rise
    // above the RSS's noise; a big_co session after an episode holds its own copy of a 4.4 MB image.
    const plan: [string, number, number][] = opts.smoke
      ? [['small_startup', 20, 20]]
      : [
          ['small_startup', opts.quick ? 300 : 1000, opts.quick ? 200 : 500],
          ['big_co', opts.quick ? 300 : 1000, opts.quick ? 40 : 100],
        ];
    for (const [fixture, idleCount, usedCount] of plan) {
      const episode = episodeOn(fixture);
      for (const workers of [1, 2]) {
        log(
          `memory: ${idleCount} idle sessions, then ${usedCount} after an episode, on ${fixture}, --workers ${workers}`,
        );
        // Sessions stay awake: the figures are of open connections, not of hibernated ones.
        const m = await start(workers, cwd, ['--hibernate-after', '0']);
        try {
          const pids = await serverPids(m);
          const wsUrl = `${m.url.replace('http', 'ws')}/ws`;
          const settle = () => new Promise((r) => setTimeout(r, 300));
          // One episode first on each worker, so the fixture images and prepared code are loaded before the baseline.
          await gen.ask({ cmd: 'open', url: wsUrl, count: workers * 2, frames: episode });
          await gen.ask({ cmd: 'close' });
          await settle();
          const base = total(pids, rssBytes);
          await gen.ask({ cmd: 'open', url: wsUrl, count: idleCount, frames: [episode[0]] });
          await settle();
          const idle = total(pids, rssBytes);
          await gen.ask({ cmd: 'close' });
          await settle();
          const closed = total(pids, rssBytes);
          await gen.ask({ cmd: 'open', url: wsUrl, count: usedCount, frames: episode });
          await settle();
          const used = total(pids, rssBytes);
          await gen.ask({ cmd: 'close' });
          memory.push({
            fixture,
            workers,
            idleSessions: idleCount,
            sessions: usedCount,
            baseRss: base,
            idleBytes: (idle - base) / idleCount,
            afterEpisodeBytes: (used - closed) / usedCount,
          });
        } finally {
          await m.stop('SIGTERM');
        }
      }
    }
    return {
      machine: machine(),
      load,
      cpu,
      rounds,
      durationMs,
      handover,
      handoverRequests: n,
      memory,
    };
  } finally {
    gen.proc.send({ cmd: 'exit' });
    rmSync(cwd, { recursive: true, force: true });
  }
}

const us = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(0)} µs`);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
const perGiB = (b: number) =>
  b < 4096 ? 'n/a (below the noise)' : Math.round(2 ** 30 / b).toLocaleString('en-US');

export function formatWorkers(r: WorkersResult): string {
  const row = (w: number, n: number) => r.cpu.find((c) => c.workers === w && c.sessions === n)!;
  const cpuRatio = (n: number) =>
    `${((row(2, n).cpuUsPerStep / row(1, n).cpuUsPerStep) * 100).toFixed(0)}%`;
  const [direct, over] = r.handover;
  return [
    `Machine: ${r.machine}; load average ${r.load.toFixed(2)} at the start. Every figure is of the real command line (\`seahaven serve crm --workers N\`); the server's CPU and RSS are summed over all its processes (the primary and the workers).`,
    '',
    `### CPU per step (WebSocket sessions looping over the crm calls, one frame in flight each; best of ${r.rounds} runs of ${r.durationMs / 1000} s)`,
    '',
    '| workers | sessions | steps/s | server CPU per step | of which the primary | p50 | p99 |',
    '|---|---|---|---|---|---|---|',
    ...r.cpu.map(
      (c) =>
        `| ${c.workers} | ${c.sessions} | ${Math.round(c.stepsPerSec).toLocaleString('en-US')} | ${c.cpuUsPerStep.toFixed(1)} µs | ${c.workers > 1 ? `${(c.primaryCpuUs / Math.max(c.steps, 1)).toFixed(2)} µs` : '–'} | ${us(c.p50Us)} | ${us(c.p99Us)} |`,
    ),
    '',
    `The cost of the cluster on a step: one session (its steps all on one worker) costs ${cpuRatio(1)} of the server CPU per step with 2 workers that it costs with one (target: within 10%), and 8 sessions on 2 workers (4 each) ${((row(2, 8).cpuUsPerStep / row(1, 4).cpuUsPerStep) * 100).toFixed(0)}% of 4 sessions on one; the primary spends nothing on any step. The same 8 sessions on 1 and on 2 workers differ by more (${cpuRatio(8)}) for another reason: a process serving 8 sessions answers several frames per wake-up and writes their replies together (docs/performance.md, "Serving"), one serving 4 fewer of them, and on a 2-core machine shared with the load generator each wake-up costs tens of µs.`,
    '',
    `### Hand-over latency (HTTP \`/step\` of \`pipeline_summary\` on small_startup, ${r.handoverRequests.toLocaleString('en-US')} sequential requests on one keep-alive connection)`,
    '',
    '| session held by | p50 | p99 |',
    '|---|---|---|',
    `| the worker the request landed on | ${us(direct.p50Us)} | ${us(direct.p99Us)} |`,
    `| the other worker (handed over on the loopback) | ${us(over.p50Us)} | ${us(over.p99Us)} |`,
    '',
    `A hand-over adds ${us(over.p50Us - direct.p50Us)} at the median. WebSocket frames are never handed over.`,
    '',
    '### Sessions per GiB of RSS (WebSocket sessions, kept awake with `--hibernate-after 0`)',
    '',
    '| fixture | workers | RSS before (all processes) | per idle session | idle sessions per GiB | per session after one episode | sessions per GiB after an episode |',
    '|---|---|---|---|---|---|---|',
    ...r.memory.map(
      (m) =>
        `| ${m.fixture} | ${m.workers} | ${mib(m.baseRss)} | ${kib(m.idleBytes)} (${m.idleSessions.toLocaleString('en-US')} sessions) | ${perGiB(m.idleBytes)} | ${kib(m.afterEpisodeBytes)} (${m.sessions.toLocaleString('en-US')} sessions) | ${perGiB(m.afterEpisodeBytes)} |`,
    ),
    '',
    'An idle session is a reset not used yet: its instance opens its SQLite connection on first use. Each worker has its own base RSS (the runtime, the worlds, the fixture images), in the "before" column; a session costs the same whichever worker holds it.',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const r = await runWorkersBench({
    quick: args.includes('--quick'),
    log: (l) => process.stderr.write(`  ${l}\n`),
  });
  const text = formatWorkers(r);
  process.stdout.write(`${HEADING}\n\n${text}\n`);
  if (args.includes('--write')) writeSection(HEADING, text);
  process.exit(0);
}
