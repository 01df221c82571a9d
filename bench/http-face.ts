/**
 * The HTTP face: requests per second of Stripe World's `/v1` API through `seahaven serve` on keep-alive connections,
 * against a floor (a bare Hono app on @hono/node-server answering the same routes with the bytes Seahaven gave, held
 * in memory) under the same load generator. `GET /v1/customers/:id` is a one-row read; `POST /v1/customers` writes a
 * customer and an idempotency key. The Seahaven server, the floor and the load generator each run in a process of
 * their own; where `taskset` exists, the generator is pinned to the last CPU and each server's event-loop thread to
 * the first, so the client never competes with the server it measures.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/http-face.ts [--quick] [--write]` (or `seahaven bench http-face`). `--write`
 * replaces the "HTTP face (Stripe World)" section of bench/results.md.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { stripe } from '@seahaven/stripe';
import { machine, spawnChild, writeSection, type Child } from './harness.ts';
import type { Canned } from './http-face-servers.ts';
import type { LoadResult, LoadSpec } from './http-face-load.ts';

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

export const API_KEY = 'sk_test_bench';
export const POST_BODY = 'name=Ada+Lovelace&email=ada%40example.com&metadata[plan]=pro';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const FORM = { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' };

/** Headers the HTTP layer writes for every reply (framing, the clock); the floor's server writes its own. */
const TRANSPORT_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/** One request to `base`, its reply as the floor will replay it. */
function fetchOnce(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Canned> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        method,
        path: url.pathname,
        headers:
          body === undefined
            ? headers
            : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const kept: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (!TRANSPORT_HEADERS.has(k) && v !== undefined)
              kept[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({
            status: res.statusCode ?? 0,
            headers: kept,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface KindRow {
  connections: number;
  /** The floor's and Seahaven's best rounds. */
  floor: LoadResult;
  seahaven: LoadResult;
  /** Seahaven's requests/s over the floor's, per round (each round runs the floor, then Seahaven, back to back). */
  pairedRatios: number[];
  /** Each server's CPU time (user and system, all threads) per request, the least over the rounds (µs). */
  floorCpuUs: number;
  seahavenCpuUs: number;
}

export interface InProcessCosts {
  /** `inst.request` of the GET, without a server (µs). */
  getUs: number;
  /** `inst.request` of the POST with a fresh idempotency key each time (µs). */
  postUs: number;
}

export interface HttpFaceResult {
  machine: string;
  load: number;
  pinned: boolean;
  rounds: number;
  durationMs: number;
  get: KindRow[];
  post: KindRow[];
  /** The replies the floor replays, as Seahaven gave them. */
  canned: { get: Canned; post: Canned };
  inProcess: InProcessCosts;
}

export interface HttpFaceOptions {
  /** 2 rounds of 0.3 s instead of 5 of 1 s. */
  quick?: boolean;
  /** Tiny runs that only prove the benchmark works (tests). */
  smoke?: boolean;
  log?: (line: string) => void;
}

const reqPerSec = (r: LoadResult) => (r.served * 1000) / r.windowMs;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** What `inst.request` costs for the two requests in process, with no sockets or HTTP: the kit's share. Best of 3. */
export function inProcessCosts(laps: number): InProcessCosts {
  const inst = stripe.instance();
  const headers = {
    authorization: `Bearer ${API_KEY}`,
    'content-type': 'application/x-www-form-urlencoded',
  };
  const created = inst.request({
    method: 'POST',
    path: '/customers',
    query: '',
    headers,
    body: POST_BODY,
  });
  // Stripe World's replies come as the text api.stripe.com sends.
  const id = (JSON.parse(created.body as string) as { id: string }).id;
  const get = { method: 'GET', path: `/customers/${id}`, query: '', headers, body: '' };
  const found = inst.request(get).status;
  if (found !== 200) throw new Error(`http-face bench: the in-process GET answered ${found}`);
  const time = (fn: (i: number) => void) => {
    const t = performance.now();
    for (let i = 0; i < laps; i++) fn(i);
    return ((performance.now() - t) * 1000) / laps;
  };
  const best = { getUs: Infinity, postUs: Infinity };
  for (let round = 0; round < 3; round++) {
    best.getUs = Math.min(
      best.getUs,
      time(() => inst.request(get)),
    );
    best.postUs = Math.min(
      best.postUs,
      time((i) =>
        inst.request({
          method: 'POST',
          path: '/customers',
          query: '',
          headers: { ...headers, 'idempotency-key': `inproc-${round}-${i}` },
          body: POST_BODY,
        }),
      ),
    );
  }
  inst.destroy();
  return best;
}

export async function runHttpFaceBench(opts: HttpFaceOptions = {}): Promise<HttpFaceResult> {
  const log = opts.log ?? (() => undefined);
  const warmupMs = opts.smoke ? 20 : 200;
  const durationMs = opts.smoke ? 100 : opts.quick ? 300 : 1000;
  const rounds = opts.smoke ? 1 : opts.quick ? 2 : 5;
  const sizes = opts.smoke ? [8] : [1, 8];
  const load = loadavg()[0];
  const last = availableParallelism() - 1;
  const [gen, server, floorProc] = await Promise.all([
    spawnChild('./http-face-load.ts'),
    spawnChild('./http-face-servers.ts', ['seahaven']),
    spawnChild('./http-face-servers.ts', ['floor']),
  ]);
  try {
    const pinned = [
      pin(gen.proc.pid!, last, true),
      pin(server.proc.pid!, 0, false),
      pin(floorProc.proc.pid!, 0, false),
    ].every(Boolean);
    const base = `http://127.0.0.1:${server.first.port}`;
    // The customer every GET reads, created by the key's first request (which opens its session), then one of each
    // request as the floor will answer it.
    const created = await fetchOnce(
      base,
      'POST',
      '/v1/customers',
      { ...FORM, 'idempotency-key': 'bench-setup' },
      POST_BODY,
    );
    if (created.status !== 200)
      throw new Error(
        `http-face bench: creating the customer answered ${created.status}: ${created.body}`,
      );
    const customerPath = `/v1/customers/${(JSON.parse(created.body) as { id: string }).id}`;
    const canned = {
      get: await fetchOnce(base, 'GET', customerPath, AUTH),
      post: await fetchOnce(
        base,
        'POST',
        '/v1/customers',
        { ...FORM, 'idempotency-key': 'bench-capture' },
        POST_BODY,
      ),
    };
    for (const [kind, c] of Object.entries(canned))
      if (c.status !== 200)
        throw new Error(`http-face bench: the ${kind} request answered ${c.status}: ${c.body}`);
    const floorBase = `http://127.0.0.1:${(await floorProc.ask({ cmd: 'canned', ...canned })).port}`;
    const check = await fetchOnce(floorBase, 'GET', customerPath, AUTH);
    // Header order is not part of HTTP's meaning (and Node writes a reply's headers in its own order).
    const sameHeaders = (a: Record<string, string>, b: Record<string, string>) =>
      JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
    if (check.body !== canned.get.body || !sameHeaders(check.headers, canned.get.headers)) {
      throw new Error(
        `http-face bench: the floor does not answer what Seahaven did:\n${JSON.stringify(check)}\n${JSON.stringify(canned.get)}`,
      );
    }
    log('in process: what inst.request costs');
    const inProcess = inProcessCosts(opts.smoke ? 50 : 2000);

    const specs: Record<'get' | 'post', Omit<LoadSpec, 'base' | 'connections'>> = {
      get: { method: 'GET', path: customerPath, headers: AUTH },
      post: {
        method: 'POST',
        path: '/v1/customers',
        headers: FORM,
        body: POST_BODY,
        idempotencyKeys: true,
      },
    };
    // A run, and the CPU time the server it loads spent per request over the whole run.
    const runLoad = async (
      spec: LoadSpec,
      target: Child,
    ): Promise<{ result: LoadResult; cpuUs: number }> => {
      const before = (await target.ask({ cmd: 'cpu' })).us as number;
      const reply = await gen.ask({ cmd: 'run', spec, warmupMs, durationMs });
      const after = (await target.ask({ cmd: 'cpu' })).us as number;
      if (reply.error)
        throw new Error(`http-face bench: the load generator failed: ${reply.error}`);
      return { result: reply.result, cpuUs: (after - before) / reply.result.total };
    };
    const table = async (kind: 'get' | 'post'): Promise<KindRow[]> => {
      const rows: KindRow[] = [];
      for (const connections of sizes) {
        let bestFloor: LoadResult | undefined;
        let best: LoadResult | undefined;
        const pairedRatios: number[] = [];
        let floorCpuUs = Infinity;
        let seahavenCpuUs = Infinity;
        for (let r = 0; r < rounds; r++) {
          log(`${kind}: ${connections} connection(s), round ${r + 1} of ${rounds}`);
          const f = await runLoad({ ...specs[kind], base: floorBase, connections }, floorProc);
          const s = await runLoad({ ...specs[kind], base, connections }, server);
          pairedRatios.push(reqPerSec(s.result) / reqPerSec(f.result));
          floorCpuUs = Math.min(floorCpuUs, f.cpuUs);
          seahavenCpuUs = Math.min(seahavenCpuUs, s.cpuUs);
          if (!bestFloor || reqPerSec(f.result) > reqPerSec(bestFloor)) bestFloor = f.result;
          if (!best || reqPerSec(s.result) > reqPerSec(best)) best = s.result;
        }
        rows.push({
          connections,
          floor: bestFloor!,
          seahaven: best!,
          pairedRatios,
          floorCpuUs,
          seahavenCpuUs,
        });
      }
      return rows;
    };
    // Both servers answer both requests for a while before anything is measured, so the rounds compare code the JIT
    // has already optimised (the first second of a fresh process runs several times slower).
    log('warm-up');
    for (const kind of ['get', 'post'] as const) {
      for (const target of [floorBase, base]) {
        await gen.ask({
          cmd: 'run',
          spec: { ...specs[kind], base: target, connections: 8 },
          warmupMs: 0,
          durationMs: opts.smoke ? 100 : opts.quick ? 500 : 1500,
        });
      }
    }
    const get = await table('get');
    const post = await table('post');
    return { machine: machine(), load, pinned, rounds, durationMs, get, post, canned, inProcess };
  } finally {
    for (const c of [gen, server, floorProc]) c.proc.kill();
  }
}

const ms = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`);
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/** Whether a kind met its target at every connection count: the paired median, and the best round over the best round. */
export function targetMet(rows: KindRow[], target: number): { paired: boolean; best: boolean } {
  return {
    paired: rows.every((r) => median(r.pairedRatios) >= target),
    best: rows.every((r) => reqPerSec(r.seahaven) / reqPerSec(r.floor) >= target),
  };
}

export function formatHttpFace(r: HttpFaceResult): string {
  const out: string[] = [];
  out.push(
    `Machine: ${r.machine}; 1-minute load average ${r.load.toFixed(1)} when the run started. The machine is a 2-vCPU VM whose speed drifts by up to 2× from one second to the next, so absolute figures are noisy; the ratios compare rounds run back to back.`,
  );
  out.push('');
  out.push(
    `Load: closed-loop keep-alive connections (a \`node:http\` Agent with \`keepAlive\` and \`maxSockets\` equal to the connection count, one request in flight on each) from a load generator in its own process, all with \`Authorization: Bearer ${API_KEY}\`, so every request acts on the one account session that key opened. The Seahaven server (\`startServer({ worlds: [stripe] })\`, default options but no idle timeout) runs in a second process. Floor: a bare Hono app on @hono/node-server in a third, whose two routes answer with the status, headers and body Seahaven gave to the same request, captured before the rounds and held in memory; it reads neither the request's headers nor its body. ${r.pinned ? "The generator is pinned to one CPU and each server's event-loop thread to the other (`taskset`), so the client never competes with the server it measures." : 'Nothing is pinned (`taskset` was not available).'} Each table row runs ${r.rounds} round${r.rounds === 1 ? '' : 's'} of ${r.durationMs / 1000} s per server, the floor then Seahaven back to back; the figures are each server's best round, the ratio column is Seahaven's best over the floor's best, and "paired" is the median over rounds of Seahaven's requests/s over the floor's in the same round. A reply outside 2xx counts as an error.`,
  );
  out.push('');
  const rowsOf = (rows: KindRow[]) => {
    out.push(
      '| connections | floor req/s | seahaven req/s | ratio | paired | seahaven p50 | seahaven p99 | floor p50 | floor p99 |',
    );
    out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) {
      const f = reqPerSec(row.floor);
      const s = reqPerSec(row.seahaven);
      out.push(
        `| ${row.connections} | ${n(f)} | ${n(s)} | ${(s / f).toFixed(2)} | ${median(row.pairedRatios).toFixed(2)} | ${ms(row.seahaven.p50Us)} | ${ms(row.seahaven.p99Us)} | ${ms(row.floor.p50Us)} | ${ms(row.floor.p99Us)} |`,
      );
    }
  };
  const verdict = (rows: KindRow[], target: number) => {
    const met = targetMet(rows, target);
    const each = rows
      .map(
        (row) =>
          `${row.connections} connection${row.connections === 1 ? '' : 's'}: ${pct(median(row.pairedRatios))} paired, ${pct(reqPerSec(row.seahaven) / reqPerSec(row.floor))} best over best`,
      )
      .join('; ');
    return `Target ≥ ${pct(target)} of the floor's requests/s: ${met.paired ? 'met' : 'not met'} by the paired median, ${met.best ? 'met' : 'not met'} best round over best round (${each}).`;
  };
  // CPU per request is what the server itself spends; with other work on the machine it moves less than requests/s.
  const cpu = (rows: KindRow[], inProcessUs: number) =>
    `Server CPU time per request (user and system, least over the rounds): ${rows.map((row) => `at ${row.connections} connection${row.connections === 1 ? '' : 's'} the floor ${ms(row.floorCpuUs)}, Seahaven ${ms(row.seahavenCpuUs)} (${pct(row.floorCpuUs / row.seahavenCpuUs)})`).join('; ')}. Of Seahaven's, \`inst.request\` in process, without sockets or HTTP, takes ${ms(inProcessUs)} (best of 3).`;
  const errors = [...r.get, ...r.post].reduce((a, x) => a + x.seahaven.errors + x.floor.errors, 0);
  out.push(
    `\`GET /v1/customers/:id\` (a customer created before the rounds; the reply is ${n(Buffer.byteLength(r.canned.get.body))} bytes of JSON):`,
  );
  out.push('');
  rowsOf(r.get);
  out.push('');
  out.push(verdict(r.get, 0.6));
  out.push('');
  out.push(cpu(r.get, r.inProcess.getUs));
  out.push('');
  out.push(
    `\`POST /v1/customers\` with \`${POST_BODY}\` as a form body and a fresh \`Idempotency-Key\` on every request, as stripe-node sends, so each one writes a customer, its event and an idempotency key row:`,
  );
  out.push('');
  rowsOf(r.post);
  out.push('');
  out.push(verdict(r.post, 0.4));
  out.push('');
  out.push(cpu(r.post, r.inProcess.postUs));
  out.push('');
  out.push(
    "Where a POST's server time goes (CPU profiles of the server under this load, and of `inst.request` in process): about 60% is `inst.request`. Of that, SQLite is about 45 µs: writing the customer (about half of it: nine B-trees, and a capture trigger, with which SQLite journals the pages the statement touches once more inside the call's savepoint), its `customer.created` event and the idempotency key, the call's savepoint, and the reads of the idempotency key and the webhook tables. Recording the call (noting the three rows it wrote, whose values are read only when the history is asked for, and the call log) is about 10 µs, and Stripe World's own code about 25 µs, part of which serializes the same customer three times: once for its row and its event's snapshot, which share the text, once for the idempotency key's stored reply, whose text the call log keeps as the call's result (`Operation.json`), and once for the indented reply. The garbage collector takes under 5 µs. The rest is the HTTP path, which takes face requests off Node's request before Hono (packages/seahaven/transports/serve/face-fast.ts): Node's parser, the Host check, the body, the session's turn and the reply's `writev`. Calls run as savepoints in a batch transaction committed every 5,000 rows, where a COMMIT per call cost about a fifth of a POST, and the change history lives outside the JavaScript heap, where it cost about a tenth in garbage collection (docs/performance.md).",
  );
  out.push('');
  out.push(
    "What the HTTP path no longer pays (the figures before: POST 0.33 paired at 1 connection and 0.34 at 8, GET 0.54 and 0.73): a face request's body is taken from Node's buffer at once when all of it came with its headers, as it does on a kept-alive connection, instead of through the stream's listeners, ticks and deadline timer; an Authorization header is read once per text, not with several regular expressions on every request; a route is looked up by its method, first segment and number of segments (a path without placeholders by its text), where a GET of a customer tried a dozen patterns of other shapes first; a reply's headers go to `writeHead` as one flat list, not a sorted object copied again; Stripe's parameter check passes over the fields a request leaves out without building their paths. The replies of one session's turn still go out together when the turn ends: written one by one as each call answered, every write woke the load generator on the other CPU, and a POST at 8 connections cost a tenth to a fifth more server time (paired runs). The in-process GET figure before this run timed a 404 (the benchmark read the new customer's id off the reply's text as if it were an object); it now times the GET of that customer.",
  );
  out.push('');
  out.push(`Error replies: ${errors}.`);
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quick = process.argv.includes('--quick');
  const result = await runHttpFaceBench({ quick, log: (l) => process.stderr.write(`${l}\n`) });
  const section = formatHttpFace(result);
  process.stdout.write(`## HTTP face (Stripe World)\n\n${section}\n`);
  if (process.argv.includes('--write')) writeSection('## HTTP face (Stripe World)', section);
}
