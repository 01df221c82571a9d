/**
 * Heavy calls: does one session's heaviest work stall the others? 8 light sessions (crm `call_tool` over WebSocket,
 * one frame in flight each, the script of the WebSocket benchmark) are measured on a quiet server, then while one
 * Stripe World session on big_co runs its heaviest calls back to back (bench/heavy-load.ts): a search page over its
 * 100,000 charges that matches none of them, a form body of 10,000 parameters just under the 1 MiB body limit, and
 * `advance_clock` of a year. The light sessions' p99 should stay within 5× of the quiet p99. Server, load generator
 * and heavy session are three processes; the light sessions' figures come from the load generator (bench/ws-load.ts).
 *
 * Run: `npx seahaven bench heavy [--quick] [--write]`; `--quick` advances 30 days and measures shorter windows.
 */
import { machine, spawnChild } from './harness.ts';
import { crmScripts } from './ws.ts';
import type { GroupResult, LoadGroup } from './ws-load.ts';

export const HEADING = '## Heavy calls beside light sessions';

export interface HeavyOp {
  kind: 'search' | 'form body' | 'advance_clock';
  ms: number;
  status: string;
}

/** The server's default body limit, and a form body of 10,000 parameters just under it. */
const MAX_BODY = 1 << 20;
export function largestFormBody(): string {
  const value = 'v'.repeat(80);
  let body = Array.from(
    { length: 10_000 },
    (_, i) => `metadata[k${String(i).padStart(5, '0')}]=${value}`,
  ).join('&');
  while (Buffer.byteLength(body) > MAX_BODY) body = body.replace(/v{10}(&|$)/g, '$1');
  return body;
}

export interface HeavyBenchOptions {
  quick?: boolean;
  /** A run of a few seconds on small_startup, for the test suite: it checks that everything works, not the figures. */
  smoke?: boolean;
  log?: (line: string) => void;
}

export interface HeavyBenchResult {
  fixture: string;
  advanceDays: number;
  windowMs: number;
  quiet: GroupResult;
  loaded: GroupResult;
  ops: HeavyOp[];
  machine: string;
}

export async function runHeavyBench(opts: HeavyBenchOptions = {}): Promise<HeavyBenchResult> {
  const log = opts.log ?? (() => undefined);
  const fixture = opts.smoke ? 'small_startup' : 'big_co';
  const advanceDays = opts.smoke ? 5 : opts.quick ? 30 : 365;
  const windowMs = opts.smoke ? 200 : opts.quick ? 8000 : 30_000;
  const { calls } = crmScripts();
  // Started together: each spends about a second compiling its sources, and nothing is measured until all are up.
  const [server, gen, heavy] = await Promise.all([
    spawnChild('./heavy-load.ts', ['server']),
    spawnChild('./ws-load.ts'),
    spawnChild('./heavy-load.ts', ['driver']),
  ]);
  try {
    const port = server.first.port as number;
    log(`opening the heavy session on stripe/${fixture}`);
    await heavy.ask({ cmd: 'open', port, fixture });
    const light: LoadGroup[] = [
      {
        label: 'crm calls',
        url: `ws://127.0.0.1:${port}/ws`,
        count: 8,
        script: calls,
        loopFrom: 1,
        inflight: 1,
      },
    ];
    const warmupMs = opts.smoke ? 50 : 1000;
    log(`quiet: 8 light sessions for ${windowMs / 1000} s`);
    const quiet = (
      (await gen.ask({ cmd: 'run', groups: light, warmupMs, durationMs: windowMs }))
        .groups as GroupResult[]
    )[0];
    log(
      `loaded: the same, while the heavy session searches, posts its body and advances ${advanceDays} days`,
    );
    await heavy.ask({ cmd: 'start', advanceDays });
    const loaded = (
      (await gen.ask({ cmd: 'run', groups: light, warmupMs: 0, durationMs: windowMs }))
        .groups as GroupResult[]
    )[0];
    log('waiting for the heavy operation in flight');
    // The smoke run waits for one whole round, so each kind of operation is answered however loaded the machine is.
    const ops = (await heavy.ask({ cmd: 'stop', whole: opts.smoke === true })).ops as HeavyOp[];
    return { fixture, advanceDays, windowMs, quiet, loaded, ops, machine: machine() };
  } finally {
    for (const c of [server, gen, heavy]) c.proc.send({ cmd: 'exit' });
  }
}

const ms = (us: number) => (us / 1000).toFixed(2) + ' ms';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export function formatHeavy(r: HeavyBenchResult): string {
  const served = (g: GroupResult) => g.served.reduce((a, b) => a + b, 0);
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) + '×' : 'n/a');
  const out: string[] = [];
  out.push(
    `8 light sessions (crm \`call_tool\` over WebSocket, one frame in flight each) for ${r.windowMs / 1000} s on a quiet server, then for ${r.windowMs / 1000} s while one Stripe World session on \`${r.fixture}\` runs its heaviest calls back to back: a charges search page matching none of them (with \`total_count\`), a form body of 10,000 parameters just under the 1 MiB limit, and \`advance_clock\` of ${r.advanceDays} days. Target: loaded p99 within 5× of quiet p99.`,
  );
  out.push('');
  out.push('| light sessions | replies | p50 | p99 |');
  out.push('|---|---:|---:|---:|');
  out.push(
    `| quiet | ${served(r.quiet).toLocaleString('en-US')} | ${ms(r.quiet.p50Us)} | ${ms(r.quiet.p99Us)} |`,
  );
  out.push(
    `| loaded | ${served(r.loaded).toLocaleString('en-US')} | ${ms(r.loaded.p50Us)} | ${ms(r.loaded.p99Us)} |`,
  );
  out.push(
    `| loaded / quiet | | ${ratio(r.loaded.p50Us, r.quiet.p50Us)} | ${ratio(r.loaded.p99Us, r.quiet.p99Us)} |`,
  );
  out.push('');
  out.push('| heavy operation | runs | median | max | answers |');
  out.push('|---|---:|---:|---:|---|');
  for (const kind of ['search', 'form body', 'advance_clock'] as const) {
    const runs = r.ops.filter((o) => o.kind === kind);
    if (runs.length === 0) continue;
    const statuses = [...new Set(runs.map((o) => o.status))].join(', ');
    out.push(
      `| ${kind} | ${runs.length} | ${median(runs.map((o) => o.ms)).toFixed(1)} ms | ${Math.max(...runs.map((o) => o.ms)).toFixed(1)} ms | ${statuses} |`,
    );
  }
  out.push('');
  out.push(`Machine: ${r.machine}.`);
  return out.join('\n');
}
