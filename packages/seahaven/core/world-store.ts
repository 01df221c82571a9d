/**
 * One world's store in an instance (the host world's, or a composed sub-world's): its database, its random streams
 * and the tool context its tools run with. A store can sleep: its connection closes and it keeps the database as
 * bytes; the next use opens it again. A fresh fixture instance starts asleep on the shared fixture image, so a reset
 * that is never used costs no connection, and an idle episode can give its connection back.
 */
import Database from 'better-sqlite3';
import type { ChangeTracker, TrackedTable } from './capture.ts';
import { captureTriggersSql, RowReader } from './capture-sql.ts';
import type { CallTransaction } from './call-transaction.ts';
import type { VirtualClock } from './clock.ts';
import { Connection, type ConnectionTenant } from './connection.ts';
import { openCost, type StoreImage } from './cow-pages.ts';
import type { CallInfo, Ctx, HostHandle, WorldHandle } from './ctx.ts';
import { storeDb } from './ctx-db.ts';
import { ToolError } from './errors.ts';
import { Ids, Rng, Stream } from './random.ts';
import { violationsOf } from './tool.ts';
import type { StoreStart } from './instance-start.ts';
import { KIT_DDL, SEQ_TABLE } from './schema.ts';
import type { Db } from './sqlite.ts';
import type { World } from './world-types.ts';

/** What every store of an instance shares. */
export interface InstanceParts {
  seedText: string;
  clock: VirtualClock;
  tracker: ChangeTracker;
  tx: CallTransaction;
  instance: { id: string; fixture: string | null; seed: number };
  /** Asked before a database is opened from an image (`InstanceOptions.admitOpen`). */
  admitOpen?: (bytes: number) => void;
}

/** What a world's schema rules out or requires of its stores, read off its text once per world, not per reset. */
interface SchemaTraits {
  /**
   * Deferred foreign keys are checked when a transaction commits, and a trigger's RAISE(ROLLBACK) ends the whole
   * transaction it fires in: either rules out running an episode as one transaction, so each call gets its own.
   */
  deferredKeys: boolean;
  /** The schema may replace rows by itself (ON CONFLICT REPLACE, a trigger's OR REPLACE): rows are read after every call (capture.ts). */
  replaces: boolean;
}

const traitsByWorld = new WeakMap<World, SchemaTraits>();
function traitsOf(world: World): SchemaTraits {
  let traits = traitsByWorld.get(world);
  if (traits === undefined) {
    traits = {
      deferredKeys: /\bDEFERRABLE\s+INITIALLY\s+DEFERRED\b|\bRAISE\s*\(\s*ROLLBACK\b/i.test(
        world.schema,
      ),
      replaces: /\breplace\b/i.test(world.schema),
    };
    traitsByWorld.set(world, traits);
  }
  return traits;
}

export class WorldStore implements ConnectionTenant {
  readonly mount: string | null;
  readonly world: World;
  readonly clock: VirtualClock;
  readonly rng: Rng;
  readonly ids: Ids;
  readonly sqlStream: Stream;
  readonly ctx: Ctx & { call: CallInfo; host?: HostHandle };
  /** Sub-world handles (host store only), filled in by the instance. */
  readonly worlds: Record<string, WorldHandle> = {};
  /** The starting image of a blank store, kept so forks can read it; null when it started empty. */
  readonly blankBase: Buffer | null = null;
  private readonly tx: CallTransaction;
  /** The number of this store's first table in the change tracker (its triggers number tables from 0). */
  private readonly tableOffset: number;
  private readonly ownedBase: Db | null = null;
  private image: StoreImage | null;
  private connection: Connection | null = null;
  /** The store starts from a fixture image, so its episode can run as one transaction and be rolled back on restart. */
  private readonly episodic: boolean;
  /** The image the store started from (the fixture's, shared). */
  private readonly startImage: StoreImage | null;
  /** The most bytes the store's database may hold (`Connection.limitTo`). */
  readonly limitBytes: number;
  private readonly admitOpen: ((bytes: number) => void) | undefined;

  /** A store beginning as `o` says, in an instance whose stores share `parts`. */
  constructor(o: StoreStart, parts: InstanceParts) {
    this.mount = o.mount;
    this.world = o.world;
    this.clock = parts.clock;
    this.tx = parts.tx;
    this.image = o.image;
    this.startImage = o.image;
    this.limitBytes = o.limitBytes;
    this.admitOpen = parts.admitOpen;
    this.episodic =
      o.fromFixture &&
      o.image !== null &&
      o.base instanceof RowReader &&
      !traitsOf(o.world).deferredKeys;
    const suffix = o.mount === null ? '' : `\u0000${o.mount}`;
    this.sqlStream = new Stream(parts.seedText + suffix + '\u0000sql');
    this.rng = new Rng(new Stream(parts.seedText + suffix + '\u0000rng'));
    const db = storeDb(this, parts.tx);
    this.ids = new Ids(new Stream(parts.seedText + suffix + '\u0000ids'), (name) => {
      const row = db.one<{ value: number }>(
        `INSERT INTO ${SEQ_TABLE} (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`,
        name,
      );
      return row!.value;
    });
    this.ctx = {
      db,
      clock: { now: () => this.clock.now(), iso: () => this.clock.iso() },
      rng: this.rng,
      ids: this.ids,
      call: { tool: '', args: {}, index: 0 },
      instance: parts.instance,
      worlds: this.worlds,
    };

    let base = o.base;
    if (o.image === null) {
      // A blank store: run the schema now, under the virtual clock and seed, then remember where rows started.
      const db = this.open().db;
      db.exec(KIT_DDL);
      db.exec(this.world.schema);
      db.exec(captureTriggersSql(this.world.trackedTables));
      const seeded = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n > 0;
      base = seeded ? db.serialize() : null;
    }
    let baseReader: RowReader | null = null;
    if (base instanceof RowReader) baseReader = base;
    else if (base !== null) {
      this.blankBase = base;
      this.ownedBase = new Database(base, { readonly: true });
      baseReader = new RowReader(this.ownedBase, this.world.trackedTables);
    }
    const tracked = parts.tracker.tables;
    this.tableOffset = tracked.length;
    const tables = o.world.trackedTables;
    const eager = traitsOf(o.world).replaces;
    for (let local = 0; local < tables.length; local++) {
      const info = tables[local];
      const entry: TrackedTable = {
        info,
        name: o.mount === null ? info.name : `${o.mount}.${info.name}`,
        local,
        store: this,
        base: baseReader,
        eager,
      };
      tracked.push(entry);
    }
    if (o.connection !== null) {
      this.connection = o.connection;
      o.connection.tenant = this;
      o.connection.limitTo(this.limitBytes);
    }
  }

  /** Append the store's random streams to `into`, in the order the instance saves and restores them. */
  addStreams(into: Stream[]): void {
    into.push(this.rng.stream, this.ids.stream, this.sqlStream);
  }

  /** A capture trigger fired on this store's connection: the row goes to the running call's transaction. */
  capture(args: unknown[]): null {
    return this.tx.capture(this.tableOffset, args);
  }

  /** The connection's reader of current rows (the store is awake whenever a call has written to it). */
  currentRows(): RowReader {
    return this.live().currentRows;
  }

  /**
   * Hand the open connection over for a new episode from the same fixture: roll it back and forget it (this store is
   * being destroyed). With `idle`, for a later instance: rolled back, its next episode not begun (`Connection.resume`).
   * Null when there is nothing to hand over: the store sleeps, or its episode was committed (forked, hibernated, or its
   * raw database handed out).
   */
  handOver(idle = false): Connection | null {
    const connection = this.connection;
    if (connection === null || !connection.restartable) return null;
    // Left idle (idle-connections.ts), it is only rolled back; whoever takes it resumes it.
    if (idle) connection.rollBack();
    else connection.restart();
    this.connection = null;
    return connection;
  }

  /** Whether a restart can reuse this store: it sleeps on its untouched fixture image, or runs an episode it can roll back. */
  get restartable(): boolean {
    return (
      this.episodic &&
      (this.connection === null ? this.image === this.startImage : this.connection.restartable)
    );
  }

  get awake(): boolean {
    return this.connection !== null;
  }

  /** The open connection, opening it from the image if the store sleeps. */
  live(): Connection {
    return this.connection ?? this.open();
  }

  /**
   * The bytes the open database holds of its own, what a fork would copy: all its pages, or on a copy-on-write base
   * the pages it changed (0 while the store sleeps: its image is shared with whoever else holds it).
   */
  get openBytes(): number {
    return this.connection === null ? 0 : this.connection.ownBytes;
  }

  private open(): Connection {
    if (this.image !== null) this.admitOpen?.(openCost(this.image));
    const connection = new Connection(this.image, this.world.trackedTables, this);
    connection.limitTo(this.limitBytes);
    connection.batches = !traitsOf(this.world).deferredKeys;
    this.connection = connection;
    if (this.episodic && this.image === this.startImage) connection.beginEpisode();
    return connection;
  }

  /** Close the connection and keep the image; unchanged stores keep the image they were opened from. */
  sleep(): void {
    const connection = this.connection;
    if (connection === null) return;
    const changed = connection.changed;
    // A serialized database holds committed pages only.
    connection.commitEpisode();
    if (changed || this.image === null) this.image = connection.closeToImage();
    else connection.close();
    this.connection = null;
  }

  /** The current image: the open database serialized, or the image the store sleeps on (shared, never mutated). */
  snapshot(): StoreImage {
    if (this.connection === null) return this.image!;
    // An image holds committed pages only; the episode can no longer be rolled back to its fixture.
    this.connection.commitEpisode();
    return this.connection.image();
  }

  /** The open database (fixture freezing, benchmarks), with the episode so far committed. */
  database(): Db {
    const connection = this.live();
    connection.commitEpisode();
    return connection.db;
  }

  destroy(): void {
    this.connection?.close();
    this.connection = null;
    this.ownedBase?.close();
  }

  /** A composed world's tool, called by a host tool through `ctx.worlds`: a savepoint within the host's call `index`. */
  callTool(toolName: string, args: Record<string, unknown>, index: number): unknown {
    const tool = this.world.tools.find((t) => t.name === toolName);
    if (!tool) throw new ToolError('unknown_tool', `${this.world.name} has no tool "${toolName}"`);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success)
      throw new ToolError('invalid_arguments', `invalid arguments for ${this.mount}.${toolName}`, {
        violations: violationsOf(parsed.error),
      });
    const outer = this.ctx.call;
    this.ctx.call = { tool: toolName, args: parsed.data, index };
    try {
      return this.ctx.db.transaction(() => tool.run(this.ctx, parsed.data));
    } finally {
      this.ctx.call = outer;
    }
  }
}
