/**
 * The HTTP load generator, run as a child process so it never shares an event loop with the server it measures.
 * Closed loops over keep-alive connections: a `node:http` Agent with `keepAlive` and `maxSockets` equal to the
 * connection count, and as many loops, each with one request in flight, sending the next as each reply ends. Replies
 * are drained, not parsed, to keep the generator cheap; a status outside 2xx counts as an error.
 *
 * Messages (IPC): `{cmd: 'run', spec, warmupMs, durationMs}` → `{result: LoadResult}`.
 */
import { Agent, request } from 'node:http';

export interface LoadSpec {
  /** `http://host:port` */
  base: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** The body of every request (POST). */
  body?: string;
  /** Send a fresh `Idempotency-Key` with each request, as the official SDKs do on POST. */
  idempotencyKeys?: boolean;
  connections: number;
}

export interface LoadResult {
  /** Replies received in the measured window. */
  served: number;
  /** Of those, replies with a status outside 2xx. */
  errors: number;
  /** Replies received in the whole run, warm-up and the last requests in flight included. */
  total: number;
  p50Us: number;
  p99Us: number;
  windowMs: number;
}

const LATENCY_CAP = 1 << 21;

function percentile(values: Float64Array, n: number, p: number): number {
  if (n === 0) return NaN;
  const sorted = values.subarray(0, n).sort();
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
}

let runs = 0;

async function run(spec: LoadSpec, warmupMs: number, durationMs: number): Promise<LoadResult> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: spec.connections,
    maxFreeSockets: spec.connections,
  });
  const url = new URL(spec.path, spec.base);
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
  const base = { ...spec.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  // Unique across runs of this process, so a key is never replayed against the server's idempotency store.
  const keyPrefix = `bench-${process.pid}-${++runs}-`;
  let seq = 0;
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const end = measureFrom + durationMs;
  const latencies = new Float64Array(LATENCY_CAP);
  let n = 0;
  let served = 0;
  let errors = 0;
  let total = 0;
  const loop = () =>
    new Promise<void>((resolve, reject) => {
      const next = () => {
        const t0 = performance.now();
        const headers = spec.idempotencyKeys
          ? { ...base, 'idempotency-key': keyPrefix + seq++ }
          : base;
        const req = request(
          {
            agent,
            hostname: url.hostname,
            port: url.port,
            method: spec.method,
            path: url.pathname,
            headers,
          },
          (res) => {
            res.on('data', () => undefined);
            res.on('end', () => {
              const now = performance.now();
              total++;
              if (now >= measureFrom && now < end) {
                served++;
                if (n < LATENCY_CAP) latencies[n++] = now - t0;
                if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300)
                  errors++;
              }
              if (now < end) next();
              else resolve();
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      };
      next();
    });
  await Promise.all(Array.from({ length: spec.connections }, loop));
  agent.destroy();
  return {
    served,
    errors,
    total,
    p50Us: percentile(latencies, n, 50) * 1000,
    p99Us: percentile(latencies, n, 99) * 1000,
    windowMs: durationMs,
  };
}

process.on(
  'message',
  async (m: { cmd: string; spec: LoadSpec; warmupMs: number; durationMs: number }) => {
    if (m.cmd === 'run') {
      try {
        process.send!({ result: await run(m.spec, m.warmupMs, m.durationMs) });
      } catch (e) {
        process.send!({ error: (e as Error).message });
      }
    } else if (m.cmd === 'exit') process.exit(0);
  },
);
process.send!({ ready: true });
