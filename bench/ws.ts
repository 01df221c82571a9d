/**
 * WebSocket serving: throughput and latency of `seahaven serve` on crm `small_startup` with 1, 8 and 64 concurrent
 * sessions, against a floor (a bare `ws` server answering the same frames with canned replies) under the same load
 * generator; a fairness run with one greedy session on a slow tool; and memory per idle session. The Seahaven server,
 * the floor and the load generator each run in a process of their own. Where `taskset` exists, the generator is pinned
 * to the last CPU and each server's event-loop thread to the first, so the client never competes with the server
 * it measures.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/ws.ts [--quick] [--write]` (or `seahaven bench ws`). `--write` replaces the
 * "WebSocket serving" section of bench/results.md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createApp } from 'seahaven/serve';
import { crm } from '@seahaven/crm';
import { machine, spawnChild, writeSection } from './harness.ts';
import type { GroupResult, LoadGroup } from './ws-load.ts';

export const call = (tool: string, args: Record<string, unknown>) =>
  JSON.stringify({ type: 'step', data: { type: 'call_tool', tool_name: tool, arguments: args } });

/**
 * The crm scripts, with ids from the fixture. `episode`: a reset and 15 calls (10 reads, 5 writes). `calls`: a reset,
 * then the 12 calls of the episode that do not add rows (reads and in-place updates), so a session can loop over
 * them for as long as a run lasts without its tables or history growing.
 */
/** The rows of a crm fixture the benchmark episodes work on: a contact with a company, and an open deal. */
export function crmRows(fixture: string): {
  contact: { id: string; company_id: string };
  deal: string;
} {
  const inst = crm.instance({ fixture });
  const contact = inst.query<{ id: string; company_id: string }>(
    'SELECT id, company_id FROM contacts WHERE company_id IS NOT NULL ORDER BY id LIMIT 1',
  )[0];
  const deal = inst.query<{ id: string }>(
    "SELECT id FROM deals WHERE stage NOT IN ('won', 'lost') ORDER BY id LIMIT 1",
  )[0].id;
  inst.destroy();
  return { contact, deal };
}

/**
 * The first 8 frames of every crm benchmark episode on `fixture`: a reset, five reads of `contact`'s neighbourhood and
 * two writes. The WebSocket and workers benchmarks each go on from here.
 */
export function crmEpisodeOpening(
  fixture: string,
  contact: { id: string; company_id: string },
): string[] {
  return [
    JSON.stringify({ type: 'reset', data: { fixture, seed: 1 } }),
    call('search_contacts', { query: 'an' }),
    call('get_contact', { id: contact.id }),
    call('list_companies', { limit: 10 }),
    call('list_deals', { company_id: contact.company_id }),
    call('pipeline_summary', {}),
    call('update_contact', { id: contact.id, title: 'VP Sales' }),
    call('log_activity', { contact_id: contact.id, kind: 'call', subject: 'Follow-up' }),
  ];
}

export function crmScripts(): { episode: string[]; calls: string[]; reads: string[] } {
  const { contact, deal } = crmRows('small_startup');
  const opening = crmEpisodeOpening('small_startup', contact);
  const reset = opening[0];
  const episode = [
    ...opening,
    call('create_contact', {
      name: 'Bench Lead',
      email: 'lead-@@@example.com',
      company_id: contact.company_id,
    }),
    call('get_contact', { id: contact.id }),
    call('list_contacts', { company_id: contact.company_id }),
    call('update_deal', { id: deal, stage: 'negotiation' }),
    call('search_contacts', { query: 'Bench' }),
    call('list_deals', { stage: 'negotiation', limit: 10 }),
    call('pipeline_summary', {}),
    call('create_company', { name: 'Bench Co' }),
  ];
  const adds = ['"log_activity"', '"create_contact"', '"create_company"'];
  // One-row reads by id and one in-place update: what most calls of an agent's episode look like.
  const reads = [
    reset,
    call('get_deal', { id: deal }),
    call('get_company', { id: contact.company_id }),
    call('get_deal', { id: deal }),
    call('update_deal', { id: deal, amount_cents: 4_200_000 }),
    call('get_company', { id: contact.company_id }),
  ];
  return { episode, calls: episode.filter((f) => !adds.some((a) => f.includes(a))), reads };
}

/**
 * Pin a process to one CPU with `taskset`: every thread, or only its main (event-loop) thread. Returns false where
 * that cannot be done (no taskset, one CPU), and the run goes on unpinned.
 */
function pin(pid: number, cpu: number, allThreads: boolean): boolean {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', [...(allThreads ? ['-a'] : []), '-cp', String(cpu), String(pid)], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** The replies Seahaven gives to one episode, recorded for the floor to replay. */
async function record(url: string, frames: string[]): Promise<string[]> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((r) => ws.once('open', r));
  const replies: string[] = [];
  await new Promise<void>((resolve) => {
    ws.on('message', (d: Buffer) => {
      replies.push(d.toString());
      if (replies.length === frames.length) resolve();
    });
    for (const f of frames) ws.send(f.replace('@@', 'rec'));
  });
  ws.close();
  return replies;
}

export interface InProcessCosts {
  /** `inst.call` per call of the calls loop (µs). */
  callUs: number;
  /** The same calls as frames through the endpoint: parse, dispatch, call, reply JSON, down to its UTF-8 bytes (µs). */
  frameUs: number;
  /** A whole episode's 16 frames through the endpoint, reset included (µs). */
  episodeUs: number;
  /** The episode's reset frame alone (µs). */
  resetUs: number;
}

/** Where a step's time goes, without sockets: the kit's call, the server's framing, and a fresh episode. Best of 3. */
export function inProcessCosts(
  calls: string[],
  episode: string[],
  { laps = 200, episodes = 40, rounds = 3 } = {},
): InProcessCosts {
  const { endpoints, sessions } = createApp({ worlds: [crm], idleTimeoutMs: 0 });
  const ep = endpoints.get('crm')!;
  const session = ep.openSession('ws');
  const frames = calls.slice(1);
  const actions = frames.map(
    (f) => JSON.parse(f).data as { tool_name: string; arguments: Record<string, unknown> },
  );
  const inst = crm.instance({ fixture: 'small_startup', seed: 1 });
  ep.reply(session, calls[0]);
  const time = (fn: () => void) => {
    const t = performance.now();
    fn();
    return (performance.now() - t) * 1000;
  };
  // Replies as the bytes a socket sends: a reply given as text is encoded here, as the socket would.
  const frame = (text: string) => {
    const reply = ep.reply(session, text);
    return typeof reply === 'string' ? Buffer.from(reply) : reply;
  };
  const best = { callUs: Infinity, frameUs: Infinity, episodeUs: Infinity, resetUs: Infinity };
  for (let round = 0; round < rounds; round++) {
    best.frameUs = Math.min(
      best.frameUs,
      time(() => {
        for (let i = 0; i < laps; i++) for (const f of frames) frame(f);
      }) /
        (laps * frames.length),
    );
    best.callUs = Math.min(
      best.callUs,
      time(() => {
        for (let i = 0; i < laps; i++) for (const a of actions) inst.call(a.tool_name, a.arguments);
      }) /
        (laps * actions.length),
    );
    let reset = 0;
    const total = time(() => {
      for (let i = 0; i < episodes; i++) {
        reset += time(() => frame(episode[0]));
        for (let k = 1; k < episode.length; k++) frame(episode[k].replace('@@', `${round}-${i}`));
      }
    });
    best.episodeUs = Math.min(best.episodeUs, total / episodes);
    best.resetUs = Math.min(best.resetUs, reset / episodes);
  }
  inst.destroy();
  sessions.endAll('shutdown');
  return best;
}

export interface ThroughputRow {
  sessions: number;
  /** The floor's and Seahaven's best rounds. */
  floor: GroupResult;
  seahaven: GroupResult;
  /** Seahaven's calls/s over the floor's, per round (each round runs the floor, then Seahaven, back to back). */
  pairedRatios: number[];
}

export interface WsBenchResult {
  machine: string;
  load: number;
  /** Whether the load generator and the servers' event loops were pinned to CPUs of their own. */
  pinned: boolean;
  rounds: number;
  durationMs: number;
  /** Steady state: one-row reads by id and an in-place update, after one reset per session. */
  reads: ThroughputRow[];
  /** Steady state: tool calls after one reset per session. */
  rows: ThroughputRow[];
  /** Whole episodes: a reset every 16 frames. */
  episodes: ThroughputRow[];
  /** A tool that does nothing: the server's own cost per step. */
  ping: ThroughputRow[];
  inProcess: InProcessCosts;
  fairness: GroupResult[];
  memory: {
    sessions: number;
    imageBytes: number;
    idleBytes: number;
    afterEpisodeBytes: number;
    /** After the episode, once the sessions hibernated (as the server does to sessions idle for 30 s). */
    hibernatedBytes: number;
    /** RSS added per session by as many new sessions (one episode each) opened once the first ones hibernated. */
    reopenedBytes: number;
    variants: {
      variant: string;
      fixture: string;
      count: number;
      imageBytes: number;
      idleRss: number;
      usedRss: number;
    }[];
  };
}

const fixtureBytes = (id: string) =>
  JSON.parse(readFileSync(new URL(`../worlds/crm/fixtures/${id}.json`, import.meta.url), 'utf8'))
    .bytes as number;
const stepsPerSec = (g: GroupResult) => (g.served.reduce((a, b) => a + b, 0) * 1000) / g.windowMs;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export interface WsBenchOptions {
  /** Shorter runs, one round, 300 sessions for memory (about 35 s). */
  quick?: boolean;
  /** Tiny runs that only prove the benchmark works (tests). */
  smoke?: boolean;
  log?: (line: string) => void;
}

export async function runWsBench(opts: WsBenchOptions = {}): Promise<WsBenchResult> {
  const log = opts.log ?? (() => undefined);
  const short = opts.quick || opts.smoke;
  const warmupMs = opts.smoke ? 20 : 300;
  const durationMs = opts.smoke ? 100 : 1000;
  const rounds = opts.smoke ? 1 : opts.quick ? 2 : 5;
  const load = loadavg()[0];
  const { episode, calls, reads } = crmScripts();
  const last = availableParallelism() - 1;
  const sessions = opts.smoke ? 20 : short ? 300 : 1000;
  const instances = (variant: string, count: number, fixture: string) =>
    spawnChild('./ws-memory.ts', ['instances', variant, String(count), fixture], ['--expose-gc']);
  // A smoke run judges no figure: its one count of in-process instances runs beside the rounds instead of after them.
  const early = opts.smoke ? instances('default', sessions, 'small_startup') : undefined;
  early?.catch(() => undefined); // a failed start is reported where it is awaited
  // Started together: each spends about a second compiling its sources, and nothing is measured until all are up.
  const [gen, server, floorProc, memServer] = await Promise.all([
    spawnChild('./ws-load.ts'),
    spawnChild('./ws-servers.ts', ['seahaven']),
    spawnChild('./ws-servers.ts', ['floor']),
    // The memory server waits, idle, for the last part.
    spawnChild('./ws-memory.ts', ['server'], ['--expose-gc']),
  ]);
  const pinned = [
    pin(gen.proc.pid!, last, true),
    pin(server.proc.pid!, 0, false),
    pin(floorProc.proc.pid!, 0, false),
  ].every(Boolean);
  const base = `ws://127.0.0.1:${server.first.port}`;
  const scripts = {
    reads: { script: reads, loopFrom: 1, path: '/ws', sizes: opts.smoke ? [8] : [1, 8, 64] },
    calls: { script: calls, loopFrom: 1, path: '/ws', sizes: opts.smoke ? [8] : [1, 8, 64] },
    episodes: {
      script: episode,
      loopFrom: 0,
      path: '/ws',
      sizes: opts.smoke ? [8] : [1, 8, 64],
    },
    ping: {
      script: [JSON.stringify({ type: 'reset', data: {} }), call('ping', {})],
      loopFrom: 1,
      path: '/ping/ws',
      sizes: [8],
    },
  };
  const byPath: Record<string, string[]> = {};
  for (const [name, s] of Object.entries(scripts))
    byPath[`/${name}`] = await record(base + s.path, s.script);
  const floorBase = `ws://127.0.0.1:${(await floorProc.ask({ cmd: 'canned', byPath })).port}`;
  log("in process: where a step's time goes");
  const inProcess = inProcessCosts(
    calls,
    episode,
    opts.smoke ? { laps: 10, episodes: 4, rounds: 1 } : {},
  );
  // calls: each session resets once (during warm-up), then loops over the calls; episodes: the reset is in the loop.
  const table = async (name: keyof typeof scripts): Promise<ThroughputRow[]> => {
    const { script, loopFrom, path, sizes } = scripts[name];
    const runGroup = async (label: string, target: string, count: number): Promise<GroupResult> =>
      (
        await gen.ask({
          cmd: 'run',
          groups: [
            { label, url: target, count, script, loopFrom, inflight: 1 } satisfies LoadGroup,
          ],
          warmupMs,
          durationMs,
        })
      ).groups[0];
    const rows: ThroughputRow[] = [];
    for (const sessions of sizes) {
      let bestFloor: GroupResult | undefined;
      let best: GroupResult | undefined;
      const pairedRatios: number[] = [];
      for (let r = 0; r < rounds; r++) {
        log(`${name}: ${sessions} session(s), round ${r + 1} of ${rounds}`);
        const f = await runGroup('floor', `${floorBase}/${name}`, sessions);
        const s = await runGroup('seahaven', base + path, sessions);
        pairedRatios.push(stepsPerSec(s) / stepsPerSec(f));
        if (!bestFloor || stepsPerSec(f) > stepsPerSec(bestFloor)) bestFloor = f;
        if (!best || stepsPerSec(s) > stepsPerSec(best)) best = s;
      }
      rows.push({ sessions, floor: bestFloor!, seahaven: best!, pairedRatios });
    }
    return rows;
  };
  const readRows = await table('reads');
  const rows = await table('calls');
  const episodes = await table('episodes');
  const ping = await table('ping');

  log('fairness: 8 sessions on the crm calls, 1 greedy session pipelining a slow search on big_co');
  const slow = [
    JSON.stringify({ type: 'reset', data: { fixture: 'big_co' } }),
    call('search_contacts', { query: 'no such name anywhere' }),
  ];
  const fairness = (
    await gen.ask({
      cmd: 'run',
      groups: [
        {
          label: 'crm calls',
          url: `${base}/ws`,
          count: 8,
          script: calls,
          loopFrom: 1,
          inflight: 1,
        },
        {
          label: 'slow search (8 in flight)',
          url: `${base}/ws`,
          count: 1,
          script: slow,
          loopFrom: 1,
          inflight: 8,
        },
      ] satisfies LoadGroup[],
      warmupMs,
      durationMs: opts.smoke ? 100 : short ? 1500 : 3000,
    })
  ).groups as GroupResult[];
  server.proc.send({ cmd: 'exit' });
  floorProc.proc.send({ cmd: 'exit' });

  log('memory: 1,000 idle sessions over WebSocket');
  const memUrl = `ws://127.0.0.1:${memServer.first.port}/ws`;
  const before = await memServer.ask({ cmd: 'measure' });
  await gen.ask({ cmd: 'open', url: memUrl, count: sessions, frames: [episode[0]] });
  const idle = await memServer.ask({ cmd: 'measure' });
  await gen.ask({ cmd: 'close' });
  await new Promise((r) => setTimeout(r, 200));
  const afterClose = await memServer.ask({ cmd: 'measure' });
  await gen.ask({ cmd: 'open', url: memUrl, count: sessions, frames: episode });
  const used = await memServer.ask({ cmd: 'measure' });
  await memServer.ask({ cmd: 'hibernate' });
  const hibernated = await memServer.ask({ cmd: 'measure' });
  // The memory hibernation frees stays with the process (the allocator keeps it); new sessions reuse it.
  await gen.ask({ cmd: 'open', url: memUrl, count: sessions, frames: episode });
  const reopened = await memServer.ask({ cmd: 'measure' });
  await gen.ask({ cmd: 'close' });
  memServer.proc.send({ cmd: 'exit' });
  gen.proc.send({ cmd: 'exit' });

  const variants = [];
  const runs: [string, number, string][] = opts.smoke
    ? [['default', sessions, 'small_startup']]
    : [
        ['default', sessions, 'small_startup'],
        ['cache_size=0', sessions, 'small_startup'],
        ['mmap', sessions, 'small_startup'],
        ['default', 100, 'big_co'],
      ];
  for (const [i, [variant, count, fixture]] of runs.entries()) {
    log(`memory: ${count} in-process instances of ${fixture}, ${variant}`);
    const c = await (i === 0 && early ? early : instances(variant, count, fixture));
    variants.push({ ...c.first, imageBytes: fixtureBytes(fixture) });
    c.proc.kill();
  }
  const imageBytes = fixtureBytes('small_startup');
  return {
    machine: machine(),
    load,
    pinned,
    rounds,
    durationMs,
    reads: readRows,
    rows,
    episodes,
    ping,
    inProcess,
    fairness,
    memory: {
      sessions,
      imageBytes,
      idleBytes: (idle.rss - before.rss) / sessions,
      afterEpisodeBytes: (used.rss - afterClose.rss) / sessions,
      hibernatedBytes: (hibernated.rss - afterClose.rss) / sessions,
      reopenedBytes: (reopened.rss - hibernated.rss) / sessions,
      variants,
    },
  };
}

const kb = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
// A group that got no reply in its window has no latency: NaN, which arrives from the load process as null.
const ms = (us: number | null) =>
  us === null || !Number.isFinite(us)
    ? 'n/a'
    : us >= 1000
      ? `${(us / 1000).toFixed(2)} ms`
      : `${us.toFixed(0)} µs`;
const n = (x: number) => Math.round(x).toLocaleString('en-US');

export function formatWs(r: WsBenchResult): string {
  const out: string[] = [];
  out.push(
    `Machine: ${r.machine}; 1-minute load average ${r.load.toFixed(1)} when the run started. The machine is a 2-vCPU VM whose speed drifts by up to 2× from one second to the next, so absolute figures are noisy; the ratios compare rounds run back to back.`,
  );
  out.push('');
  out.push(
    `Load: closed-loop sessions (one frame in flight each) on crm \`small_startup\`, from a load generator in its own process. Floor: a bare \`ws\` server, also in its own process, answering the same frames with the replies Seahaven gave to them, without parsing or doing any work. The Seahaven server (\`startServer\`, default options but no idle timeout) runs in a third process. ${r.pinned ? "The generator is pinned to one CPU and each server's event-loop thread to the other (`taskset`), so the client never competes with the server it measures." : 'Nothing is pinned (`taskset` was not available).'} Each table row runs ${r.rounds} round${r.rounds === 1 ? '' : 's'} of ${r.durationMs / 1000} s per server, the floor then Seahaven back to back; the figures are each server's best round, the ratio column is Seahaven's best over the floor's best, and "paired" is the median over rounds of Seahaven's calls/s over the floor's in the same round.`,
  );
  out.push('');
  const rowsOf = (rows: ThroughputRow[], unit: string) => {
    out.push(
      `| sessions | floor ${unit}/s | seahaven ${unit}/s | ratio | paired | seahaven p50 | seahaven p99 | floor p50 | floor p99 |`,
    );
    out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) {
      const f = stepsPerSec(row.floor);
      const s = stepsPerSec(row.seahaven);
      out.push(
        `| ${row.sessions} | ${n(f)} | ${n(s)} | ${(s / f).toFixed(2)} | ${median(row.pairedRatios).toFixed(2)} | ${ms(row.seahaven.p50Us)} | ${ms(row.seahaven.p99Us)} | ${ms(row.floor.p50Us)} | ${ms(row.floor.p99Us)} |`,
      );
    }
  };
  out.push(
    "One-row reads (each session resets once, during warm-up, then loops over `get_deal`, `get_company` and an in-place `update_deal`: the calls most of an agent's turns make):",
  );
  out.push('');
  rowsOf(r.reads, 'calls');
  const eight = r.reads.find((x) => x.sessions === 8)!;
  const ratio = median(eight.pairedRatios);
  const errors = [...r.reads, ...r.rows, ...r.episodes].reduce((a, x) => a + x.seahaven.errors, 0);
  out.push('');
  out.push(
    `Targets at 8 sessions: ${(ratio * 100).toFixed(0)}% of the floor's calls/s, the paired median (target ≥ 50%: ${ratio >= 0.5 ? 'met' : 'not met'}; best round over best round: ${((stepsPerSec(eight.seahaven) / stepsPerSec(eight.floor)) * 100).toFixed(0)}%), p99 ${ms(eight.seahaven.p99Us)} (target ≤ 2 ms: ${eight.seahaven.p99Us <= 2000 ? 'met' : 'not met'}). Error replies: ${errors}.`,
  );
  out.push('');
  out.push(
    "The crm episode's calls (each session resets once, during warm-up, then loops over the 12 calls of the episode that add no rows: searches, lists with joins, summaries, 2 in-place updates). These tools read tens of rows each, so SQLite's work dominates:",
  );
  out.push('');
  rowsOf(r.rows, 'calls');
  out.push('');
  const p = r.ping[0];
  out.push(
    `The server's own cost per step, with a \`ping\` tool that does nothing, at ${p.sessions} sessions: ${n(stepsPerSec(p.seahaven))} steps/s against the floor's ${n(stepsPerSec(p.floor))} (paired median ${(median(p.pairedRatios) * 100).toFixed(0)}%), p50 ${ms(p.seahaven.p50Us)}, p99 ${ms(p.seahaven.p99Us)} (floor ${ms(p.floor.p50Us)} / ${ms(p.floor.p99Us)}).`,
  );
  out.push('');
  const c = r.inProcess;
  const us = (x: number) => `${x.toFixed(0)} µs`;
  out.push(
    `Where a step's time goes, in process without sockets (best of 3): a crm call of the loop costs ${us(c.callUs)} in the kit (\`inst.call\`); answering it as a frame, down to the UTF-8 bytes a socket sends, costs ${us(c.frameUs)}, so the server's parsing, dispatch, reply JSON and its encoding add ${c.frameUs - c.callUs >= 1 ? us(c.frameUs - c.callUs) : "less than 1 µs (within this measurement's noise)"}. A whole episode costs ${us(c.episodeUs)} (${us(c.episodeUs / 16)} a frame), ${us(c.resetUs)} of it for the reset: a reset to the fixture the session is on rolls the session's connection back and starts the new instance on it, so prepared statements and the page cache stay warm.`,
  );
  out.push('');
  out.push(
    "Whole episodes (the reset is part of the loop: every 16th frame rolls the session's connection back to the fixture and starts a new instance on it):",
  );
  out.push('');
  rowsOf(r.episodes, 'steps');
  out.push('');
  const [fast, greedy] = r.fairness;
  const all = [...fast.served, ...greedy.served];
  const least = Math.min(...all);
  const med = median(all);
  out.push(
    `Fairness: 8 sessions looping over the crm calls (one frame in flight) beside 1 greedy session keeping 8 \`search_contacts\` frames in flight on \`big_co\` (a full scan, a few ms each).`,
  );
  out.push('');
  out.push('| sessions | served per session (min / median / max) | p50 | p99 |');
  out.push('|---|---:|---:|---:|');
  out.push(
    `| crm calls × 8 | ${Math.min(...fast.served)} / ${median(fast.served)} / ${Math.max(...fast.served)} | ${ms(fast.p50Us)} | ${ms(fast.p99Us)} |`,
  );
  out.push(`| greedy slow × 1 | ${greedy.served[0]} | ${ms(greedy.p50Us)} | ${ms(greedy.p99Us)} |`);
  out.push('');
  out.push(
    `Least-served session: ${least} against a median of ${med} (${((least / med) * 100).toFixed(0)}%; target ≥ 50%: ${least >= med / 2 ? 'met' : 'not met'}).`,
  );
  out.push('');
  const m = r.memory;
  out.push(
    `Memory: ${n(m.sessions)} WebSocket sessions on \`small_startup\` (image ${kb(m.imageBytes)}), server RSS after a full GC, measured in its own process.`,
  );
  out.push('');
  out.push('| what | RSS per session | × image |');
  out.push('|---|---:|---:|');
  out.push(
    `| idle session (after reset) | ${kb(m.idleBytes)} | ${(m.idleBytes / m.imageBytes).toFixed(2)} |`,
  );
  out.push(
    `| session after one episode (15 calls) | ${kb(m.afterEpisodeBytes)} | ${(m.afterEpisodeBytes / m.imageBytes).toFixed(2)} |`,
  );
  out.push(
    `| the same sessions once hibernated (idle 30 s) | ${kb(m.hibernatedBytes)} | ${(m.hibernatedBytes / m.imageBytes).toFixed(2)} |`,
  );
  out.push(
    `| ${n(m.sessions)} more sessions, one episode each, opened after that (RSS they add) | ${kb(m.reopenedBytes)} | ${(m.reopenedBytes / m.imageBytes).toFixed(2)} |`,
  );
  for (const v of m.variants) {
    const what = `${n(v.count)} in-process instances of \`${v.fixture}\` (${kb(v.imageBytes)})${v.variant === 'default' ? '' : `, ${v.variant} set after open`}`;
    out.push(`| ${what}, idle | ${kb(v.idleRss)} | ${(v.idleRss / v.imageBytes).toFixed(2)} |`);
    out.push(
      `| ${what}, after 5 reads | ${kb(v.usedRss)} | ${(v.usedRss / v.imageBytes).toFixed(2)} |`,
    );
  }
  out.push('');
  out.push(
    "An idle session holds its copy of the image plus a fixed cost per SQLite connection (the connection, its parsed schema with the capture triggers, the kit's SQL functions and objects), which is most of a 100 KiB image but small beside a 4 MiB one. Reads then fill SQLite's page cache with a second copy of the pages they touch, which `PRAGMA cache_size` bounds. Hibernation closes the connections, yet RSS stays where it was: the allocator keeps freed memory for the process, and the sessions opened next reuse it, which is why they add less than the first ones did.",
  );
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quick = process.argv.includes('--quick');
  const result = await runWsBench({ quick, log: (l) => process.stderr.write(`${l}\n`) });
  const section = formatWs(result);
  process.stdout.write(`## WebSocket serving\n\n${section}\n`);
  if (process.argv.includes('--write')) writeSection('## WebSocket serving', section);
}
