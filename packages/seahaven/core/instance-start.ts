/**
 * How an instance begins. There are three ways, and this module describes each as an `InstanceStart` that the
 * instance's one constructor applies:
 *
 * - `freshStart`: a new episode (`world.instance(options)`): every store opens from its fixture's image, or runs
 *   the blank schema;
 * - `restartStart`: a new episode from the same fixture on the previous episode's open connections, rolled back
 *   (`inst.restart(options)`, what the server's reset does);
 * - `forkStart`: the same episode, diverging (`inst.fork()`): each store from a snapshot of the original's, with its
 *   history, clock and random streams carried over.
 *
 * Options are checked here, before anything opens or changes hands, so a refused start leaves everything as it was.
 */
import type { ChangeTracker } from './capture.ts';
import type { RowReader } from './capture-sql.ts';
import { DEFAULT_CALL_LOG_BYTES, type CallHistory } from './call-history.ts';
import { parseInstant, type ClockMode } from './clock.ts';
import type { Connection } from './connection.ts';
import type { StoreImage } from './cow-pages.ts';
import { InstanceError } from './errors.ts';
import { loadFixture, type LoadedFixture } from './fixtures.ts';
import { worldsByMount } from './mount.ts';
import { hashHex, type StreamPositions } from './random.ts';
import type { World } from './world-types.ts';

export interface InstanceOptions {
  /**
   * Fixture id. Omitted: the task's fixture when `task` is given, else a blank instance from the schema. With `task`,
   * it may only name the task's own fixture.
   */
  fixture?: string;
  /** Whole number ≥ 0. Default 0. */
  seed?: number;
  /** `fixed` (default) or `tick` (+1 s per call). */
  clock?: ClockMode;
  /** Start the clock here instead of the fixture's `now` (not earlier). */
  now?: string;
  /** Where world bugs and slow calls are logged. Default: `console.error`. */
  logger?: (line: string) => void;
  /** Log calls that take at least this many milliseconds (one line through `logger`). Default 1000 (`startServer({ slowCallMs })` and `seahaven serve --slow-call-ms` pass theirs to every session); `Infinity`: never. */
  slowCallMs?: number;
  /** Start from this task's fixture and grade with the task at `submit()`. */
  task?: string;
  /**
   * Most bytes of call outcomes (results and errors, as JSON) `callLog()` keeps; past it the oldest are dropped, each
   * record keeping its arguments and `result_dropped: true`. Default 8 MiB (`seahaven serve --max-call-log-mb`). A fork
   * keeps its original's bound.
   */
  maxCallLogBytes?: number;
  /**
   * Most bytes each of the episode's databases may grow beyond its fixture's image (beyond the schema's, for a blank
   * instance). A call that would pass it fails with `resource_exhausted`, and the episode ends with it (SQLite undoes
   * the episode's whole transaction when a database is full): later calls are refused, and a new episode starts as
   * usual. Default 256 MiB (`seahaven serve --max-episode-db-mb`); no database passes 960 MiB whatever it says.
   */
  maxDbGrowthBytes?: number;
  /**
   * @internal Asked before a store's database is opened from an image of `bytes` bytes (SQLite copies it); throws to
   * refuse, and the call or read that needed it fails with what it threw. A server's memory budget (`--max-memory`).
   */
  admitOpen?: (bytes: number) => void;
}

/** How far an episode's database may grow beyond its fixture's image by default: 256 MiB. */
export const DEFAULT_DB_GROWTH_BYTES = 256 * 1024 * 1024;

/** The options that bound what one episode may hold, which a server passes to every instance it starts. */
export type EpisodeLimits = Pick<InstanceOptions, 'maxCallLogBytes' | 'maxDbGrowthBytes'> & {
  /** @internal `InstanceOptions.admitOpen`. */
  admitOpen?: (bytes: number) => void;
};

/** Check a byte limit option: a whole number of bytes, at least `min`. */
function byteLimit(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min)
    throw new InstanceError(
      'invalid_limit',
      `${name} must be a whole number of bytes >= ${min}; got ${JSON.stringify(value)}`,
    );
  return value;
}

/** The checked options of an episode, and what follows from them whichever way the instance begins. */
export interface EpisodeSettings {
  options: InstanceOptions;
  seed: number;
  mode: ClockMode;
  fixture: string | null;
  /** The fixture, loaded and verified (null for a blank instance). */
  loaded: LoadedFixture | null;
  /** Where the clock starts (epoch ms). */
  startMs: number;
  /** World, fixture and seed: what every random stream, the instance id and error ids derive from. */
  seedText: string;
  id: string;
  logger: (line: string) => void;
  /** `options.maxCallLogBytes`, checked, or its default. */
  maxCallLogBytes: number;
  /** `options.maxDbGrowthBytes`, checked, or its default. */
  maxDbGrowthBytes: number;
}

/** Where one store begins. */
export interface StoreStart {
  mount: string | null;
  world: World;
  /** The image it opens from; null for a blank store, whose schema runs at once. */
  image: StoreImage | null;
  /** Where its rows started: the fixture's shared reader, or a blank store's starting image (null: it started empty). */
  base: RowReader | Buffer | null;
  /** An open connection already rolled back to `image` (a restart's), or null. */
  connection: Connection | null;
  /**
   * `image` is the fixture's own (not a fork's snapshot), so the store's episode can run as one transaction and a
   * restart can roll it back to the fixture.
   */
  fromFixture: boolean;
  /** The most bytes its database may hold: its fixture's image (or none) plus the episode's `maxDbGrowthBytes`. */
  limitBytes: number;
}

/** The history a fork carries over from the original. */
export interface CarriedHistory {
  tracker: ChangeTracker;
  callLog: CallHistory;
  /** Every random stream's position, in the order of `WorldStore.addStreams`, store after store. */
  streams: StreamPositions;
  clock: { base: number; calls: number };
}

/** Everything the instance's constructor needs; made by one of the three functions below. */
export interface InstanceStart {
  world: World;
  settings: EpisodeSettings;
  /** Host first, then mounts in declaration order. */
  stores: StoreStart[];
  carried?: CarriedHistory;
}

/**
 * The fixture an instance starts from: the one named, else the task's, else none (a blank instance). Throws
 * `InstanceError` for an unknown task (`unknown_task`) or a fixture other than the task's (`fixture_mismatch`).
 */
export function startingFixture(world: World, options: InstanceOptions): string | null {
  if (options.task === undefined) return options.fixture ?? null;
  const task = world.task(options.task);
  if (task === undefined) {
    throw new InstanceError(
      'unknown_task',
      `world "${world.name}" has no task "${options.task}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}`,
    );
  }
  if (options.fixture !== undefined && options.fixture !== task.fixture) {
    throw new InstanceError(
      'fixture_mismatch',
      `task "${task.id}" starts from fixture "${task.fixture}"; omit fixture or pass fixture: "${task.fixture}" (got "${options.fixture}")`,
    );
  }
  return task.fixture;
}

/** Check `options` and load the fixture. Throws `InstanceError` naming the option at fault. */
export function settingsOf(world: World, options: InstanceOptions): EpisodeSettings {
  const seed = options.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new InstanceError(
      'invalid_seed',
      `seed must be a whole number >= 0; got ${JSON.stringify(options.seed)}`,
    );
  const mode = options.clock ?? 'fixed';
  if (mode !== 'fixed' && mode !== 'tick')
    throw new InstanceError(
      'invalid_clock',
      `clock must be 'fixed' or 'tick'; got ${JSON.stringify(options.clock)}`,
    );
  const fixture = startingFixture(world, options);
  let loaded: LoadedFixture | null = null;
  if (fixture !== null) {
    if (!Object.hasOwn(world.fixtures, fixture)) {
      throw new InstanceError(
        'unknown_fixture',
        `world "${world.name}" has no fixture "${fixture}"; its fixtures are ${Object.keys(world.fixtures).join(', ') || '(none)'}`,
      );
    }
    loaded = loadFixture(world, fixture);
  }
  const startText = loaded?.now ?? world.epoch;
  let startMs = parseInstant(startText, 'the start instant');
  if (options.now !== undefined) {
    const requested = parseInstant(options.now, 'now');
    if (requested < startMs)
      throw new InstanceError(
        'invalid_now',
        `now (${options.now}) is earlier than the ${loaded ? `fixture's now (${startText})` : `world's epoch (${startText})`}; pick a later instant or omit it`,
      );
    startMs = requested;
  }
  const seedText = `${world.name}\u0000${fixture ?? ''}\u0000${seed}`;
  return {
    options,
    seed,
    mode,
    fixture,
    loaded,
    startMs,
    seedText,
    id: 'inst_' + hashHex(seedText).slice(0, 16),
    logger: options.logger ?? ((line) => console.error(line)),
    maxCallLogBytes: byteLimit(
      'maxCallLogBytes',
      options.maxCallLogBytes,
      DEFAULT_CALL_LOG_BYTES,
      0,
    ),
    maxDbGrowthBytes: byteLimit(
      'maxDbGrowthBytes',
      options.maxDbGrowthBytes,
      DEFAULT_DB_GROWTH_BYTES,
      0,
    ),
  };
}

const mountsByWorld = new WeakMap<World, [string | null, World][]>();

/** Each store from its fixture image (or blank), host first. */
function storesFromFixture(
  world: World,
  loaded: LoadedFixture | null,
  growth: number,
): StoreStart[] {
  let mounts = mountsByWorld.get(world);
  if (mounts === undefined) mountsByWorld.set(world, (mounts = [...worldsByMount(world)]));
  const stores: StoreStart[] = [];
  for (const [mount, w] of mounts) {
    const image = loaded ? loaded.resetImages.get(mount)! : null;
    stores.push({
      mount,
      world: w,
      image,
      base: loaded ? loaded.base.get(mount)! : null,
      connection: null,
      fromFixture: loaded !== null,
      limitBytes: (image?.length ?? 0) + growth,
    });
  }
  return stores;
}

/**
 * A new episode. From a fixture, it takes the connections a destroyed instance of that fixture left rolled back
 * (`recycled`, idle-connections.ts) when there are any, and begins its episode on them: a restart without the original.
 */
export function freshStart(
  world: World,
  options: InstanceOptions,
  recycled?: (loaded: LoadedFixture) => (Connection | null)[] | undefined,
): InstanceStart {
  const settings = settingsOf(world, options);
  const stores = storesFromFixture(world, settings.loaded, settings.maxDbGrowthBytes);
  const connections = settings.loaded === null ? undefined : recycled?.(settings.loaded);
  if (connections !== undefined) {
    try {
      for (const c of connections) c?.resume();
      stores.forEach((s, i) => (s.connection = connections[i]));
    } catch {
      // One that will not begin again is no use: the stores open their images as if none had been left.
      for (const c of connections) c?.close();
    }
  }
  return { world, settings, stores };
}

/**
 * A new episode from the same fixture as the one running on `connections` (one per store, host first, each able to
 * roll back to that fixture), taken over by the new instance. `handOver` is called only once the options passed.
 */
export function restartStart(
  world: World,
  options: InstanceOptions,
  handOver: () => (Connection | null)[],
): InstanceStart {
  const settings = settingsOf(world, options);
  const stores = storesFromFixture(world, settings.loaded, settings.maxDbGrowthBytes);
  const connections = handOver();
  stores.forEach((s, i) => (s.connection = connections[i]));
  return { world, settings, stores };
}

/** The episode of an instance with `settings`, from `images` and `blankBases` of its stores, carrying `carried` over. */
export function forkStart(
  world: World,
  settings: EpisodeSettings,
  id: string,
  snapshots: { image: StoreImage; blankBase: Buffer | null }[],
  carried: CarriedHistory,
): InstanceStart {
  const fromFixture = storesFromFixture(world, settings.loaded, settings.maxDbGrowthBytes);
  // A store the original never changed forks from the fixture's image itself; any other from its snapshot, which a
  // restart must not roll back to.
  const stores = fromFixture.map((s, i): StoreStart => ({
    ...s,
    image: snapshots[i].image,
    base: settings.loaded ? s.base : snapshots[i].blankBase,
    fromFixture: s.fromFixture && snapshots[i].image === s.image,
  }));
  return { world, settings: { ...settings, id }, stores, carried };
}
