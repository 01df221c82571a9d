import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from '../index.ts';
import { buildFixture, loadFixture } from '../fixtures.ts';
import { checkFixtures } from '../../command/check/fixtures.ts';
import { crm } from '../../../../worlds/crm/index.ts';
import { seahaven } from './cli-in-process.ts';

const crmFixtures = fileURLToPath(new URL('../../../../worlds/crm/fixtures/', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'seahaven-fixtures-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** crm's definition pointed at another fixtures folder. */
const crmAt = (dir: string, schema = crm.schema) =>
  defineWorld({
    name: 'crm',
    version: crm.version,
    schema,
    tools: [...crm.tools],
    fixtures: crm.fixtures,
    fixturesDir: dir,
  });

describe('fixtures', () => {
  it('the committed crm images are what a rebuild produces', () => {
    for (const id of ['empty', 'small_startup']) {
      const meta = JSON.parse(readFileSync(join(crmFixtures, `${id}.json`), 'utf8'));
      expect(buildFixture(crm, id).meta.sha256).toBe(meta.sha256);
    }
  });

  it('crm fixtures have the documented sizes and contents', () => {
    const small = crm.instance({ fixture: 'small_startup' });
    expect(small.query('SELECT count(*) AS n FROM contacts')[0].n).toBeGreaterThan(50);
    expect(small.state().fixture).toEqual({
      id: 'small_startup',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(small.clock.iso()).toBe('2026-06-01T09:00:00.000Z');
    const meta = (id: string) => JSON.parse(readFileSync(join(crmFixtures, `${id}.json`), 'utf8'));
    expect(meta('small_startup').bytes).toBeLessThan(200_000);
    expect(meta('big_co').bytes).toBeGreaterThan(3_000_000);
    expect(meta('big_co')).toMatchObject({
      id: 'big_co',
      parent: null,
      difficulty: 3,
      now: '2026-06-01T09:00:00.000Z',
      schema_hash: crm.schemaHash,
    });
  });

  it('a tampered image is refused with an error that names the fix', () => {
    const dir = join(temp, 'tampered');
    cpSync(crmFixtures, dir, { recursive: true });
    const file = join(dir, 'small_startup.sqlite');
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 0xff;
    writeFileSync(file, bytes);
    const world = crmAt(dir);
    expect(() => world.instance({ fixture: 'small_startup' })).toThrow(
      /does not match its recorded sha256.*seahaven fixtures build --world crm/,
    );
    // Untouched fixtures of the same world still load.
    expect(
      world.instance({ fixture: 'empty' }).query('SELECT count(*) AS n FROM contacts'),
    ).toEqual([{ n: 0 }]);
  });

  it('an image built for another schema is refused', () => {
    const world = crmAt(
      crmFixtures,
      crm.schema + '\nCREATE TABLE tags (id TEXT PRIMARY KEY) STRICT;',
    );
    expect(() => world.instance({ fixture: 'empty' })).toThrow(/another schema/);
  });

  it('a missing image names the command that builds it', () => {
    const world = crmAt(join(temp, 'nothing-here'));
    expect(() => world.instance({ fixture: 'empty' })).toThrow(/no frozen image.*fixtures build/);
  });

  it('an image too large to commit is built on first use, checked against the committed hash, and kept', () => {
    // crm's big_co (4.4 MB) is committed as its sidecar alone; its image is listed in the folder's .gitignore.
    expect(readFileSync(join(crmFixtures, '.gitignore'), 'utf8')).toContain('big_co.sqlite');
    const dir = join(temp, 'first-use');
    cpSync(crmFixtures, dir, { recursive: true });
    rmSync(join(dir, 'big_co.sqlite'), { force: true });
    const world = crmAt(dir);
    const inst = world.instance({ fixture: 'big_co' });
    expect(inst.query('SELECT count(*) AS n FROM contacts')[0].n).toBeGreaterThan(5000);
    const meta = JSON.parse(readFileSync(join(dir, 'big_co.json'), 'utf8'));
    expect(inst.state().fixture).toEqual({ id: 'big_co', sha256: meta.sha256 });
    // Kept for the next process, byte for byte what the hash pins.
    expect(buildFixture(crm, 'big_co').meta.sha256).toBe(meta.sha256);
    expect(readFileSync(join(dir, 'big_co.sqlite')).length).toBe(meta.bytes);

    // A recipe that no longer reproduces the committed hash is refused, naming the fix.
    const stale = join(temp, 'stale-recipe');
    cpSync(crmFixtures, stale, { recursive: true });
    rmSync(join(stale, 'big_co.sqlite'), { force: true });
    writeFileSync(join(stale, 'big_co.json'), JSON.stringify({ ...meta, sha256: '0'.repeat(64) }));
    expect(() => crmAt(stale).instance({ fixture: 'big_co' })).toThrow(
      /rebuild does not reproduce the sha256 its sidecar records.*seahaven fixtures build --world crm/,
    );
  });

  it('seahaven check keeps the image it rebuilt of a fixture too large to commit, so nothing builds it again', () => {
    const dir = join(temp, 'check-keeps');
    cpSync(crmFixtures, dir, { recursive: true });
    rmSync(join(dir, 'big_co.sqlite'), { force: true });
    const meta = JSON.parse(readFileSync(join(dir, 'big_co.json'), 'utf8'));
    expect(checkFixtures(crmAt(dir), 'crm')).toEqual([]);
    expect(readFileSync(join(dir, 'big_co.sqlite')).length).toBe(meta.bytes);
  });

  it('a child fixture starts from its parent', () => {
    const note = defineTool({
      name: 'noop',
      description: 'Do nothing.',
      input: z.object({}),
      run: () => null,
    });
    const world = defineWorld({
      name: 'family',
      version: '1',
      tools: [note],
      schema: 'CREATE TABLE n (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT;',
      fixtures: {
        base: {
          description: 'one row',
          now: '2026-01-01T00:00:00Z',
          build: (ctx) => void ctx.db.run("INSERT INTO n (v) VALUES ('parent')"),
        },
        child: {
          description: 'two rows',
          now: '2026-02-01T00:00:00Z',
          parent: 'base',
          build: (ctx) => void ctx.db.run('INSERT INTO n (v) VALUES (?)', ctx.clock.iso()),
        },
      },
    });
    const inst = world.instance({ fixture: 'child' });
    expect(inst.query('SELECT v FROM n ORDER BY id')).toEqual([
      { v: 'parent' },
      { v: '2026-02-01T00:00:00.000Z' },
    ]);
    expect(loadFixture(world, 'child').now).toBe('2026-02-01T00:00:00.000Z');
    expect(inst.changes()).toEqual([]);
  });

  it('`seahaven fixtures build --check` passes on the committed images', async () => {
    const r = await seahaven(
      ['fixtures', 'build', '--check', '--world', 'crm', '--fixture', 'small_startup'],
      { cwd: fileURLToPath(new URL('../../../../', import.meta.url)) },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok\s+crm\/small_startup/);
  });
});
