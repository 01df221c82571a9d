/**
 * Connections of destroyed instances, kept for the next instance of the same fixture. A connection opened on a fixture
 * image runs its episode as one transaction (connection.ts); rolling it back restores the fixture's pages byte for
 * byte, which is how `inst.restart()` and the server's resets begin a new episode in microseconds. `destroy()` does the
 * same for `world.instance()`: it rolls its connections back and leaves them here, and the next `world.instance()` of
 * that fixture takes them instead of deserializing the image, parsing the schema and preparing its statements again.
 *
 * Idle connections hold their database's pages, so each fixture keeps a few, within a byte budget: an image larger
 * than the budget is never kept (Stripe World's 747 MB `big_co` reopens from its image every time).
 */
import type { Connection } from './connection.ts';
import type { LoadedFixture } from './fixtures.ts';

/** Idle connection sets (one connection or null per store, host first) a fixture keeps at most. */
const MAX_PER_FIXTURE = 4;
/** The bytes of images a fixture's idle connections may hold in all. */
const BYTES_PER_FIXTURE = 64 * 1024 * 1024;

const idle = new WeakMap<LoadedFixture, (Connection | null)[][]>();

/** How many connection sets the fixture may keep: as many as fit the byte budget, up to `MAX_PER_FIXTURE`. */
function room(loaded: LoadedFixture): number {
  let bytes = 0;
  for (const image of loaded.resetImages.values()) bytes += image.length;
  return Math.min(MAX_PER_FIXTURE, Math.floor(BYTES_PER_FIXTURE / Math.max(1, bytes)));
}

/** Whether a destroyed instance of `loaded` may leave its connections: the fixture keeps fewer than its room. */
export function hasIdleRoom(loaded: LoadedFixture): boolean {
  return (idle.get(loaded)?.length ?? 0) < room(loaded);
}

/** Keep `connections`, rolled back to `loaded`'s images, for the next instance; false (and nothing kept) when full. */
export function keepIdle(loaded: LoadedFixture, connections: (Connection | null)[]): boolean {
  let list = idle.get(loaded);
  if (list === undefined) idle.set(loaded, (list = []));
  if (list.length >= room(loaded)) return false;
  list.push(connections);
  return true;
}

/** Connections a destroyed instance of `loaded` left, taken by the caller; undefined when there are none. */
export function takeIdle(loaded: LoadedFixture): (Connection | null)[] | undefined {
  return idle.get(loaded)?.pop();
}
