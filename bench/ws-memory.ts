/**
 * Memory per session, measured in a process of its own (run with `--expose-gc`) so nothing else sits in its RSS.
 *
 * `server` mode serves crm and answers `{cmd: 'measure'}` with its RSS after a full GC; the load generator opens the
 * sessions from another process. `instances <variant> <count>` opens instances of small_startup in process, idle and
 * after a few read calls, with a page-cache variant applied to each connection: `default`, `cache_size=0`, `mmap`.
 */
import { startServer } from 'seahaven/serve';
import { crm } from '@seahaven/crm';
import type { Instance } from 'seahaven';
import { storeDatabases } from 'seahaven/internal/core/instance-internals';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function settle(): { rss: number; heapUsed: number } {
  for (let i = 0; i < 3; i++) gc!();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

const READS: [string, Record<string, unknown>][] = [
  ['search_contacts', { query: 'an' }],
  ['list_companies', { limit: 10 }],
  ['list_deals', { limit: 10 }],
  ['pipeline_summary', {}],
  ['list_contacts', { limit: 10 }],
];

function applyVariant(inst: Instance, variant: string): void {
  const db = inst[storeDatabases]().get(null)!;
  if (variant === 'cache_size=0') db.pragma('cache_size = 0');
  else if (variant === 'mmap') db.pragma('mmap_size = 268435456');
}

async function serverMode(): Promise<void> {
  const server = await startServer({
    worlds: [crm],
    port: 0,
    idleTimeoutMs: 0,
    hibernateAfterMs: 3_600_000,
    maxSessions: 100_000,
    logger: () => undefined,
  });
  crm.instance({ fixture: 'small_startup' }).destroy();
  process.on('message', async (m: { cmd: string }) => {
    if (m.cmd === 'measure') process.send!({ ...settle(), sessions: server.sessions.size });
    else if (m.cmd === 'hibernate') {
      // What the reaper does to sessions idle for longer than hibernateAfterMs.
      server.sessions.reapIdle(performance.now() + 3_600_000);
      process.send!({ ok: true });
    } else if (m.cmd === 'exit') {
      await server.close();
      process.exit(0);
    }
  });
  process.send!({ port: server.port });
}

function instancesMode(variant: string, count: number, fixture: string): void {
  const warm = crm.instance({ fixture });
  for (const [tool, args] of READS) warm.call(tool, args);
  warm.destroy();
  const base = settle();
  const held: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const inst = crm.instance({ fixture, seed: i });
    applyVariant(inst, variant);
    held.push(inst);
  }
  const idle = settle();
  for (const inst of held) for (const [tool, args] of READS) inst.call(tool, args);
  const used = settle();
  process.send!({
    variant,
    fixture,
    count,
    idleRss: (idle.rss - base.rss) / count,
    usedRss: (used.rss - base.rss) / count,
  });
  for (const inst of held) inst.destroy();
}

const [mode, variant, count, fixture] = process.argv.slice(2);
if (mode === 'server') await serverMode();
else instancesMode(variant ?? 'default', Number(count ?? 1000), fixture ?? 'small_startup');
