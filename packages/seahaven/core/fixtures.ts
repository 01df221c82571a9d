/**
 * Fixtures: frozen starting states. `buildFixture` runs a fixture's deterministic builder on a blank (or parent)
 * instance and freezes each store to bytes; `loadFixture` reads the committed images once per process, verifies their
 * sha256 and schema hash, adds the change-capture triggers and caches the resulting image that every reset deserializes.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MAX_DB_BYTES } from './connection.ts';
import { InstanceError } from './errors.ts';
import { rebuildCommand } from './fixture-command.ts';
import { runFixtureBuild, storeDatabases } from './instance-internals.ts';
import { captureTriggersSql, dropCaptureTriggersSql, RowReader } from './capture-sql.ts';
import { openCost, openEstimate, storeImageOf, type StoreImage } from './cow-pages.ts';
import { schemaHash, type TableInfo } from './schema.ts';
import { worldsByMount } from './mount.ts';
import type { World } from './world-types.ts';

/** The sidecar written next to each frozen image (`<id>.json`). */
export interface FixtureMeta {
  id: string;
  sha256: string;
  schema_hash: string;
  now: string;
  parent: string | null;
  description: string;
  difficulty: number | null;
  bytes: number;
  /** Composed sub-world stores, frozen beside the host image as `<id>.<mount>.sqlite`. */
  stores?: Record<string, { sha256: string; schema_hash: string; bytes: number }>;
}

export interface LoadedFixture {
  id: string;
  sha256: string;
  now: string;
  /**
   * What every reset opens, by mount (`null` = host): the frozen image with the capture triggers added, as bytes to
   * deserialize or, for a big one, a base that episodes share copy-on-write (cow-pages.ts).
   */
  resetImages: Map<string | null, StoreImage>;
  /** Read-only readers over the frozen images: where every row started, shared by all instances. */
  base: Map<string | null, RowReader>;
}

export interface BuiltFixture {
  meta: FixtureMeta;
  /** Frozen bytes by mount (`null` = host). */
  images: Map<string | null, Buffer>;
}

const loadedByWorld = new WeakMap<World, Map<string, LoadedFixture>>();

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Run a fixture's builder and freeze every store to bytes. Deterministic: the same world gives the same bytes. */
export function buildFixture(world: World, id: string): BuiltFixture {
  const spec = Object.hasOwn(world.fixtures, id) ? world.fixtures[id] : undefined;
  if (!spec)
    throw new InstanceError('unknown_fixture', `world "${world.name}" has no fixture "${id}"`);
  const inst = world.instance({
    fixture: spec.parent,
    seed: 0,
    clock: 'fixed',
    now: spec.now,
    maxDbGrowthBytes: MAX_DB_BYTES,
  });
  try {
    inst[runFixtureBuild]((ctx) => spec.build(ctx));
    const images = new Map<string | null, Buffer>();
    const worlds = worldsByMount(world);
    for (const [mount, db] of inst[storeDatabases]()) {
      const copy = new Database(db.serialize());
      try {
        copy.exec(dropCaptureTriggersSql(worlds.get(mount)!.trackedTables));
        copy.exec('VACUUM');
        images.set(mount, copy.serialize());
      } finally {
        copy.close();
      }
    }
    const host = images.get(null)!;
    const meta: FixtureMeta = {
      id,
      sha256: sha256(host),
      schema_hash: world.schemaHash,
      now: new Date(Date.parse(spec.now)).toISOString(),
      parent: spec.parent ?? null,
      description: spec.description,
      difficulty: spec.difficulty ?? null,
      bytes: host.length,
    };
    if (Object.keys(world.mounts).length > 0) {
      meta.stores = {};
      for (const [mount, w] of worlds) {
        if (mount === null) continue;
        const bytes = images.get(mount)!;
        meta.stores[mount] = {
          sha256: sha256(bytes),
          schema_hash: w.schemaHash,
          bytes: bytes.length,
        };
      }
    }
    return { meta, images };
  } finally {
    inst.destroy();
  }
}

/** Images larger than this are not committed: the sidecar pins their hash, and the first use builds them (`buildOnFirstUse`). */
export const COMMITTED_IMAGE_LIMIT = 1_048_576;

/**
 * A fixture with an image not in the folder (the host's or a mounted world's store, too large to commit): build it from
 * its recipe, check that every store has the sha256 the committed sidecar records, and keep it in the folder for the next process (where the folder is
 * writable; an installed, read-only copy keeps it in memory). A recipe that no longer reproduces the hash is refused.
 */
function buildOnFirstUse(
  world: World,
  id: string,
  meta: FixtureMeta,
  dir: string,
): Map<string | null, Buffer> {
  const built = buildFixture(world, id);
  for (const [mount, bytes] of built.images) {
    const expected = mount === null ? meta.sha256 : meta.stores?.[mount]?.sha256;
    if (sha256(bytes) !== expected)
      refuse(
        world,
        id,
        `was rebuilt because its image is not in ${dir}, but the rebuild does not reproduce the sha256 its sidecar records (the builder or schema changed since)`,
      );
  }
  keepImages(id, built.images, dir);
  return built.images;
}

/**
 * Keep the images of a fixture built from its recipe in the fixtures folder, where later processes find them (a
 * fixture too large to commit, rebuilt and checked against its sidecar). A read-only folder keeps nothing.
 */
export function keepImages(
  id: string,
  images: ReadonlyMap<string | null, Buffer>,
  dir: string,
): void {
  for (const [mount, bytes] of images) {
    const file = join(dir, imageFileName(id, mount));
    const partial = `${file}.${process.pid}.partial`;
    try {
      // Written aside and renamed, so another process starting at the same time never reads half an image.
      writeFileSync(partial, bytes);
      renameSync(partial, file);
      pinFile(bytes, file, identityOf(file));
    } catch {
      // A read-only install: the image lives in this process only.
      rmSync(partial, { force: true });
    }
  }
}

/** File names of a fixture's images inside the fixtures folder, by mount. */
export function imageFileName(id: string, mount: string | null): string {
  return mount === null ? `${id}.sqlite` : `${id}.${mount}.sqlite`;
}

/**
 * Images and sidecars in the world's fixturesDir that no declared fixture writes (left behind by a removed or renamed
 * fixture or mount), sorted. `seahaven fixtures build` removes them and `seahaven check` reports them.
 * @example undeclaredFixtureFiles(world); // ['old_fixture.json', 'old_fixture.sqlite']
 */
export function undeclaredFixtureFiles(world: World): string[] {
  if (world.fixturesDir === null || !existsSync(world.fixturesDir)) return [];
  const declared = new Set<string>();
  for (const id of Object.keys(world.fixtures)) {
    declared.add(`${id}.json`).add(imageFileName(id, null));
    for (const mount of Object.keys(world.mounts)) declared.add(imageFileName(id, mount));
  }
  return readdirSync(world.fixturesDir)
    .filter((f) => (f.endsWith('.sqlite') || f.endsWith('.json')) && !declared.has(f))
    .sort();
}

/** A file's identity: the same inode, size and modification time mean the same bytes. */
interface FileIdentity {
  file: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The file each image read or kept was found to hold, by the image's bytes. */
const imageFiles = new WeakMap<Buffer, FileIdentity>();

function identityOf(file: string): FileIdentity | null {
  try {
    const st = statSync(file);
    return { file, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

const sameFile = (a: FileIdentity | null, b: FileIdentity | null) =>
  a !== null &&
  b !== null &&
  a.file === b.file &&
  a.ino === b.ino &&
  a.size === b.size &&
  a.mtimeMs === b.mtimeMs;

/** Remember that `file` holds `bytes`, when nothing changed it while they were read or written. */
function pinFile(bytes: Buffer, file: string, before: FileIdentity | null): void {
  const after = identityOf(file);
  if (sameFile(before, after) && after!.size === bytes.length) imageFiles.set(bytes, after!);
}

/**
 * The read-only database a fixture's starting rows are read from: the image's file, when it is still the file the
 * image was read from (or written to), so that the process holds one copy of the image (the reset image) and SQLite's
 * page cache of the file rather than a second copy; else a copy of `bytes` in memory (a fixture built in memory, or one
 * whose folder could not keep its image). The connection keeps the file it opened, so a build that replaces the file
 * later (`fixtures build` writes aside and renames) does not change what it reads.
 */
function baseDatabase(bytes: Buffer): InstanceType<typeof Database> {
  const pinned = imageFiles.get(bytes);
  if (pinned !== undefined) {
    let db: InstanceType<typeof Database> | undefined;
    try {
      db = new Database(pinned.file, { readonly: true, fileMustExist: true });
      // A first read, so a file SQLite cannot read read-only (a journal left beside it) falls back here, not later.
      db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
      // Opened by path: still the same file after the open, so the connection holds the bytes that were checked.
      if (sameFile(pinned, identityOf(pinned.file))) return db;
    } catch {
      // Not openable: the copy in memory serves.
    }
    db?.close();
  }
  return new Database(bytes, { readonly: true });
}

/** `bytes` with the change-capture triggers of `tables` added. */
function withCaptureTriggers(bytes: Buffer, tables: readonly TableInfo[]): Buffer {
  const db = new Database(bytes);
  try {
    db.exec(captureTriggersSql(tables));
    return db.serialize();
  } finally {
    db.close();
  }
}

function refuse(world: World, id: string, why: string): never {
  throw new InstanceError(
    'fixture_invalid',
    `fixture "${id}" of world "${world.name}" ${why}; rebuild it with \`${rebuildCommand(world)}\` (and commit the result)`,
  );
}

/** The committed images of a fixture, each checked against its sidecar and the world's schema. */
function readFrozenImages(
  world: World,
  id: string,
  meta: FixtureMeta,
  dir: string,
): Map<string | null, Buffer> {
  const images = new Map<string | null, Buffer>();
  for (const [mount, w] of worldsByMount(world)) {
    const file = join(dir, imageFileName(id, mount));
    if (!existsSync(file)) refuse(world, id, `is missing ${file}`);
    const before = identityOf(file);
    const bytes = readFileSync(file);
    pinFile(bytes, file, before);
    const expected = mount === null ? meta : meta.stores?.[mount];
    if (!expected) refuse(world, id, `has no sidecar entry for store "${mount}"`);
    if (sha256(bytes) !== expected.sha256)
      refuse(world, id, `does not match its recorded sha256 (${file} was modified)`);
    if (expected.schema_hash !== w.schemaHash)
      refuse(world, id, `was built for another schema of ${w.name} (schema.sql changed since)`);
    const probe = new Database(bytes, { readonly: true });
    try {
      if (schemaHash(probe) !== w.schemaHash)
        refuse(world, id, `contains a schema that differs from ${w.name}'s schema`);
    } finally {
      probe.close();
    }
    images.set(mount, bytes);
  }
  return images;
}

/** Read, verify and prepare a fixture's reset images once per process (built in memory when the world has no fixtures folder). */
export function loadFixture(world: World, id: string): LoadedFixture {
  let cache = loadedByWorld.get(world);
  if (!cache) loadedByWorld.set(world, (cache = new Map()));
  const hit = cache.get(id);
  if (hit) return hit;

  const worlds = worldsByMount(world);
  let images: Map<string | null, Buffer>;
  let meta: FixtureMeta;
  if (world.fixturesDir === null) {
    ({ images, meta } = buildFixture(world, id));
  } else {
    const dir = world.fixturesDir;
    const sidecar = join(dir, `${id}.json`);
    if (!existsSync(sidecar)) refuse(world, id, `has no frozen image in ${dir}`);
    try {
      meta = JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta;
    } catch (e) {
      refuse(world, id, `has an unreadable sidecar ${sidecar} (${(e as Error).message})`);
    }
    // A store's image over the commit limit (the host's or a mounted world's) is not committed: build it on first use.
    const complete = [...worlds.keys()].every((mount) =>
      existsSync(join(dir, imageFileName(id, mount))),
    );
    images = complete
      ? readFrozenImages(world, id, meta, dir)
      : buildOnFirstUse(world, id, meta, dir);
  }
  const resetImages = new Map<string | null, StoreImage>();
  const base = new Map<string | null, RowReader>();
  for (const [mount, w] of worlds) {
    const bytes = images.get(mount)!;
    const reset = withCaptureTriggers(bytes, w.trackedTables);
    resetImages.set(mount, storeImageOf(reset, world));
    base.set(mount, new RowReader(baseDatabase(bytes), w.trackedTables));
  }
  const loaded: LoadedFixture = { id, sha256: meta.sha256, now: meta.now, resetImages, base };
  cache.set(id, loaded);
  return loaded;
}

const footprints = new WeakMap<World, Map<string, number>>();

/**
 * A fixture's image bytes (every store's), whether it is loaded, and what opening an episode adds (a copy of the images,
 * or a page cache per copy-on-write store): what a server weighs before an episode. Read from the loaded images, else
 * the sidecar, loading nothing; 0 for images built in memory (no fixtures folder) or an unreadable sidecar. */
export function fixtureFootprint(
  world: World,
  id: string,
): { bytes: number; loaded: boolean; openBytes: number } {
  const hit = loadedByWorld.get(world)?.get(id);
  if (hit) {
    let bytes = 0;
    let openBytes = 0;
    for (const image of hit.resetImages.values()) {
      bytes += image.length;
      openBytes += openCost(image);
    }
    return { bytes, loaded: true, openBytes };
  }
  let known = footprints.get(world);
  if (!known) footprints.set(world, (known = new Map()));
  let bytes = known.get(id);
  if (bytes === undefined) {
    bytes = 0;
    if (world.fixturesDir !== null) {
      try {
        const meta = JSON.parse(
          readFileSync(join(world.fixturesDir, `${id}.json`), 'utf8'),
        ) as FixtureMeta;
        bytes =
          (Number(meta.bytes) || 0) +
          Object.values(meta.stores ?? {}).reduce((n, s) => n + (Number(s.bytes) || 0), 0);
      } catch {
        // Loading it will say what is wrong.
      }
    }
    known.set(id, bytes);
  }
  const stores = 1 + Object.keys(world.mounts).length;
  return { bytes, loaded: false, openBytes: openEstimate(bytes, stores, world) };
}

/** Forget loaded fixtures (tests that rewrite images). */
export function forgetLoadedFixtures(world: World): void {
  loadedByWorld.delete(world);
}
