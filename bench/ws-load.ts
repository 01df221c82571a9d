/**
 * The WebSocket load generator, run as a child process so it never shares an event loop with the server it measures.
 * Sessions are closed loops: each keeps `inflight` frames outstanding and sends the next frame of its script as each
 * reply arrives. Replies are checked by prefix, not parsed, to keep the generator cheap.
 *
 * Messages (IPC): `{cmd: 'run', groups, warmupMs, durationMs}` → `{groups: GroupResult[]}`;
 * `{cmd: 'open', url, count, frames}` → `{opened}` once every session has its replies; `{cmd: 'close'}` → `{closed}`.
 */
import WebSocket from 'ws';

export interface LoadGroup {
  label: string;
  url: string;
  count: number;
  /** Frames sent in order; after the last, the session goes on from `loopFrom`. `@@` becomes a per-session, per-lap token. */
  script: string[];
  /** Where each lap after the first starts (0: the whole script repeats). */
  loopFrom?: number;
  inflight: number;
}

export interface GroupResult {
  label: string;
  /** Replies received in the measured window, per session. */
  served: number[];
  /** Replies that were not observations or states. */
  errors: number;
  p50Us: number;
  p99Us: number;
  windowMs: number;
}

const LATENCY_CAP = 1 << 21;

function connect(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function percentile(values: Float64Array, n: number, p: number): number {
  if (n === 0) return NaN;
  const sorted = values.subarray(0, n).sort();
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
}

async function run(
  groups: LoadGroup[],
  warmupMs: number,
  durationMs: number,
): Promise<GroupResult[]> {
  const sockets: WebSocket[][] = [];
  for (const g of groups)
    sockets.push(await Promise.all(Array.from({ length: g.count }, () => connect(g.url))));
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const end = measureFrom + durationMs;
  let outstanding = 0;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const results = groups.map((g, gi) => {
    const latencies = new Float64Array(LATENCY_CAP);
    const result = {
      label: g.label,
      served: new Array<number>(g.count).fill(0),
      errors: 0,
      n: 0,
      latencies,
    };
    sockets[gi].forEach((ws, si) => {
      const sent: number[] = [];
      let i = 0;
      let lap = 0;
      const next = () => {
        if (i === g.script.length) {
          i = g.loopFrom ?? 0;
          lap++;
        }
        const frame = g.script[i++];
        sent.push(performance.now());
        outstanding++;
        ws.send(frame.includes('@@') ? frame.replace('@@', `${gi}-${si}-${lap}`) : frame);
      };
      ws.on('message', (data: Buffer) => {
        const now = performance.now();
        const t0 = sent.shift()!;
        outstanding--;
        if (now >= measureFrom && now < end) {
          result.served[si]++;
          if (result.n < LATENCY_CAP) latencies[result.n++] = now - t0;
          // {"type":"observation" or {"type":"state": byte 9 is 'o' or 's'.
          if (data[0] !== 0x7b || (data[9] !== 0x6f && data[9] !== 0x73)) result.errors++;
        }
        if (now < end) next();
        else if (outstanding === 0) finish();
      });
      for (let k = 0; k < g.inflight; k++) next();
    });
    return result;
  });
  await done;
  for (const group of sockets) for (const ws of group) ws.terminate();
  return results.map((r) => ({
    label: r.label,
    served: r.served,
    errors: r.errors,
    p50Us: percentile(r.latencies, r.n, 50) * 1000,
    p99Us: percentile(r.latencies, r.n, 99) * 1000,
    windowMs: durationMs,
  }));
}

let held: WebSocket[] = [];

async function open(url: string, count: number, frames: string[]): Promise<number> {
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, () => connect(url)),
    );
    await Promise.all(
      batch.map(
        (ws) =>
          new Promise<void>((resolve) => {
            let left = frames.length;
            ws.on('message', () => {
              if (--left === 0) resolve();
            });
            for (const f of frames) ws.send(f.replace('@@', String(i)));
          }),
      ),
    );
    held.push(...batch);
  }
  return held.length;
}

process.on('message', async (m: { cmd: string; [k: string]: any }) => {
  if (m.cmd === 'run') process.send!({ groups: await run(m.groups, m.warmupMs, m.durationMs) });
  else if (m.cmd === 'open') process.send!({ opened: await open(m.url, m.count, m.frames) });
  else if (m.cmd === 'close') {
    await Promise.all(held.map((ws) => new Promise((r) => (ws.once('close', r), ws.close()))));
    held = [];
    process.send!({ closed: true });
  } else if (m.cmd === 'exit') process.exit(0);
});
process.send!({ ready: true });
