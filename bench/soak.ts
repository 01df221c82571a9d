/**
 * Soak test: a real `seahaven serve crm stripe` in a child process, driven for minutes by many WebSocket sessions of crm
 * with a mix of resets (by task, by curriculum, plain), valid and invalid tool calls, malformed frames, state reads and
 * submits; beside them Stripe REST clients (soak-http.ts), each on keys of its own, and MCP Streamable HTTP clients of
 * crm. Every WebSocket reply is paired with its request: each request carries a token its reply must contain, and
 * replies must come back in request order; every HTTP answer is checked against its request. Reports steps, errors,
 * mismatched replies and the server's RSS over time.
 *
 *     npm run soak -- --minutes 10 [--sessions 10] [--rest 3] [--mcp 3] [--inflight 4] [--seed 1] [--trend-from 3] [--max-rss-slope 3] [--serve-arg "--flag value"] [--json]
 *
 * Exit code 0 when no reply was an error or a mismatch, the server shut down cleanly with its runs file intact, and its
 * RSS from minute 3 on rose by no more than 3 MiB a minute (soak-memory.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import {
  spawnServe,
  type ServeProcess,
} from 'seahaven/internal/transports/serve/test-fixtures/spawn-serve';
import { mcpClient, stripeRestClient, type HttpTally } from './soak-http.ts';
import {
  formatSample,
  formatTrend,
  lastProbe,
  PROBE_MODULE,
  rssTrend,
  vmRssMib,
  type RssSample,
  type RssTrend,
} from './soak-memory.ts';

export type { RssSample } from './soak-memory.ts';

export interface SoakOptions {
  durationMs: number;
  /** WebSocket sessions of crm. */
  sessions: number;
  /** Stripe REST clients, each on keys of its own. Default 0. */
  rest?: number;
  /** MCP Streamable HTTP clients of crm. Default 0. */
  mcp?: number;
  /** Frames each session keeps outstanding. */
  inflight: number;
  seed: number;
  /** How often the server's RSS is sampled. */
  rssEveryMs: number;
  /** The RSS trend is taken over the samples from this minute on (the server warms up before). Default 3. */
  trendFrom?: number;
  /** The soak fails when that trend's slope passes this many MiB per minute. Default 3. */
  maxRssSlope?: number;
  /** More arguments for `seahaven serve` (`--serve-arg`, repeatable), e.g. `--heap-growth 0` to compare. */
  serveArgs?: string[];
  /** Progress lines (one per RSS sample); default none. */
  progress?: (line: string) => void;
  /**
   * Keep going past `durationMs` until this holds of the frames answered so far, by kind (a smoke run's: every kind
   * answered at least once, whatever the machine's load), for at most `untilWithinMs` more (default 60 s).
   */
  until?: (frames: Readonly<Record<string, number>>) => boolean;
  untilWithinMs?: number;
}

export interface SoakReport {
  sessions: number;
  rest: number;
  mcp: number;
  inflight: number;
  seconds: number;
  /** Frames sent and answered, by kind. */
  frames: Record<string, number>;
  /** Step frames answered (tool calls, malformed steps and submits). */
  steps: number;
  /** HTTP requests answered (Stripe REST and MCP). */
  requests: number;
  /** Replies that paired with their request but were not what it should get (a valid call that failed, say). */
  errors: number;
  /** Replies that did not pair with the request at the head of their session's queue, and requests never answered. */
  mismatches: number;
  /** Up to ten of the errors and mismatches, for the log. */
  examples: string[];
  rss: {
    start: number;
    middle: number;
    end: number;
    max: number;
    samples: RssSample[];
    trend: RssTrend | null;
    maxSlope: number;
  };
  /** Lines the server wrote to stderr (world bugs, hook failures, slow calls). */
  serverLog: string[];
  /** Exit code of the server after SIGTERM. */
  serverExit: number | null;
  /** The curriculum runs file after shutdown. */
  runs: { integrity: string; recorded: number; abandoned: number; pending: number };
}

const TASKS = [
  'add_lead',
  'log_call',
  'add_company',
  'qualify_globex_leads',
  'lose_stale_negotiations',
  'globex_discount',
  'dana_signed',
  'dan_deal_slipped',
];

/** A small seeded generator (mulberry32): the same seed drives the same traffic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Expect {
  kind: string;
  /** Present in the reply exactly when it answers this request. */
  token: string;
  /** Further text the right reply contains. */
  must: string[];
  mustNot?: string;
  prefix: string;
}

export interface Frame {
  text: string;
  expect: Expect;
}

const step = (tool: string, args: Record<string, unknown>) =>
  JSON.stringify({ type: 'step', data: { type: 'call_tool', tool_name: tool, arguments: args } });
const OBS = '{"type":"observation"';

/** An endless, seeded script of frames for one session, episode after episode. */
export function* script(session: number, seed: number): Generator<Frame> {
  const random = rng(seed * 7919 + session);
  const int = (a: number, b: number) => a + Math.floor(random() * (b - a + 1));
  let n = 0;
  const token = () => `_s${session}x${++n}_`;
  for (let episode = 0; ; episode++) {
    const r = random();
    const mode = r < 0.6 ? 'task' : r < 0.85 ? 'curriculum' : 'plain';
    const resetSeed = session * 1_000_000 + episode;
    const task = TASKS[int(0, TASKS.length - 1)];
    if (mode === 'task') {
      yield {
        text: JSON.stringify({ type: 'reset', data: { task, seed: resetSeed } }),
        expect: {
          kind: 'reset',
          prefix: OBS,
          token: `"seed":${resetSeed},`,
          must: [`"id":"${task}"`],
        },
      };
    } else if (mode === 'curriculum') {
      yield {
        text: JSON.stringify({
          type: 'reset',
          data: { curriculum: 'crm-basics', run_id: `soak-${session}` },
        }),
        expect: {
          kind: 'reset',
          prefix: OBS,
          token: `"ticket":"crm-basics/soak-${session}/`,
          must: [],
        },
      };
    } else {
      // Half of them start from big_co, which the curriculum reaches only at its last stage: every fixture the soak
      // plays is loaded within its first minute, so what the trend measures afterwards is the server, not the pace
      // at which curriculum runs are promoted.
      const fixture = random() < 0.5 ? 'big_co' : 'small_startup';
      yield {
        text: JSON.stringify({ type: 'reset', data: { fixture, seed: resetSeed } }),
        expect: {
          kind: 'reset',
          prefix: OBS,
          token: `"seed":${resetSeed},`,
          must: [`"fixture":"${fixture}"`],
        },
      };
    }
    let steps = 0;
    let calls = 0;
    const length = int(2, 24);
    for (let i = 0; i < length; i++) {
      const pick = random();
      const t = token();
      steps++;
      if (pick < 0.15) {
        calls++;
        yield {
          text: step('create_company', { name: `Soak ${t}` }),
          expect: {
            kind: 'valid',
            prefix: OBS,
            token: t,
            must: ['"structured_content"'],
            mustNot: '"seahaven_error"',
          },
        };
      } else if (pick < 0.3) {
        calls++;
        yield {
          text: step('update_contact', { id: 'con_dana', notes: t }),
          expect: {
            kind: 'valid',
            prefix: OBS,
            token: t,
            must: ['"structured_content"'],
            mustNot: '"seahaven_error"',
          },
        };
      } else if (pick < 0.4) {
        calls++;
        yield {
          text: step('log_activity', { contact_id: 'con_ravi', kind: 'note', subject: t }),
          expect: {
            kind: 'valid',
            prefix: OBS,
            token: t,
            must: ['"structured_content"'],
            mustNot: '"seahaven_error"',
          },
        };
      } else if (pick < 0.5) {
        calls++;
        yield {
          text: step('search_contacts', { query: 'whit', limit: int(1, 5) }),
          expect: {
            kind: 'valid',
            prefix: OBS,
            token: '"tool_name":"search_contacts"',
            must: ['Whitaker'],
            mustNot: '"seahaven_error"',
          },
        };
      } else if (pick < 0.62) {
        // Passes validation, fails in the tool: a numbered call.
        calls++;
        yield {
          text: step('get_company', { id: `cmp${t}` }),
          expect: { kind: 'invalid', prefix: OBS, token: t, must: ['"code":"not_found"'] },
        };
      } else if (pick < 0.72) {
        yield {
          text: step(`soak${t}`, {}),
          expect: {
            kind: 'invalid',
            prefix: OBS,
            token: t,
            must: ['"error_type":"tool_not_found"'],
          },
        };
      } else if (pick < 0.82) {
        yield {
          text: step('get_company', { id: 'cmp_acme', [`x${t}`]: 1 }),
          expect: { kind: 'invalid', prefix: OBS, token: t, must: ['"code":"invalid_arguments"'] },
        };
      } else if (pick < 0.88) {
        yield {
          text: step('search_contacts', { query: `${t}${'q'.repeat(300)}` }),
          expect: {
            kind: 'invalid',
            prefix: OBS,
            token: '"code":"invalid_arguments"',
            must: ['<=200 characters'],
          },
        };
      } else if (pick < 0.93) {
        steps--;
        yield {
          text: '{"type":"step","data":',
          expect: {
            kind: 'malformed',
            prefix: '{"type":"error"',
            token: '"INVALID_JSON"',
            must: [],
          },
        };
      } else {
        steps--;
        const must = [`"call_count":${calls},`];
        if (mode !== 'curriculum') must.push(`"seed":${resetSeed},`);
        yield {
          text: '{"type":"state"}',
          expect: {
            kind: 'state',
            prefix: '{"type":"state"',
            token: `"step_count":${steps},`,
            must,
          },
        };
      }
    }
    // Most episodes with a task end with a submit; the others are left for the next reset to give up.
    if (mode !== 'plain' && random() < 0.9) {
      yield {
        text: '{"type":"step","data":{"type":"submit"}}',
        expect: { kind: 'submit', prefix: OBS, token: '"grade":{', must: ['"done":true'] },
      };
    }
  }
}

/**
 * How a reply answers an expected request: `ok`; `error` (it answers this request, but not as it should: a valid call
 * that failed); `mismatch` (it answers some other request, or never came: `text` null).
 */
export function classify(e: Expect, text: string | null): 'ok' | 'error' | 'mismatch' {
  if (text === null || e.kind === 'unexpected' || !text.includes(e.token)) return 'mismatch';
  if (
    !text.startsWith(e.prefix) ||
    !e.must.every((m) => text.includes(m)) ||
    (e.mustNot !== undefined && text.includes(e.mustNot))
  )
    return 'error';
  return 'ok';
}

class Session {
  readonly queue: Expect[] = [];
  readonly ws: WebSocket;
  private readonly frames: Generator<Frame>;
  private readonly inflight: number;
  private stopped = false;
  constructor(
    ws: WebSocket,
    id: number,
    seed: number,
    inflight: number,
    report: (e: Expect, text: string | null) => void,
  ) {
    this.ws = ws;
    this.inflight = inflight;
    this.frames = script(id, seed);
    ws.on('message', (data) => {
      const text = data.toString();
      report(this.queue.shift() ?? { kind: 'unexpected', token: '', must: [], prefix: '' }, text);
      this.fill();
    });
  }

  fill(): void {
    while (
      !this.stopped &&
      this.queue.length < this.inflight &&
      this.ws.readyState === WebSocket.OPEN
    ) {
      const f = this.frames.next().value as Frame;
      this.queue.push(f.expect);
      this.ws.send(f.text);
    }
  }

  stop(): void {
    this.stopped = true;
  }
}

function connect(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Run the soak: start the server, drive it for `durationMs`, stop it, and report. */
export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const dir = mkdtempSync(join(tmpdir(), 'seahaven-soak-'));
  const runsFile = join(dir, 'runs.sqlite');
  let server: ServeProcess | undefined;
  try {
    // Idle sessions end after 30 s: a REST client's old keys (it moves to a fresh one every so often) do not pile up.
    const probeFile = join(dir, 'probe.jsonl');
    server = await spawnServe(
      [
        'crm',
        'stripe',
        '--curricula-db',
        runsFile,
        '--no-console',
        '--session-timeout',
        '30',
        ...(o.serveArgs ?? []),
      ],
      {
        nodeArgs: ['--import', PROBE_MODULE],
        env: { SEAHAVEN_SOAK_PROBE: probeFile, SEAHAVEN_SOAK_PROBE_MS: String(o.rssEveryMs) },
      },
    );
    const pid = server.child.pid!;
    const frames: Record<string, number> = {};
    let errors = 0;
    let mismatches = 0;
    const examples: string[] = [];
    const note = (what: string) => {
      if (examples.length < 10) examples.push(what);
    };
    const check = (e: Expect, text: string | null) => {
      frames[e.kind] = (frames[e.kind] ?? 0) + 1;
      const verdict = classify(e, text);
      if (verdict === 'mismatch') mismatches++;
      if (verdict === 'error') errors++;
      if (verdict !== 'ok')
        note(
          `${verdict} (${e.kind} frame, expected ${JSON.stringify([e.token, ...e.must])}): ${text === null ? 'no reply' : text.slice(0, 300)}`,
        );
    };
    const url = `${server.url.replace('http', 'ws')}/ws`;
    const sockets = await Promise.all(Array.from({ length: o.sessions }, () => connect(url)));
    const sessions = sockets.map((ws, i) => new Session(ws, i, o.seed, o.inflight, check));

    const samples: RssSample[] = [];
    const started = performance.now();
    const sample = () => {
      const s: RssSample = {
        at: (performance.now() - started) / 1000,
        mib: vmRssMib(pid),
        probe: lastProbe(probeFile),
      };
      samples.push(s);
      const done = Object.values(frames).reduce((a, b) => a + b, 0);
      o.progress?.(
        `${s.at.toFixed(0).padStart(5)} s  ${formatSample(s)}  replies ${done}  errors ${errors}  mismatches ${mismatches}`,
      );
    };
    sample();
    for (const s of sessions) s.fill();
    const timer = setInterval(sample, o.rssEveryMs);
    const serverDied = new Promise<void>((resolve) => server!.child.once('exit', () => resolve()));
    let running = true;
    const tally: HttpTally = { frames, errors: 0, note };
    const clients = [
      ...Array.from({ length: o.rest ?? 0 }, (_, i) =>
        stripeRestClient(server!.url, i, () => running, tally),
      ),
      ...Array.from({ length: o.mcp ?? 0 }, (_, i) =>
        mcpClient(server!.url, i, () => running, tally),
      ),
    ].map((c) =>
      c.catch((e) => void (tally.errors++, note(`error (HTTP client): ${(e as Error).message}`))),
    );
    await Promise.race([new Promise((r) => setTimeout(r, o.durationMs)), serverDied]);
    // A short run goes on until what it must show was answered (every kind of frame, say), however loaded the machine.
    let died = false;
    void serverDied.then(() => (died = true));
    const longest = performance.now() + (o.untilWithinMs ?? 60_000);
    while (o.until && !o.until(frames) && !died && performance.now() < longest)
      await new Promise((r) => setTimeout(r, 50));
    running = false;
    await Promise.all(clients);
    errors += tally.errors;
    clearInterval(timer);
    sample();
    const seconds = (performance.now() - started) / 1000;
    for (const s of sessions) s.stop();
    // Let outstanding replies arrive; whatever never does is counted.
    const drainBy = performance.now() + 30_000;
    while (
      sessions.some((s) => s.queue.length > 0) &&
      performance.now() < drainBy &&
      server.child.exitCode === null
    )
      await new Promise((r) => setTimeout(r, 20));
    for (const s of sessions) for (const e of s.queue.splice(0)) check(e, null);
    await Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(1000);
          }),
      ),
    );
    const serverExit = await server.stop('SIGTERM');
    const runs = inspectRuns(runsFile);
    const mid = samples.reduce(
      (best, s) => (Math.abs(s.at - seconds / 2) < Math.abs(best.at - seconds / 2) ? s : best),
      samples[0],
    );
    const steps =
      (frames.valid ?? 0) + (frames.invalid ?? 0) + (frames.malformed ?? 0) + (frames.submit ?? 0);
    const requests = Object.entries(frames)
      .filter(([k]) => k.startsWith('rest_') || k.startsWith('mcp_'))
      .reduce((n, [, v]) => n + v, 0);
    return {
      sessions: o.sessions,
      rest: o.rest ?? 0,
      mcp: o.mcp ?? 0,
      inflight: o.inflight,
      seconds,
      frames,
      steps,
      requests,
      errors,
      mismatches,
      examples,
      rss: {
        start: samples[0].mib,
        middle: mid.mib,
        end: samples[samples.length - 1].mib,
        max: Math.max(...samples.map((s) => s.mib)),
        samples,
        trend: rssTrend(samples, o.trendFrom ?? 3),
        maxSlope: o.maxRssSlope ?? 3,
      },
      serverLog: server
        .stderr()
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('seahaven serve: SIGTERM')),
      serverExit,
      runs,
    };
  } finally {
    await server?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

function inspectRuns(file: string): SoakReport['runs'] {
  const db = new Database(file, { readonly: true });
  try {
    const integrity = (db.prepare('PRAGMA integrity_check').pluck().all() as string[]).join('; ');
    const count = (status: string) =>
      db
        .prepare('SELECT count(*) FROM curriculum_episodes WHERE status = ?')
        .pluck()
        .get(status) as number;
    return {
      integrity,
      recorded: count('recorded'),
      abandoned: count('abandoned'),
      pending: count('pending'),
    };
  } finally {
    db.close();
  }
}

/** Whether the soak found nothing wrong. */
export function soakPassed(r: SoakReport): boolean {
  const flat = r.rss.trend === null || r.rss.trend.slopeMibPerMin <= r.rss.maxSlope;
  return (
    flat &&
    r.errors === 0 &&
    r.mismatches === 0 &&
    r.serverExit === 0 &&
    r.runs.integrity === 'ok' &&
    r.runs.pending === 0 &&
    r.serverLog.length === 0
  );
}

export function formatSoak(r: SoakReport): string {
  const rate = (n: number) => `${Math.round(n / r.seconds).toLocaleString('en-US')}/s`;
  const total = Object.values(r.frames).reduce((a, b) => a + b, 0);
  const lines = [
    `soak: ${r.sessions} WebSocket sessions × ${r.inflight} in flight, ${r.rest} Stripe REST and ${r.mcp} MCP clients for ${(r.seconds / 60).toFixed(1)} min against seahaven serve crm stripe`,
    `  replies:     ${total.toLocaleString('en-US')} (${rate(total)}); steps ${r.steps.toLocaleString('en-US')} (${rate(r.steps)}); HTTP requests ${r.requests.toLocaleString('en-US')} (${rate(r.requests)})`,
    `  by kind:     ${Object.entries(r.frames)
      .sort()
      .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
      .join(', ')}`,
    `  errors:      ${r.errors}`,
    `  mismatches:  ${r.mismatches}`,
    `  server RSS:  start ${r.rss.start.toFixed(1)} MiB, middle ${r.rss.middle.toFixed(1)} MiB, end ${r.rss.end.toFixed(1)} MiB (max ${r.rss.max.toFixed(1)} MiB)`,
    `  RSS trend:   ${formatTrend(r)}`,
    `  server log:  ${r.serverLog.length} line(s); exit ${r.serverExit}`,
    `  runs file:   integrity ${r.runs.integrity}; ${r.runs.recorded} recorded, ${r.runs.abandoned} abandoned, ${r.runs.pending} pending`,
    ...r.examples.map((e) => `  ! ${e}`),
    ...r.serverLog.slice(0, 10).map((l) => `  server: ${l}`),
    soakPassed(r) ? 'PASS' : 'FAIL',
  ];
  return lines.join('\n');
}

/** `--minutes N` or `--seconds N`, `--sessions`, `--rest`, `--mcp`, `--inflight`, `--seed`, `--rss-every <seconds>`, `--trend-from <minutes>`, `--max-rss-slope <MiB/min>`, `--serve-arg <args>` (repeatable), `--json`. */
export function parseSoakArgs(argv: string[]): SoakOptions & { json: boolean } {
  const o = {
    durationMs: NaN,
    sessions: 10,
    rest: 3,
    mcp: 3,
    inflight: 4,
    seed: 1,
    rssEveryMs: 10_000,
    trendFrom: 3,
    maxRssSlope: 3,
    serveArgs: [] as string[],
    json: false,
  };
  const number = (flag: string, v: string | undefined, min: number) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min)
      throw new Error(
        `${flag} takes a number >= ${min}; got ${v === undefined ? 'nothing' : JSON.stringify(v)}`,
      );
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--json') o.json = true;
    else if (flag === '--minutes') o.durationMs = number(flag, argv[++i], 0.01) * 60_000;
    else if (flag === '--seconds') o.durationMs = number(flag, argv[++i], 1) * 1000;
    else if (flag === '--sessions') o.sessions = Math.round(number(flag, argv[++i], 1));
    else if (flag === '--rest') o.rest = Math.round(number(flag, argv[++i], 0));
    else if (flag === '--mcp') o.mcp = Math.round(number(flag, argv[++i], 0));
    else if (flag === '--inflight') o.inflight = Math.round(number(flag, argv[++i], 1));
    else if (flag === '--seed') o.seed = Math.round(number(flag, argv[++i], 0));
    else if (flag === '--rss-every') o.rssEveryMs = number(flag, argv[++i], 1) * 1000;
    else if (flag === '--trend-from') o.trendFrom = number(flag, argv[++i], 0);
    else if (flag === '--max-rss-slope') o.maxRssSlope = number(flag, argv[++i], 0);
    else if (flag === '--serve-arg') {
      const arg = argv[++i];
      if (arg === undefined) throw new Error('--serve-arg takes an argument for seahaven serve');
      o.serveArgs.push(...arg.split(' ').filter(Boolean));
    } else
      throw new Error(
        `unknown option ${flag}; usage: npm run soak -- --minutes N [--sessions 10] [--rest 3] [--mcp 3] [--inflight 4] [--seed 1] [--rss-every 10] [--trend-from 3] [--max-rss-slope 3] [--serve-arg "--flag value"] [--json]`,
      );
  }
  if (Number.isNaN(o.durationMs))
    throw new Error('say how long: npm run soak -- --minutes 10 (or --seconds 30)');
  return o;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let options;
  try {
    options = parseSoakArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`soak: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const report = await runSoak({
    ...options,
    progress: options.json ? undefined : (line) => process.stdout.write(line + '\n'),
  });
  process.stdout.write(
    (options.json ? JSON.stringify(report, null, 2) : formatSoak(report)) + '\n',
  );
  process.exit(soakPassed(report) ? 0 : 1);
}
