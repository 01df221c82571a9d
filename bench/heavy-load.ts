/**
 * The heavy session of the heavy-calls benchmark (bench/heavy.ts), and the server it loads, each a process of its own.
 *
 * `server`: `startServer` with crm (at `/ws`, what the light sessions call) and Stripe World (`/stripe/ws`, its HTTP face
 * at `/stripe/v1`); answers `{port}`.
 * `driver`: one Stripe World session. `{cmd: 'open', port, fixture}` resets it (WebSocket) and keeps its face key;
 * `{cmd: 'start', advanceDays}` starts its loop, answering `{started}` at once: a search page over the fixture's charges
 * that matches nothing (every charge tested, `total_count` included), the largest form body the server accepts (10,000
 * parameters, just under 1 MiB), then `advance_clock` of `advanceDays`, and again, until `{cmd: 'stop'}`, which answers
 * at once with every operation's duration (`{ops}`), the one in flight with its time so far. `{cmd: 'stop', whole: true}`
 * first lets the loop finish its first round, however long the machine takes, so every kind of operation has an answer
 * (the smoke run's).
 */
import { request } from 'node:http';
import WebSocket from 'ws';
import { startServer } from 'seahaven/serve';
import { crm } from '@seahaven/crm';
import { stripe } from '@seahaven/stripe';
import { largestFormBody, type HeavyOp } from './heavy.ts';

function http(
  port: number,
  method: string,
  path: string,
  key: string,
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined)
      Object.assign(headers, {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
      });
    const req = request({ hostname: '127.0.0.1', port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let socket: WebSocket | null = null;
let key = '';
let port = 0;
const answers: ((text: string) => void)[] = [];

function frame(data: unknown): Promise<string> {
  return new Promise((resolve) => {
    answers.push(resolve);
    socket!.send(JSON.stringify(data));
  });
}

async function open(at: number, fixture: string): Promise<void> {
  port = at;
  socket = new WebSocket(`ws://127.0.0.1:${port}/stripe/ws`, { perMessageDeflate: false });
  await new Promise(
    (resolve, reject) => (socket!.once('open', resolve), socket!.once('error', reject)),
  );
  socket.on('message', (data: Buffer) => answers.shift()?.(data.toString('utf8')));
  const reset = JSON.parse(await frame({ type: 'reset', data: { fixture } }));
  key = reset.data.metadata?.api_key;
  if (typeof key !== 'string')
    throw new Error(
      `the reset of ${fixture} gave no api_key: ${JSON.stringify(reset).slice(0, 300)}`,
    );
  // The instance opens its database on first use (for big_co, a copy of 760 MB): before the quiet window, not in it.
  const status = await http(port, 'GET', '/stripe/v1/charges?limit=1', key);
  if (status !== 200) throw new Error(`the first request of the heavy session answered ${status}`);
}

let running = false;
const ops: HeavyOp[] = [];
/** Settles when the loop has run each operation once. */
let firstRound: Promise<void> = Promise.resolve();
let firstRoundDone = () => {};
/** The operation in flight: its kind and when it started. */
let inFlight: { kind: HeavyOp['kind']; started: number } | null = null;

async function timed(kind: HeavyOp['kind'], fn: () => Promise<string>): Promise<HeavyOp> {
  const t = performance.now();
  inFlight = { kind, started: t };
  const status = await fn();
  inFlight = null;
  return { kind, ms: performance.now() - t, status };
}

async function heavyLoop(advanceDays: number): Promise<void> {
  const body = largestFormBody();
  const query = new URLSearchParams({
    query: "metadata['bench']:'none' OR amount<0",
    limit: '100',
    'expand[]': 'total_count',
  }).toString();
  while (running) {
    ops.push(
      await timed('search', async () =>
        String(await http(port, 'GET', `/stripe/v1/charges/search?${query}`, key)),
      ),
    );
    if (!running) break;
    ops.push(
      await timed('form body', async () =>
        String(await http(port, 'POST', '/stripe/v1/customers', key, body)),
      ),
    );
    if (!running) break;
    ops.push(
      await timed('advance_clock', async () => {
        const reply = JSON.parse(
          await frame({
            type: 'step',
            data: { type: 'advance_clock', ms: advanceDays * 86_400_000 },
          }),
        );
        if (reply.type !== 'observation') return JSON.stringify(reply).slice(0, 200);
        return reply.data?.observation?.error
          ? `failed: ${JSON.stringify(reply.data.observation.error).slice(0, 200)}`
          : 'ok';
      }),
    );
    firstRoundDone();
  }
  firstRoundDone();
}

async function server(): Promise<number> {
  // No hibernation: the heavy session waits out the quiet window without giving its database back.
  const s = await startServer({
    worlds: [crm, stripe],
    port: 0,
    idleTimeoutMs: 0,
    hibernateAfterMs: 0,
    maxSessions: 10_000,
    logger: () => undefined,
  });
  return s.port;
}

const mode = process.argv[2];
process.on(
  'message',
  async (m: {
    cmd: string;
    port?: number;
    fixture?: string;
    advanceDays?: number;
    whole?: boolean;
  }) => {
    if (m.cmd === 'open') {
      await open(m.port!, m.fixture!);
      process.send!({ opened: true });
    } else if (m.cmd === 'start') {
      running = true;
      firstRound = new Promise((resolve) => (firstRoundDone = resolve));
      void heavyLoop(m.advanceDays!);
      process.send!({ started: true });
    } else if (m.cmd === 'stop') {
      // The operation in flight (a year's advance runs for minutes) is reported as far as it got; the server is stopped.
      if (m.whole) await firstRound;
      running = false;
      const now = performance.now();
      process.send!({
        ops:
          inFlight === null
            ? ops
            : [
                ...ops,
                { kind: inFlight.kind, ms: now - inFlight.started, status: 'in flight at the end' },
              ],
      });
    } else if (m.cmd === 'exit') process.exit(0);
  },
);
if (mode === 'server') process.send!({ port: await server() });
else if (mode === 'driver') process.send!({ ready: true });
else throw new Error(`heavy-load: unknown mode ${mode}; use server or driver`);
