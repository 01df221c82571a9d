import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedPageBytes, PageBase, PageImage, type PageStore } from '../cow-pages.ts';

type Db = InstanceType<typeof Database>;

let dir: string;
let base: PageBase;
let image: Buffer;

/** A few thousand rows over a few hundred pages, with an index, as a fixture image. */
function buildImage(file: string): void {
  const db = new Database(file);
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, body TEXT NOT NULL) STRICT;
    CREATE INDEX t_name ON t (name);`);
  const insert = db.prepare('INSERT INTO t (id, name, body) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= 3000; i++) insert.run(i, `n${i % 97}`, 'x'.repeat(100 + (i % 50)));
  })();
  db.close();
}

/** Today's way: a private in-memory copy of the image. */
const deserialized = (): Db => new Database(image);

const bytesOf = (db: Db) => db.serialize();

/** An episode on the base, as a connection on a fixture's reset image opens one. */
const open = (): PageStore => new PageImage(base).open();
const pages = (s: PageStore) => s.heldBytes / 4096;

const WRITES = [
  "UPDATE t SET body = 'changed' WHERE id BETWEEN 500 AND 530",
  "INSERT INTO t (id, name, body) VALUES (5001, 'new', 'row')",
  'DELETE FROM t WHERE id BETWEEN 100 AND 180',
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cowvfs-'));
  const file = join(dir, 'fixture.sqlite');
  buildImage(file);
  image = readFileSync(file);
  base = new PageBase(file);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('copy-on-write stores', () => {
  it('start as the base and give the bytes a deserialized copy gives after the same statements', () => {
    const ep = open();
    const mem = deserialized();
    expect(bytesOf(ep.db).equals(image)).toBe(true);
    for (const sql of WRITES) {
      ep.db.exec(sql);
      mem.exec(sql);
    }
    expect(bytesOf(ep.db).equals(bytesOf(mem))).toBe(true);
    // Only the pages the statements changed are held, not the image.
    const imagePages = image.length / 4096;
    expect(pages(ep)).toBeGreaterThan(0);
    expect(pages(ep)).toBeLessThan(imagePages / 4);
    ep.close();
    mem.close();
  });

  it('drop the pages a rolled-back transaction wrote back, even those spilled mid-transaction', () => {
    const ep = open();
    // A tiny cache makes SQLite spill dirty pages into the store before the transaction ends.
    ep.db.pragma('cache_size = 8');
    ep.db.exec('BEGIN');
    ep.db.exec("UPDATE t SET body = 'spill' || id");
    expect(pages(ep)).toBeGreaterThan(0);
    ep.db.exec('ROLLBACK');
    expect(pages(ep)).toBe(0);
    expect(bytesOf(ep.db).equals(image)).toBe(true);
    ep.close();
  });

  it('fork into independent episodes that copy only the changed pages and leave the base alone', () => {
    const a = open();
    a.db.exec(WRITES[0]);
    const b = a.freeze().open();
    expect(pages(b)).toBe(pages(a));
    a.db.exec(WRITES[1]);
    b.db.exec(WRITES[2]);
    const memA = deserialized();
    memA.exec(WRITES[0]);
    memA.exec(WRITES[1]);
    const memB = deserialized();
    memB.exec(WRITES[0]);
    memB.exec(WRITES[2]);
    expect(bytesOf(a.db).equals(bytesOf(memA))).toBe(true);
    expect(bytesOf(b.db).equals(bytesOf(memB))).toBe(true);
    expect(bytesOf(open().db).equals(image)).toBe(true);
    expect(readFileSync(base.file).equals(image)).toBe(true);
    a.close();
    b.close();
    memA.close();
    memB.close();
  });

  it('keep a closed store frozen (hibernation), and wake it with its changes', () => {
    const ep = open();
    ep.db.exec(WRITES[0]);
    const before = bytesOf(ep.db);
    const frozen = ep.closeFrozen();
    expect(frozen.heldBytes).toBeGreaterThan(0);
    expect(frozen.length).toBe(before.length);
    const again = frozen.open();
    expect(bytesOf(again.db).equals(before)).toBe(true);
    again.db.exec(WRITES[1]);
    // Waking copies the frozen store: what the woken episode writes leaves the image as it was.
    const twice = frozen.open();
    expect(bytesOf(twice.db).equals(before)).toBe(true);
    again.close();
    twice.close();
    const fresh = open();
    expect(bytesOf(fresh.db).equals(image)).toBe(true);
    fresh.close();
  });

  it('shrink and grow again as a deserialized copy does (VACUUM truncates the file)', () => {
    const ep = open();
    const mem = deserialized();
    for (const db of [ep.db, mem]) {
      db.exec('DELETE FROM t WHERE id > 200');
      db.exec('VACUUM');
    }
    expect(bytesOf(ep.db).length).toBeLessThan(image.length);
    expect(bytesOf(ep.db).equals(bytesOf(mem))).toBe(true);
    for (const db of [ep.db, mem]) {
      db.exec(
        "WITH RECURSIVE n(i) AS (SELECT 10000 UNION ALL SELECT i + 1 FROM n WHERE i < 12000) INSERT INTO t (id, name, body) SELECT i, 'g', printf('%.500c', 'y') FROM n",
      );
    }
    expect(bytesOf(ep.db).length).toBeGreaterThan(image.length);
    expect(bytesOf(ep.db).equals(bytesOf(mem))).toBe(true);
    ep.close();
    mem.close();
  });

  it('leave every other database to the VFS that was the default', () => {
    const file = join(dir, 'plain.sqlite');
    const plain = new Database(file);
    plain.exec('CREATE TABLE p (x INTEGER PRIMARY KEY); INSERT INTO p VALUES (1)');
    plain.close();
    expect(new Database(file).prepare('SELECT count(*) FROM p').pluck().get()).toBe(1);
    expect(new Database(':memory:').prepare('SELECT 1').pluck().get()).toBe(1);
  });

  it('refuse a journal on disk for an episode, rather than keep one nowhere', () => {
    const ep = open();
    ep.db.pragma('journal_mode = DELETE');
    expect(() => ep.db.exec(WRITES[0])).toThrow();
    ep.close();
  });

  it('account for what the stores hold and free it when they are dropped', () => {
    const before = changedPageBytes();
    const ep = open();
    ep.db.exec(WRITES[0]);
    expect(changedPageBytes() - before).toBe(pages(ep) * 4096);
    ep.close();
    expect(changedPageBytes()).toBe(before);
  });
});
