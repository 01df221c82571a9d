import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defineWorld } from '../index.ts';
import { loadFixture } from '../fixtures.ts';
import { crm } from '../../../../worlds/crm/index.ts';

// A loaded fixture holds one copy of its image in memory (the reset image); the rows it started with are read from its
// file, which stays open read-only. Before, they were read from a second copy in memory, doubling what a load held.

const crmFixtures = fileURLToPath(new URL('../../../../worlds/crm/fixtures/', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'seahaven-fixture-base-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const crmAt = (dir: string) =>
  defineWorld({
    name: 'crm',
    version: crm.version,
    schema: crm.schema,
    tools: [...crm.tools],
    fixtures: crm.fixtures,
    fixturesDir: dir,
  });
/** The database a loaded fixture's starting rows are read from. */
const baseDb = (world: ReturnType<typeof crmAt>, id: string) =>
  (loadFixture(world, id).base.get(null) as unknown as { db: { name: string; memory: boolean } })
    .db;

describe("a loaded fixture's starting rows", () => {
  it('are read from its image file, not from a second copy in memory', () => {
    const dir = join(temp, 'read-from-file');
    cpSync(crmFixtures, dir, { recursive: true });
    const db = baseDb(crmAt(dir), 'small_startup');
    expect(db).toMatchObject({ name: join(dir, 'small_startup.sqlite'), memory: false });
  });

  it('stay what was loaded when the file is replaced meanwhile, as fixtures build replaces it', () => {
    const dir = join(temp, 'replaced');
    cpSync(crmFixtures, dir, { recursive: true });
    const world = crmAt(dir);
    const first = world.instance({ fixture: 'small_startup' });
    first.destroy();
    // Another image renamed over this one (a build writes aside and renames): the open file keeps its bytes.
    writeFileSync(join(dir, 'other.partial'), readFileSync(join(dir, 'empty.sqlite')));
    renameSync(join(dir, 'other.partial'), join(dir, 'small_startup.sqlite'));
    const inst = world.instance({ fixture: 'small_startup' });
    const before = inst.query('SELECT notes FROM contacts WHERE id = ?', 'con_dana')[0].notes;
    expect(inst.call('update_contact', { id: 'con_dana', notes: 'changed' }).ok).toBe(true);
    expect(inst.changes()).toEqual([
      expect.objectContaining({
        table: 'contacts',
        op: 'update',
        key: { id: 'con_dana' },
        before: expect.objectContaining({ notes: before }),
        after: expect.objectContaining({ notes: 'changed' }),
      }),
    ]);
  });

  it('are a copy in memory for a fixture built in memory', () => {
    const world = defineWorld({
      name: 'crm',
      version: crm.version,
      schema: crm.schema,
      tools: [...crm.tools],
      fixtures: crm.fixtures,
    });
    expect(baseDb(world, 'small_startup')).toMatchObject({ memory: true });
  });
});
