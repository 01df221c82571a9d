/**
 * Loaded into the soak's server process (`node --import bench/soak-probe.mjs …`) to say what its memory holds: every
 * `SEAHAVEN_SOAK_PROBE_MS` it appends one JSON line to the file `SEAHAVEN_SOAK_PROBE` with `process.memoryUsage()`
 * (resident set, V8 heap, memory outside the heap) and the server's sessions by transport, how many of them hold open
 * SQLite connections, and the forks held. It reads the sessions through the session registry's prototype, which it
 * wraps to learn the registry: a bench instrument, never loaded by `seahaven serve` itself.
 */
import { appendFileSync } from 'node:fs';
import { Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const file = process.env.SEAHAVEN_SOAK_PROBE;
const every = Number(process.env.SEAHAVEN_SOAK_PROBE_MS ?? 10_000);
const registries = new Set();
let hooked = false;
let hooking = false;

async function hook() {
  if (hooked || hooking) return;
  hooking = true;
  try {
    // The server's own copy of the module: under `npm test` the compiled copy it runs (seahaven's
    // core/test/compiled-copy.ts), else the source.
    const compiled = process.env.SEAHAVEN_COMPILED;
    const { SessionRegistry } = await import(
      compiled
        ? pathToFileURL(join(compiled, 'packages/seahaven/transports/serve/sessions.ts.mjs')).href
        : new URL('../packages/seahaven/transports/serve/sessions.ts', import.meta.url).href
    );
    const open = SessionRegistry.prototype.ensureRoom;
    SessionRegistry.prototype.ensureRoom = function (...args) {
      registries.add(this);
      return open.apply(this, args);
    };
    hooked = true;
  } catch {
    // Tried again at the next listen.
  } finally {
    hooking = false;
  }
}

function sessions() {
  const byOwner = {};
  let awake = 0;
  let forks = 0;
  for (const registry of registries) {
    forks += registry.heldForks;
    for (const perEndpoint of registry.byEndpoint.values()) {
      for (const s of perEndpoint.values()) {
        byOwner[s.owner] = (byOwner[s.owner] ?? 0) + 1;
        if (!s.closed && s.inst.awake) awake++;
      }
    }
  }
  return { byOwner, awake, forks };
}

if (file !== undefined) {
  // Hooked when the server starts listening: its modules are loaded by then (an import before the command registered
  // its TypeScript loader would fail, and the failure would stay cached for the server's own import), and no session
  // has opened yet.
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (...args) {
    void hook();
    return listen.apply(this, args);
  };
  const mib = (n) => Math.round((n / 2 ** 20) * 10) / 10;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    const line = {
      rss: mib(m.rss),
      heapTotal: mib(m.heapTotal),
      heapUsed: mib(m.heapUsed),
      external: mib(m.external),
      arrayBuffers: mib(m.arrayBuffers),
      ...sessions(),
    };
    appendFileSync(file, JSON.stringify(line) + '\n');
  }, every);
  timer.unref();
}
