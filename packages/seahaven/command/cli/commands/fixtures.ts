/** `seahaven fixtures build|list|verify`: freeze fixtures to committed images, list them, verify them. */
import { mkdirSync, writeFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld } from '../load-world.ts';
import {
  buildFixture,
  COMMITTED_IMAGE_LIMIT,
  imageFileName,
  loadFixture,
  forgetLoadedFixtures,
  undeclaredFixtureFiles,
  type FixtureMeta,
} from '../../../core/fixtures.ts';
import type { World } from '../../../core/world.ts';

function fixtureIds(world: World, only?: string): string[] {
  const ids = Object.keys(world.fixtures);
  if (only === undefined) return ids;
  if (!ids.includes(only))
    throw new CliError(
      `world "${world.name}" has no fixture "${only}"; its fixtures are ${ids.join(', ') || '(none)'}`,
      2,
    );
  return [only];
}

function needDir(world: World): string {
  if (world.fixturesDir === null)
    throw new CliError(
      `world "${world.name}" has no fixturesDir; add fixturesDir: new URL('./fixtures/', import.meta.url) to defineWorld`,
    );
  return world.fixturesDir;
}

/**
 * Write an image aside and rename it into place: a server that reads a fixture's starting rows from its file keeps the
 * file it opened, so a build while it runs replaces the image instead of rewriting the bytes under it.
 */
function writeAside(file: string, bytes: Buffer): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
}

function kb(bytes: number): string {
  return bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : `${(bytes / 1024).toFixed(1)} KB`;
}

export function registerFixtures(program: Command): void {
  const fixtures = program
    .command('fixtures')
    .description('build, list and verify frozen fixture images');

  fixtures
    .command('build')
    .description(
      'run each fixture builder and freeze the result to <fixturesDir>/<id>.sqlite + <id>.json',
    )
    .option(
      '-w, --world <world>',
      'example world name or module path (default: ./world.ts, else crm)',
    )
    .option('-f, --fixture <id>', 'only this fixture')
    .option(
      '--check',
      'do not write; fail if a rebuild does not reproduce the committed sha256, or the folder holds files no fixture declares',
    )
    .action(async (opts: { world?: string; fixture?: string; check?: boolean }) => {
      const world = await loadWorld(opts.world);
      const dir = needDir(world);
      // Parents first, so a child built from a parent sees the parent's fresh image.
      const order = orderByParent(world, fixtureIds(world, opts.fixture));
      let stale = 0;
      for (const id of order) {
        const started = performance.now();
        const built = buildFixture(world, id);
        const ms = (performance.now() - started).toFixed(0);
        const sidecar = join(dir, `${id}.json`);
        if (opts.check) {
          const old = existsSync(sidecar)
            ? (JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta)
            : null;
          const same =
            old !== null &&
            old.sha256 === built.meta.sha256 &&
            JSON.stringify(old.stores ?? null) === JSON.stringify(built.meta.stores ?? null);
          if (!same) stale++;
          process.stdout.write(
            `${same ? 'ok   ' : 'STALE'} ${world.name}/${id}  sha256 ${built.meta.sha256.slice(0, 12)}${old ? ` (committed ${old.sha256.slice(0, 12)})` : ' (not committed)'}  ${kb(built.meta.bytes)}  ${ms} ms\n`,
          );
        } else {
          mkdirSync(dir, { recursive: true });
          for (const [mount, bytes] of built.images)
            writeAside(join(dir, imageFileName(id, mount)), bytes);
          writeFileSync(sidecar, JSON.stringify(built.meta, null, 2) + '\n');
          forgetLoadedFixtures(world);
          process.stdout.write(
            `built ${world.name}/${id}  ${kb(built.meta.bytes)}  sha256 ${built.meta.sha256.slice(0, 12)}  ${ms} ms\n`,
          );
        }
      }
      // Images of fixtures (or mounts) that are no longer declared: a full build removes them, --check reports them.
      if (opts.fixture === undefined) {
        for (const file of undeclaredFixtureFiles(world)) {
          if (opts.check) {
            stale++;
            process.stdout.write(`STALE ${join(dir, file)}  no fixture declares it\n`);
          } else {
            rmSync(join(dir, file));
            process.stdout.write(`removed ${join(dir, file)}  no fixture declares it\n`);
          }
        }
      }
      if (!opts.check) ignoreLargeImages(world, dir);
      if (stale > 0)
        throw new CliError(
          `${stale} fixture file(s) differ from a rebuild; run \`${opts.world === undefined ? 'npx seahaven fixtures build' : `npx seahaven fixtures build --world ${opts.world}`}\` and commit the images`,
        );
    });

  fixtures
    .command('list')
    .description('list fixtures with difficulty, size and description')
    .option('-w, --world <world>', 'example world name or module path')
    .action(async (opts: { world?: string }) => {
      const world = await loadWorld(opts.world);
      for (const [id, f] of Object.entries(world.fixtures)) {
        const sidecar = world.fixturesDir ? join(world.fixturesDir, `${id}.json`) : null;
        const meta =
          sidecar && existsSync(sidecar)
            ? (JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta)
            : null;
        process.stdout.write(
          `${id.padEnd(16)} difficulty ${String(f.difficulty ?? '-').padEnd(3)} ${meta ? kb(meta.bytes).padStart(9) : '(not built)'.padStart(11)}  ${f.description}\n`,
        );
      }
    });

  fixtures
    .command('verify')
    .description('load every fixture image and verify its sha256 and schema hash')
    .option('-w, --world <world>', 'example world name or module path')
    .action(async (opts: { world?: string }) => {
      const world = await loadWorld(opts.world);
      needDir(world);
      for (const id of Object.keys(world.fixtures)) {
        loadFixture(world, id);
        process.stdout.write(`ok ${world.name}/${id}\n`);
      }
    });
}

const IGNORE_HEADER =
  '# Fixture images over 1 MiB are not committed: their sidecars pin the sha256, and the first use rebuilds them\n# (written by `seahaven fixtures build`).\n';

/**
 * Keep `<fixturesDir>/.gitignore` listing exactly the images over the commit limit, so they stay out of the
 * repository while their sidecars (with the hash) are committed.
 */
function ignoreLargeImages(world: World, dir: string): void {
  const large: string[] = [];
  for (const id of Object.keys(world.fixtures)) {
    const sidecar = join(dir, `${id}.json`);
    if (!existsSync(sidecar)) continue;
    const meta = JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta;
    if (meta.bytes > COMMITTED_IMAGE_LIMIT) large.push(imageFileName(id, null));
    for (const [mount, store] of Object.entries(meta.stores ?? {}))
      if (store.bytes > COMMITTED_IMAGE_LIMIT) large.push(imageFileName(id, mount));
  }
  const file = join(dir, '.gitignore');
  if (large.length === 0) {
    if (existsSync(file) && readFileSync(file, 'utf8').startsWith(IGNORE_HEADER)) rmSync(file);
    return;
  }
  writeFileSync(file, IGNORE_HEADER + large.sort().join('\n') + '\n');
  process.stdout.write(
    `not committed (over 1 MiB, rebuilt on first use): ${large.join(', ')}; listed in ${file}\n`,
  );
}

function orderByParent(world: World, ids: string[]): string[] {
  const out: string[] = [];
  const visit = (id: string) => {
    if (out.includes(id)) return;
    const parent = world.fixtures[id].parent;
    if (parent !== undefined && ids.includes(parent)) visit(parent);
    out.push(id);
  };
  ids.forEach(visit);
  return out;
}
