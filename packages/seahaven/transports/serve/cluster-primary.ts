/**
 * The primary process of `seahaven serve --workers N` (cluster.ts has the whole design and the workers' side): it forks
 * the workers, keeps and relays their table, lends them places under `--max-sessions` (place-ledger.ts), holds a duplicate of each WebSocket connection so that a worker's death
 * reaches its clients as a close frame, replaces a worker that dies, and drains them all on SIGTERM or SIGINT.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import {
  COUNT_ENV,
  GUARDS_ENV,
  PLACES_ENV,
  SECRET_ENV,
  SHARE_ENV,
  SLOT_ENV,
  type ToPrimary,
  type ToWorker,
  type WorkerInfo,
} from './cluster-protocol.ts';
import { PlaceLedger, shareOf } from './place-ledger.ts';

/** The primary's limit on open file descriptors (Linux), or undefined where it cannot be read. */
function descriptorLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** The WebSocket close frame the primary writes to a dead worker's connections (server frames are not masked). */
function closeFrame(code: number, reason: string): Buffer {
  const text = Buffer.from(reason.slice(0, 120));
  const frame = Buffer.alloc(4 + text.length);
  frame[0] = 0x88;
  frame[1] = 2 + text.length;
  frame.writeUInt16BE(code, 2);
  text.copy(frame, 4);
  return frame;
}

interface Slot {
  worker: Worker | null;
  pid: number;
  port: number | null;
  sessions: number;
  ready: boolean;
  /** Duplicates of the worker's WebSocket connections, by the worker's id for them. */
  guards: Map<number, { close(): void }>;
  /** Replacements started in a row without one becoming ready. */
  failures: number;
  /** Workers started in this slot so far. */
  starts: number;
  /** When the slot's worker was last found dead (performance.now()), for the time its replacement took. */
  diedAt: number;
}

export interface PrimaryOptions {
  workers: number;
  /** `--max-sessions`: the places the primary lends the workers. */
  maxSessions: number;
  /** Where the banner goes. Default: stdout. */
  out?: (text: string) => void;
  /** Where the primary's log lines go. Default: stderr. */
  log?: (line: string) => void;
}

/**
 * Run the primary of `seahaven serve --workers N` until SIGTERM or SIGINT has drained every worker; resolves with the
 * exit code (0 after a drain; a worker's own code when the first one cannot start).
 */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  const n = options.workers;
  const out = options.out ?? ((text: string) => void process.stdout.write(text));
  const log = options.log ?? ((line: string) => void process.stderr.write(line + '\n'));
  const slots: Slot[] = Array.from({ length: n }, () => ({
    worker: null,
    pid: 0,
    port: null,
    sessions: 0,
    ready: false,
    guards: new Map(),
    failures: 0,
    starts: 0,
    diedAt: 0,
  }));
  let stopping = false;
  let started = false;
  let banner = '';
  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));

  const ledger = new PlaceLedger(options.maxSessions, n, (i, message) => {
    const worker = slots[i].worker;
    if (worker?.isConnected()) worker.send(message, undefined, undefined, () => {});
  });
  const table = (): WorkerInfo[] =>
    slots.map((s, i) => ({
      worker: i,
      pid: s.pid,
      port: s.port,
      sessions: s.sessions,
      ready: s.ready,
      replaces: s.starts > 1,
    }));
  // The workers' private ports answer only hand-overs that carry this (a request sent to one straight would open a
  // session no other worker could route to).
  const secret = randomBytes(24).toString('base64url');
  // Sent at once on every change, so a worker admitting a session next knows of the one another worker just opened (a
  // client that opened one and then connects again is dealt its connection after this table is on its way).
  const broadcast = () => {
    const message: ToWorker = { seahaven: 'table', workers: table() };
    for (const s of slots)
      if (s.worker?.isConnected()) s.worker.send(message, undefined, undefined, () => {});
  };

  // The primary holds a duplicate of every worker's WebSocket connections: each worker gets a share of its descriptors.
  const limit = descriptorLimit();
  const guards = limit === undefined ? 4096 : Math.max(0, Math.floor((limit - 1024) / n));
  const fork = (i: number) => {
    // The worker starts with its places, so it admits from its first connection without asking.
    const places = ledger.start(i);
    const share = shareOf(i, n, options.maxSessions);
    const worker = cluster.fork({
      [SLOT_ENV]: String(i),
      [COUNT_ENV]: String(n),
      [GUARDS_ENV]: String(guards),
      [SECRET_ENV]: secret,
      [PLACES_ENV]: String(places),
      [SHARE_ENV]: String(share),
    });
    const slot = slots[i];
    slot.starts++;
    slot.worker = worker;
    slot.pid = worker.process.pid ?? 0;
    slot.port = null;
    slot.ready = false;
    slot.sessions = 0;
    // /health shows the replacement's pid (not ready) while it starts.
    if (slot.starts > 1) broadcast();
    worker.on('message', (m: ToPrimary, handle?: unknown) => {
      // A worker's last messages can come after its exit was handled: its places and count went back then.
      if (slot.worker !== worker) return;
      if (m?.seahaven === 'count') {
        slot.sessions = m.sessions;
        ledger.count(i, m.sessions);
        broadcast();
      } else if (m?.seahaven === 'want') {
        ledger.want(i);
      } else if (m?.seahaven === 'return') {
        ledger.returned(i, m.places, m.answer === true);
      } else if (m?.seahaven === 'guard' && handle !== undefined && handle !== null) {
        slot.guards.set(m.id, handle as { close(): void });
      } else if (m?.seahaven === 'release') {
        slot.guards.get(m.id)?.close();
        slot.guards.delete(m.id);
      } else if (m?.seahaven === 'ready') {
        slot.port = m.port;
        slot.ready = true;
        slot.failures = 0;
        // A worker that came up while the others drain (a replacement) drains too: it joined after they were told.
        if (stopping)
          return void worker.send(
            { seahaven: 'shutdown' } satisfies ToWorker,
            undefined,
            undefined,
            () => {},
          );
        ledger.up(i);
        broadcast();
        if (!started) {
          if (i === 0) {
            banner = m.banner;
            // The first worker has loaded everything and bound the port: the others start now, side by side.
            for (let j = 1; j < n; j++) fork(j);
          }
          if (slots.every((s) => s.ready)) {
            started = true;
            out(
              banner.replace(
                /\n\n/,
                `\n  workers:          ${n} processes (pids ${slots.map((s) => s.pid).join(', ')}); WebSocket sessions stay on their worker, others are handed over\n\n`,
              ),
            );
          }
        } else
          log(
            `[seahaven] worker ${i} is back (pid ${slot.pid}), ${((performance.now() - slot.diedAt) / 1000).toFixed(1)} s after the last one exited`,
          );
      }
    });
    worker.on('exit', (code, signal) => {
      if (slot.worker !== worker) return;
      const lost = slot.guards.size;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      // The worker's connections still open (it died without closing them): their clients get a close frame that says why.
      const frame = closeFrame(
        1011,
        `worker ${i} of this server ${how.replace('was ', '')}; the session is lost, reconnect to start a new one`,
      );
      for (const handle of slot.guards.values()) {
        if (stopping) {
          handle.close();
          continue;
        }
        // A socket around the duplicate handle. What the client sent is read and dropped (closing a socket with unread
        // bytes would reset the connection, and could lose the close frame); the client's own close ends it.
        const socket = new Socket({ handle, readable: true, writable: true } as never);
        socket.on('error', () => socket.destroy());
        socket.resume();
        socket.end(frame);
        setTimeout(() => socket.destroy(), 2000).unref();
      }
      slot.guards.clear();
      slot.diedAt = performance.now();
      slot.worker = null;
      slot.ready = false;
      slot.port = null;
      slot.sessions = 0;
      ledger.exit(i);
      broadcast();
      if (stopping) {
        if (slots.every((s) => s.worker === null)) finish(0);
        return;
      }
      if (!started) {
        // A worker that cannot start (a world that does not load, a port in use) has said why; the others would too.
        for (const s of slots) s.worker?.process.kill('SIGKILL');
        finish(typeof code === 'number' && code !== 0 ? code : 1);
        return;
      }
      slot.failures++;
      const delay = Math.min(100 * 2 ** (slot.failures - 1), 5000);
      log(
        `[seahaven] worker ${i} (pid ${slot.pid}) ${how}${lost > 0 ? `; its ${lost} WebSocket client(s) were told so (close 1011)` : ''}; its sessions ended; starting a replacement`,
      );
      setTimeout(
        () => {
          if (!stopping) fork(i);
        },
        slot.failures > 1 ? delay : 0,
      ).unref();
    });
  };

  const stop = (signal: string) => {
    if (stopping) {
      log(`seahaven serve: ${signal} again, exiting now`);
      for (const s of slots) s.worker?.process.kill('SIGKILL');
      finish(1);
      return;
    }
    stopping = true;
    const sessions = slots.reduce((k, s) => k + s.sessions, 0);
    log(
      `seahaven serve: ${signal}: draining ${slots.filter((s) => s.worker !== null).length} worker(s): finishing queued requests and closing ${sessions} session(s)…`,
    );
    for (const s of slots)
      if (s.worker?.isConnected())
        s.worker.send({ seahaven: 'shutdown' } satisfies ToWorker, undefined, undefined, () => {});
    if (slots.every((s) => s.worker === null)) finish(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  fork(0);
  return done;
}
