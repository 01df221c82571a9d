/**
 * One store of an instance (the host world's, or a composed sub-world's) and its connection. A slot can sleep: its
 * connection closes and it keeps the database image as bytes; the next use opens it again. A fresh fixture instance
 * starts asleep on the shared fixture image, so a reset that is never used costs no connection, and an idle episode
 * can give its connection back.
 */
import Database from 'better-sqlite3';
import { CAPTURE_FN, ChangeTracker, RowReader, captureTriggersSql, type TrackedTable } from './capture.ts';
import { Ids, Rng, Stream } from './random.ts';
import { installSqlOverrides } from './sql-overrides.ts';
import { KIT_DDL, SEQ_TABLE } from './schema.ts';
import { Store } from './db.ts';
import type { CallInfo, Ctx, CtxDb, WorldHandle } from './ctx.ts';
import type { VirtualClock } from './clock.ts';
import type { World } from './world.ts';

type Db = InstanceType<typeof Database>;

export interface SlotOptions {
  mount: string | null;
  world: World;
  seedText: string;
  clock: VirtualClock;
  tracker: ChangeTracker;
  instance: { id: string; fixture: string | null; seed: number };
  /** The database image to open; null for a blank store, whose schema runs at once. */
  image: Buffer | null;
  /** Where rows started: a fixture's shared reader, or a blank store's starting image (null when it started empty). */
  base: RowReader | Buffer | null;
  /** An open store of the same world, already rolled back to this slot's fixture image (a restarted session's). */
  store?: Store;
}

/**
 * Deferred foreign keys are checked when a transaction commits, and a trigger's RAISE(ROLLBACK) ends the whole
 * transaction it fires in: either rules out running an episode as one transaction, so each call gets its own.
 */
const deferredKeys = new WeakMap<World, boolean>();
function hasDeferredKeys(world: World): boolean {
  let found = deferredKeys.get(world);
  if (found === undefined) {
    found = /\bDEFERRABLE\s+INITIALLY\s+DEFERRED\b|\bRAISE\s*\(\s*ROLLBACK\b/i.test(world.schema);
    deferredKeys.set(world, found);
  }
  return found;
}

/** Commit the current call in every slot; first make sure no slot refused a statement, so all commit or none does. */
export function commitCalls(slots: readonly Slot[]): void {
  for (const s of slots) s.checkCall();
  for (const s of slots) s.commitCall();
}

export class Slot {
  readonly mount: string | null;
  readonly world: World;
  readonly rng: Rng;
  readonly ids: Ids;
  readonly sql: Stream;
  readonly ctx: Ctx & { call: CallInfo };
  /** Sub-world handles (host slot only), filled in by the instance. */
  readonly worlds: Record<string, WorldHandle> = {};
  /** The starting image of a blank store, kept so forks can read it; null when it started empty. */
  readonly blankBase: Buffer | null = null;
  private readonly clock: VirtualClock;
  private readonly tracker: ChangeTracker;
  private readonly offset: number;
  private readonly tables: TrackedTable[] = [];
  private readonly ownedBase: Db | null = null;
  private image: Buffer | null;
  private store: Store | null = null;
  /** The slot starts from a fixture image, so its episode can run as one transaction and be rolled back on restart. */
  private readonly episodic: boolean;
  /** The image the slot started from (the fixture's, shared). */
  private readonly startImageRef: Buffer | null;
  /** A call is running: a store opened during it joins the call. */
  private inCall = false;

  constructor(o: SlotOptions) {
    this.mount = o.mount;
    this.world = o.world;
    this.clock = o.clock;
    this.tracker = o.tracker;
    this.image = o.image;
    this.startImageRef = o.image;
    this.episodic = o.image !== null && o.base instanceof RowReader && !hasDeferredKeys(o.world);
    const suffix = o.mount === null ? '' : `\u0000${o.mount}`;
    this.sql = new Stream(o.seedText + suffix + '\u0000sql');
    this.rng = new Rng(new Stream(o.seedText + suffix + '\u0000rng'));
    this.ids = new Ids(new Stream(o.seedText + suffix + '\u0000ids'), (name) => {
      const row = this.live().one<{ value: number }>(`INSERT INTO ${SEQ_TABLE} (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`, [name]);
      return row!.value;
    });
    const db: CtxDb = {
      one: (sql, ...params) => this.live().one(sql, params),
      all: (sql, ...params) => this.live().all(sql, params),
      run: (sql, ...params) => this.live().run(sql, params),
      transaction: (fn) => this.live().transaction(fn),
    };
    this.ctx = {
      db,
      clock: { now: () => this.clock.now(), iso: () => this.clock.iso() },
      rng: this.rng,
      ids: this.ids,
      call: { tool: '', args: {}, index: 0 },
      instance: o.instance,
      worlds: this.worlds,
    };

    let base = o.base;
    if (o.image === null) {
      // A blank store: run the schema now, under the virtual clock and seed, then remember where rows started.
      const store = this.open();
      store.db.exec(KIT_DDL);
      store.db.exec(this.world.schema);
      store.db.exec(captureTriggersSql(this.world.tables));
      const seeded = (store.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n > 0;
      base = seeded ? store.db.serialize() : null;
    }
    let baseReader: RowReader | null = null;
    if (base instanceof RowReader) baseReader = base;
    else if (base !== null) {
      this.blankBase = base;
      this.ownedBase = new Database(base, { readonly: true });
      baseReader = new RowReader(this.ownedBase, this.world.tables);
    }
    this.offset = this.tracker.tables.length;
    o.world.tables.forEach((info, local) => {
      const entry: TrackedTable = { info, name: o.mount === null ? info.name : `${o.mount}.${info.name}`, local, live: null!, base: baseReader };
      this.tables.push(entry);
      this.tracker.tables.push(entry);
    });
    if (o.store) {
      this.store = o.store;
      o.store.owner = this;
    }
    if (this.store) this.bindLive(this.store);
  }

  /**
   * Hand the open connection over for a new episode from the same fixture: roll it back and forget it (this slot is
   * being destroyed). Null when there is nothing to hand over: the slot sleeps, or its episode was committed (forked,
   * hibernated, or its raw connection handed out).
   */
  handOver(): Store | null {
    const store = this.store;
    if (store === null || !store.inEpisode) return null;
    store.restart();
    this.store = null;
    return store;
  }

  /** Whether a restart can reuse this slot: it sleeps on its untouched fixture image, or runs an episode it can roll back. */
  get restartable(): boolean {
    return this.episodic && (this.store === null ? this.image === this.startImageRef : this.store.inEpisode);
  }

  get awake(): boolean {
    return this.store !== null;
  }

  /** The open store, opening it from the image if the slot sleeps. */
  live(): Store {
    return this.store ?? this.wake();
  }

  private open(): Store {
    const db: Db = this.image ? new Database(this.image) : new Database(':memory:');
    db.exec('PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
    const store = new Store(db);
    store.owner = this;
    // The connection's functions work for whichever slot owns the store now (a restarted session's store changes
    // hands). The capture function is installed before anything is prepared; its table numbers are offset into the tracker.
    const owner = () => store.owner as Slot;
    db.function(CAPTURE_FN, { varargs: true, safeIntegers: true, directOnly: false }, (...args: unknown[]) => {
      const slot = owner();
      return slot.tracker.capture(slot.offset, args);
    });
    installSqlOverrides(db, () => owner().clock.iso(), () => owner().sql);
    this.store = store;
    if (this.episodic && this.image === this.startImageRef) store.beginEpisode();
    if (this.inCall) store.startCall();
    return store;
  }

  private bindLive(store: Store): void {
    const reader = (store.liveReader ??= new RowReader(store.db, this.world.tables)) as RowReader;
    for (const t of this.tables) t.live = reader;
  }

  private wake(): Store {
    const store = this.open();
    this.bindLive(store);
    return store;
  }

  /** Close the connection and keep the image; unchanged stores keep the image they were opened from. */
  sleep(): void {
    if (this.store === null) return;
    const store = this.store;
    const changed = store.changed;
    // A serialized database holds committed pages only.
    store.settle();
    if (changed || this.image === null) this.image = store.db.serialize();
    store.db.close();
    this.store = null;
  }

  /** The current image: the open database serialized, or the image the slot sleeps on (shared, never mutated). */
  snapshot(): Buffer {
    if (this.store === null) return this.image!;
    // A serialized database holds committed pages only; the episode can no longer be rolled back to its fixture.
    this.store.settle();
    return this.store.db.serialize();
  }

  beginCall(): void {
    this.inCall = true;
    this.store?.startCall();
  }

  /** Throw if the current call tried a statement world code may not run. */
  checkCall(): void {
    this.store?.checkCall();
  }

  commitCall(): void {
    this.inCall = false;
    this.store?.endCall(true);
  }

  rollbackCall(): void {
    this.inCall = false;
    this.store?.endCall(false);
  }

  /** The open database (fixture freezing, benchmarks), with the episode so far committed. */
  database(): Db {
    const store = this.live();
    store.settle();
    return store.db;
  }

  destroy(): void {
    this.store?.db.close();
    this.store = null;
    this.ownedBase?.close();
  }
}
