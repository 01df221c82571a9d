/**
 * The fixtures check: every fixture is frozen next to the world with a valid sidecar, its image matches the recorded
 * sha256 and the current schema, and running its builder again reproduces the committed image exactly (run twice
 * when it does not, to tell a stale image from a builder that is not deterministic).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  buildFixture,
  COMMITTED_IMAGE_LIMIT,
  imageFileName,
  keepImages,
  sha256,
  undeclaredFixtureFiles,
  type FixtureMeta,
} from '../../core/fixtures.ts';
import { schemaHash } from '../../core/schema.ts';
import type { World } from '../../core/world.ts';
import { finding, type Finding } from './codes.ts';
import type { Check } from './check.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** What is wrong with a parsed sidecar, or null when its shape is valid. */
function sidecarProblem(meta: unknown, id: string): string | null {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    return 'it is not a JSON object';
  const m = meta as Record<string, unknown>;
  if (m.id !== id) return `its id is ${JSON.stringify(m.id)}, not "${id}"`;
  if (typeof m.sha256 !== 'string' || !HEX64.test(m.sha256)) return 'sha256 is not 64 hex digits';
  if (typeof m.schema_hash !== 'string' || !HEX64.test(m.schema_hash))
    return 'schema_hash is not 64 hex digits';
  if (typeof m.now !== 'string' || !ISO.test(m.now))
    return 'now is not an ISO-8601 instant with milliseconds and Z';
  if (m.parent !== null && typeof m.parent !== 'string')
    return 'parent is neither a fixture id nor null';
  if (typeof m.description !== 'string') return 'description is not a string';
  if (m.difficulty !== null && typeof m.difficulty !== 'number')
    return 'difficulty is neither a number nor null';
  if (!Number.isInteger(m.bytes)) return 'bytes is not an integer';
  return null;
}

/** sha256 of each store of a built fixture, host first: what a rebuild must reproduce. */
function fingerprint(meta: FixtureMeta): string {
  return JSON.stringify([meta.sha256, meta.stores ?? null]);
}

function rebuild(
  world: World,
  id: string,
): { meta: FixtureMeta; images: ReadonlyMap<string | null, Buffer> } | { error: Error } {
  try {
    const built = buildFixture(world, id);
    return { meta: built.meta, images: built.images };
  } catch (e) {
    return { error: e instanceof Error ? e : new Error(String(e)) };
  }
}

export function checkFixtures(world: World, ref: string, file: string | null = null): Finding[] {
  const out: Finding[] = [];
  const ids = Object.keys(world.fixtures);
  const build = `npx seahaven fixtures build --world ${ref}`;
  const dir = world.fixturesDir;
  if (ids.length > 0 && dir === null) {
    out.push(
      finding(
        'SH309',
        `World "${world.name}" declares ${ids.length} fixture(s) but no fixturesDir, so every process rebuilds them and nothing pins their bytes.`,
        {
          fix: `Add \`fixturesDir: new URL('./fixtures/', import.meta.url)\` to defineWorld, run \`${build}\` and commit the images.`,
          location: { ...(file ? { file } : {}), object: `world ${world.name}` },
        },
      ),
    );
  }
  for (const id of ids) {
    const spec = world.fixtures[id];
    const object = `fixture ${id}`;
    const buildFix = `Run \`${build} --fixture ${id}\`${spec.parent ? ` (after its parent ${spec.parent})` : ''} and commit the result.`;
    const reproduce = (committed: FixtureMeta | null) => {
      const first = rebuild(world, id);
      if ('error' in first) {
        out.push(
          finding(
            'SH307',
            `The builder of fixture "${id}" throws: ${first.error.message.split('\n')[0]}`,
            {
              fix: `Fix the builder; \`${build} --fixture ${id}\` shows the error with its stack.`,
              location: { object },
            },
          ),
        );
        return;
      }
      if (committed !== null && fingerprint(first.meta) === fingerprint(committed)) {
        // A fixture too large to commit was just built and matches its sidecar: keep it, as its first use would, so
        // the determinism smoke and the next process do not build it again.
        if (
          dir !== null &&
          [...first.images.keys()].some((mount) => !existsSync(join(dir, imageFileName(id, mount))))
        )
          keepImages(id, first.images, dir);
        return;
      }
      const second = rebuild(world, id);
      if ('meta' in second && fingerprint(second.meta) !== fingerprint(first.meta)) {
        out.push(
          finding(
            'SH306',
            `Building fixture "${id}" twice gives two different images (sha256 ${first.meta.sha256.slice(0, 12)}… and ${second.meta.sha256.slice(0, 12)}…).`,
            { location: { object } },
          ),
        );
      } else if (committed !== null) {
        out.push(
          finding(
            'SH305',
            `Rebuilding fixture "${id}" gives sha256 ${first.meta.sha256.slice(0, 12)}…, not the committed ${committed.sha256.slice(0, 12)}…: the builder or what it uses changed since the freeze.`,
            { fix: buildFix, location: { object } },
          ),
        );
      }
    };
    if (dir === null) {
      reproduce(null);
      continue;
    }

    const sidecar = join(dir, `${id}.json`);
    const image = join(dir, imageFileName(id, null));
    // An image over the commit limit is absent on purpose: its sidecar pins the hash, and the first use rebuilds it.
    const missing = [sidecar, image].filter(
      (f) => !existsSync(f) && !(f === image && buildsOnFirstUse(sidecar)),
    );
    if (missing.length > 0) {
      out.push(
        finding(
          'SH301',
          `Fixture "${id}" is not frozen: ${missing.join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not exist.`,
          { fix: buildFix, location: { file: missing[0], object } },
        ),
      );
      continue;
    }
    let meta: FixtureMeta;
    try {
      meta = JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta;
    } catch (e) {
      out.push(
        finding(
          'SH302',
          `The sidecar of fixture "${id}" is not valid JSON: ${(e as Error).message}.`,
          { fix: buildFix, location: { file: sidecar, object } },
        ),
      );
      continue;
    }
    const problem = sidecarProblem(meta, id);
    if (problem) {
      out.push(
        finding('SH302', `The sidecar of fixture "${id}" is invalid: ${problem}.`, {
          fix: buildFix,
          location: { file: sidecar, object },
        }),
      );
      continue;
    }

    let intact = true;
    const stores: [string | null, World, { sha256: string; schema_hash: string } | undefined][] = [
      [null, world, meta],
    ];
    for (const [mount, m] of Object.entries(world.mounts))
      stores.push([mount, m.world, meta.stores?.[mount]]);
    for (const [mount, w, recorded] of stores) {
      const file = join(dir, imageFileName(id, mount));
      if (recorded && !existsSync(file) && buildsOnFirstUse(sidecar, mount)) {
        // Nothing to read: the rebuild below proves the recipe still gives the recorded hash.
        if (recorded.schema_hash !== w.schemaHash) {
          out.push(
            finding(
              'SH304',
              `Fixture "${id}"${mount ? ` (store ${mount})` : ''} was frozen for another schema of ${w.name}: schema.sql changed since.`,
              { fix: buildFix, location: { file: sidecar, object } },
            ),
          );
          intact = false;
        }
        continue;
      }
      if (!recorded || !existsSync(file)) {
        out.push(
          finding('SH301', `Fixture "${id}" has no frozen store for mount "${mount}" (${file}).`, {
            fix: buildFix,
            location: { file, object },
          }),
        );
        intact = false;
        continue;
      }
      const bytes = readFileSync(file);
      if (sha256(bytes) !== recorded.sha256) {
        out.push(
          finding(
            'SH303',
            `${file} has sha256 ${sha256(bytes).slice(0, 12)}…, but its sidecar records ${recorded.sha256.slice(0, 12)}…: the image was changed after the freeze.`,
            { fix: buildFix, location: { file, object } },
          ),
        );
        intact = false;
      }
      const probe = new Database(bytes, { readonly: true });
      let actual: string;
      try {
        actual = schemaHash(probe);
      } finally {
        probe.close();
      }
      if (recorded.schema_hash !== w.schemaHash || actual !== w.schemaHash) {
        out.push(
          finding(
            'SH304',
            `Fixture "${id}"${mount ? ` (store ${mount})` : ''} was frozen for another schema of ${w.name}: schema.sql changed since.`,
            { fix: buildFix, location: { file, object } },
          ),
        );
        intact = false;
      }
    }

    const declared = {
      now: new Date(Date.parse(spec.now)).toISOString(),
      parent: spec.parent ?? null,
      description: spec.description,
      difficulty: spec.difficulty ?? null,
    };
    const drift = (Object.keys(declared) as (keyof typeof declared)[]).filter(
      (k) => meta[k] !== declared[k],
    );
    if (drift.length > 0) {
      out.push(
        finding(
          'SH308',
          `The sidecar of fixture "${id}" disagrees with its declaration on ${drift.join(', ')}.`,
          { fix: buildFix, location: { file: sidecar, object } },
        ),
      );
    }
    // A rebuild cannot match an image that was tampered with or frozen for another schema; those findings say enough.
    if (intact) reproduce(meta);
  }
  const undeclared = undeclaredFixtureFiles(world);
  if (dir !== null && undeclared.length > 0) {
    out.push(
      finding(
        'SH311',
        `${dir} holds ${undeclared.length} file(s) that no fixture of "${world.name}" declares: ${undeclared.join(', ')}. Every process still ships them.`,
        {
          fix: `Run \`${build}\`, which removes them, and commit the removal.`,
          location: { file: join(dir, undeclared[0]), object: `world ${world.name}` },
        },
      ),
    );
  }
  return out;
}

export const fixturesCheck: Check = {
  name: 'fixtures',
  description:
    'frozen images with valid sidecars, matching sha256 and schema, reproduced exactly by a rebuild',
  run(target) {
    return target.world ? checkFixtures(target.world, target.ref, target.file) : [];
  },
};

/**
 * Whether a sidecar records the image of a store (`null`: the host's) over the commit limit, which is built on first
 * use instead of committed.
 */
function buildsOnFirstUse(sidecar: string, mount: string | null = null): boolean {
  try {
    const meta = JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta;
    const bytes = mount === null ? meta.bytes : meta.stores?.[mount]?.bytes;
    return typeof bytes === 'number' && bytes > COMMITTED_IMAGE_LIMIT;
  } catch {
    return false;
  }
}
