/**
 * What an instance does over its stores as a whole, outside the call path: composed worlds reaching each other, the
 * read-only query, the state document, and leaving the connections of an ended episode for the next one.
 */
import type { Change } from './capture.ts';
import { isoOf, type VirtualClock } from './clock.ts';
import type { Connection } from './connection.ts';
import { InstanceError } from './errors.ts';
import type { LoadedFixture } from './fixtures.ts';
import { hasIdleRoom, keepIdle } from './idle-connections.ts';
import type { StateDocument } from './state-document.ts';
import type { WorldStore } from './world-store.ts';
import type { World } from './world-types.ts';

/**
 * Give the host's tools each mounted world's calls and reads, and each mounted world whose mount declares `receive`
 * its way to the host; `currentCall` is the number of the call running now.
 */
export function linkMounts(world: World, stores: WorldStore[], currentCall: () => number): void {
  const host = stores[0];
  for (const [m, spec] of Object.entries(world.mounts)) {
    const sub = stores.find((st) => st.mount === m)!;
    const receive = spec.receive;
    if (receive !== undefined)
      sub.ctx.host = {
        send: (message) => host.ctx.db.transaction(() => receive(host.ctx, message)),
      };
    stores[0].worlds[m] = {
      call: (tool, args) => sub.callTool(tool, args, currentCall()),
      db: {
        one: (sql, ...params) => sub.ctx.db.one(sql, ...params),
        all: (sql, ...params) => sub.ctx.db.all(sql, ...params),
      },
    };
  }
}

/** Read-only SQL over one store's current state (`Instance#queryStore`). */
export function queryStores(
  stores: WorldStore[],
  mount: string | null,
  sql: string,
  params: unknown[],
): unknown[] {
  const store = mount === null ? stores[0] : stores.find((s) => s.mount === mount);
  if (!store)
    throw new InstanceError('unknown_store', `no composed world is mounted as "${mount}"`);
  const connection = store.live();
  const p = connection.prepared(sql);
  if (!p.stmt.readonly || !p.stmt.reader)
    throw new InstanceError(
      'not_read_only',
      `query() is read-only and must return rows; change state through tool calls. Got: ${sql}`,
    );
  return connection.rows(p, params);
}

/** What the state document is made of: an instance's public identity, clock and changes. */
export interface StateParts {
  world: World;
  fixture: string | null;
  fixtureSha256: string | null;
  seed: number;
  taskId: string | undefined;
  clock: VirtualClock;
  callCount: number;
  changes: Change[];
}

/** The state document of an instance (`Instance#state`). */
export function stateDocument(p: StateParts): StateDocument {
  const doc: StateDocument = {
    format: 'seahaven.state/1',
    world: { name: p.world.name, version: p.world.version },
    fixture: p.fixture === null ? null : { id: p.fixture, sha256: p.fixtureSha256! },
    seed: p.seed,
    clock: { mode: p.clock.mode, now: isoOf(p.clock.now()) },
    call_count: p.callCount,
    changes: p.changes,
  };
  if (p.taskId !== undefined) doc.task = p.taskId;
  return doc;
}

/**
 * Roll an episode's connections back to the fixture and leave them for the next instance of it
 * (idle-connections.ts), when every store can roll back and the fixture keeps fewer than its room.
 */
export function leaveConnections(loaded: LoadedFixture | null, stores: WorldStore[]): void {
  if (loaded === null || !hasIdleRoom(loaded) || !stores.every((s) => s.restartable)) return;
  const connections: (Connection | null)[] = [];
  try {
    for (const s of stores) connections.push(s.handOver(true));
  } catch {
    // A connection that cannot roll back (a statement still running) is closed with the rest by destroy().
    for (const c of connections) c?.close();
    return;
  }
  if (!connections.some((c) => c !== null) || !keepIdle(loaded, connections))
    for (const c of connections) c?.close();
}
