/**
 * Fixtures of a composed world whose mounted store is too large to commit: `fixtures build` leaves that image out (its
 * sidecar pins the hash), and the first use rebuilds it, while the host's image, committed, is read as it is. Errors
 * about fixtures name a rebuild command that works from where they are read.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z, type World } from '../index.ts';
import { buildFixture, COMMITTED_IMAGE_LIMIT, imageFileName } from '../fixtures.ts';
import { checkFixtures } from '../../command/check/fixtures.ts';
import { rebuildCommand, worldArgument } from '../fixture-command.ts';
import { crm } from '../../../../worlds/crm/index.ts';

const temp = mkdtempSync(join(tmpdir(), 'seahaven-mounted-fixtures-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const archive = defineWorld({
  name: 'archive',
  version: '1.0.0',
  schema: 'CREATE TABLE files (id TEXT PRIMARY KEY, body BLOB NOT NULL) STRICT;',
  tools: [
    defineTool({
      name: 'store_file',
      description: 'Store a file of zero bytes of the given size.',
      input: z.object({
        bytes: z.number().int().min(0).max(4_000_000).describe('Size in bytes, like 1024.'),
      }),
      run(ctx, { bytes }) {
        const id = ctx.ids.token('file_', 8);
        ctx.db.run('INSERT INTO files (id, body) VALUES (?, zeroblob(?))', id, bytes);
        return { id };
      },
    }),
  ],
});

/** A project folder holding world.ts, whose world mounts `archive` and freezes one fixture with a 1.2 MB archive store. */
function project(name: string): { dir: string; world: World } {
  const dir = join(temp, name);
  mkdirSync(join(dir, 'fixtures'), { recursive: true });
  writeFileSync(join(dir, 'world.ts'), '// the module that exports the world\n');
  const world = defineWorld({
    name,
    version: '1.0.0',
    schema: 'CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL) STRICT;',
    tools: [
      defineTool({
        name: 'count_notes',
        description: 'Count the notes.',
        input: z.object({}),
        run: (ctx) => ctx.db.one('SELECT count(*) AS n FROM notes'),
      }),
    ],
    worlds: { archive: { world: archive, prefix: 'archive_' } },
    fixturesDir: join(dir, 'fixtures'),
    fixtures: {
      filled: {
        description: 'One note and a large file in the archive.',
        now: '2026-06-01T09:00:00.000Z',
        build(ctx) {
          ctx.db.run("INSERT INTO notes (id, text) VALUES ('n1', 'hello')");
          ctx.worlds.archive.call('store_file', { bytes: 1_200_000 });
        },
      },
    },
  });
  return { dir, world };
}

/** What `seahaven fixtures build` commits: every image at or under the limit, and the sidecar. */
function freezeAsCommitted(world: World, dir: string): void {
  const built = buildFixture(world, 'filled');
  for (const [mount, bytes] of built.images)
    if (bytes.length <= COMMITTED_IMAGE_LIMIT)
      writeFileSync(join(dir, 'fixtures', imageFileName('filled', mount)), bytes);
  writeFileSync(join(dir, 'fixtures', 'filled.json'), JSON.stringify(built.meta, null, 2) + '\n');
}

describe('a mounted store too large to commit', () => {
  it('is rebuilt on first use, checked against its sidecar, and kept', () => {
    const { dir, world } = project('rebuilt');
    freezeAsCommitted(world, dir);
    const mounted = join(dir, 'fixtures', 'filled.archive.sqlite');
    expect(existsSync(join(dir, 'fixtures', 'filled.sqlite'))).toBe(true);
    expect(existsSync(mounted)).toBe(false);
    const inst = world.instance({ fixture: 'filled' });
    try {
      expect(inst.queryStore('archive', 'SELECT length(body) AS n FROM files')).toEqual([
        { n: 1_200_000 },
      ]);
      expect(inst.call('count_notes', {})).toEqual({ ok: true, result: { n: 1 } });
    } finally {
      inst.destroy();
    }
    const meta = JSON.parse(readFileSync(join(dir, 'fixtures', 'filled.json'), 'utf8'));
    expect(readFileSync(mounted).length).toBe(meta.stores.archive.bytes);
  });

  it('passes the fixtures check while absent, and the check keeps the image it rebuilt', () => {
    const { dir, world } = project('checked');
    freezeAsCommitted(world, dir);
    expect(checkFixtures(world, '.')).toEqual([]);
    expect(existsSync(join(dir, 'fixtures', 'filled.archive.sqlite'))).toBe(true);
  });

  it('a committed image that is missing is still reported', () => {
    const { dir, world } = project('forgotten');
    freezeAsCommitted(world, dir);
    rmSync(join(dir, 'fixtures', 'filled.sqlite'));
    expect(checkFixtures(world, '.').map((f) => f.code)).toEqual(['SH301']);
  });
});

describe('the rebuild command in messages', () => {
  it('names an example world of the kit by name', () => {
    expect(rebuildCommand(crm)).toBe('npx seahaven fixtures build --world crm');
  });

  it("names a project's world by its folder, `.` inside it", () => {
    const { dir, world } = project('named');
    expect(worldArgument(world, dir)).toBe('.');
    expect(worldArgument(world, temp)).toBe('./named');
    expect(worldArgument(world, join(dir, 'fixtures'))).toBe('..');
  });

  it('is what a fixture that cannot load says, from inside the project', () => {
    const { dir, world } = project('broken');
    freezeAsCommitted(world, dir);
    writeFileSync(join(dir, 'fixtures', 'filled.json'), '{ not json');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(() => world.instance({ fixture: 'filled' })).toThrow(
        'rebuild it with `npx seahaven fixtures build --world .`',
      );
    } finally {
      process.chdir(cwd);
    }
  });
});
