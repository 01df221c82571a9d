/**
 * A tool call's transaction. One object per instance, reused by every call, owns everything between a call's start
 * and its end, across all of the instance's stores (the host world's and each composed world's):
 *
 * - begin: each store's part of the call begins just before the call's first write to it (`beforeWrite`), so a call
 *   that only reads pays for no BEGIN or COMMIT; with one connection per store and nothing else writing, its reads see
 *   the same state either way. On a connection that runs its episode as one transaction (connection.ts) the call is
 *   the savepoint `__seahaven_call` in it, otherwise a transaction of its own;
 * - savepoints: `ctx.db.transaction(fn)`, and a composed world's tool called by a host tool, nest inside the call;
 * - the guard: a statement world code may not run (sql-guard.ts) fails the call at its end, even if world code caught
 *   the error, so nothing it wrote remains;
 * - capture: the capture triggers report each written row's key here (through the connection's capture function);
 *   at commit the change tracker records the call's net changes (capture.ts: most rows are read only when needed);
 * - random streams: their positions when the call began, so a call that fails leaves them as it found them;
 * - commit or rollback: of every store the call wrote to, together.
 */
import type { ChangeTracker, NeedsOld } from './capture.ts';
import { TouchedRows } from './touched-rows.ts';
import type { Connection } from './connection.ts';
import { StreamPositions, type Stream } from './random.ts';
import type { RefusedStatement } from './sql-guard.ts';

/** The savepoint a call is, on a connection that runs its episode as one transaction. */
const CALL_SAVEPOINT = '__seahaven_call';

/** Rows the tracker records between two pauses of `commitSteps`: a few milliseconds' work. */
const RECORD_CHUNK = 500;

export class CallTransaction {
  private readonly tracker: ChangeTracker;
  /** Every random stream of the instance, in a fixed order, and where they were when the call began. */
  private streams: readonly Stream[] = [];
  /** Made at the first call: an instance that is never called allocates none. */
  private marks: StreamPositions | null = null;
  /** Between `begin()` and `commit()` or `rollback()`. */
  private running = false;
  /** Whether captured rows are recorded: not while a fixture is built, whose writes become the fixture itself. */
  private capturing = true;
  /** Whether the running call is a bulk call (see `begin`). */
  private bulk = false;
  /** Connections the call has written to, each once, in the order of their first write: its part has begun there. */
  private readonly written: Connection[] = [];
  /** The first statement refused during the call. */
  private refused: RefusedStatement | null = null;
  /** How deep `ctx.db.transaction` savepoints are nested. */
  private depth = 0;
  private readonly touched = new TouchedRows();

  constructor(tracker: ChangeTracker) {
    this.tracker = tracker;
  }

  /** The streams a failed call puts back: every stream of every store, in the same order as a fork copies them. */
  setStreams(streams: readonly Stream[]): void {
    this.streams = streams;
  }

  /**
   * A call starts. `capture: false` for a fixture build. `bulk`: the call may write thousands of rows (a clock advance,
   * a fixture build), so it runs as a transaction of its own rather than a savepoint in a batch (connection.ts).
   */
  begin(capture = true, bulk = false): void {
    this.running = true;
    this.capturing = capture;
    this.bulk = bulk;
    this.refused = null;
    (this.marks ??= new StreamPositions(this.streams.length)).save(this.streams);
  }

  /** A statement that writes is about to run on `connection`: begin the call's part there, once per call. */
  beforeWrite(connection: Connection): void {
    if (!this.running || this.written.includes(connection)) return;
    if (connection.beginCallPart(this.bulk, this.bulk && !this.capturing))
      connection.runOwn(`SAVEPOINT ${CALL_SAVEPOINT}`);
    else if (!connection.db.inTransaction) connection.runOwn('BEGIN');
    this.written.push(connection);
  }

  /** `ctx.db.transaction(fn)` on `connection`: `fn` in a savepoint; a throw rolls back what it wrote and propagates. */
  savepoint<T>(connection: Connection, fn: () => T): T {
    this.beforeWrite(connection);
    const name = `sh_sp_${++this.depth}`;
    connection.runOwn(`SAVEPOINT ${name}`);
    try {
      const out = fn();
      connection.runOwn(`RELEASE ${name}`);
      return out;
    } catch (e) {
      // A full database (SQLITE_FULL) took the whole transaction, savepoints and all: the call's rollback sees to it.
      if (connection.db.inTransaction) connection.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw e;
    } finally {
      this.depth--;
    }
  }

  /** World code tried a statement it may not run: the call fails when it ends, whatever world code does next. */
  refuse(e: RefusedStatement): void {
    if (this.running) this.refused ??= e;
  }

  /**
   * A capture trigger fired on the store whose first table has number `offset` in the tracker. Throws `NeedsOld` when
   * a call is about to change a row whose value after an earlier call has not been read (capture.ts).
   */
  capture(offset: number, args: unknown[]): null {
    if (this.capturing) this.touched.add(this.tracker, offset, args, this.running);
    return null;
  }

  /** A statement threw `NeedsOld` and SQLite undid it: read what it needs, so that it can run again. */
  settle(e: NeedsOld): void {
    this.tracker.settleTable(e.tableNo);
  }

  /** A statement that may replace rows (and so delete them without a trigger) is about to run: read every live row. */
  beforeReplace(): void {
    if (this.capturing) this.tracker.settleAll();
  }

  /**
   * End the call, keeping what it wrote: every connection it wrote to commits, and the tracker records the rows it
   * changed under call number `index`. Throws the refused statement, if any, before anything commits (then
   * `rollback()`, as for any failure). `commitSteps` is the same with pauses.
   */
  commit(index: number, tool: string): void {
    if (this.refused !== null) throw this.refused;
    const written = this.written;
    const rows = this.touched.size;
    while (written.length > 0) {
      const connection = written[0];
      if (this.commitPart(connection, rows)) connection.commitEpisode();
      if (this.bulk) connection.endBulk();
      written.shift();
    }
    if (this.capturing) this.tracker.recordCall(index, tool, this.touched);
    this.end();
  }

  /**
   * `commit()` pausing (`yield`) where a clock advance's commit is long, so that one run in slices commits over several:
   * before and after an episode's COMMIT (it copies every page the episode changed into the database), and after every
   * `RECORD_CHUNK` rows the tracker records. The instance refuses any other use until it is done; a `rollback()` in a
   * pause (the instance destroyed) ends the episode of a connection whose part was already released.
   */
  *commitSteps(index: number, tool: string): Generator<void, void> {
    if (this.refused !== null) throw this.refused;
    const written = this.written;
    const rows = this.touched.size;
    while (written.length > 0) {
      const connection = written[0];
      if (this.commitPart(connection, rows)) {
        yield;
        connection.commitEpisode();
        yield;
      }
      if (this.bulk) connection.endBulk();
      written.shift();
    }
    if (this.capturing)
      yield* this.tracker.recordCallSteps(index, tool, this.touched, RECORD_CHUNK);
    this.end();
  }

  /** The call's part on `connection` committed (or released into its episode); whether the episode must commit now. */
  private commitPart(connection: Connection, rows: number): boolean {
    if (connection.inEpisode) {
      connection.runOwn(`RELEASE ${CALL_SAVEPOINT}`);
      return connection.episodeWrote(rows);
    }
    if (connection.db.inTransaction) connection.runOwn('COMMIT');
    return false;
  }

  /**
   * End the call, undoing it: what it wrote, what it captured, and how far it moved the random streams. Returns whether
   * an episode's earlier calls were undone too: SQLite rolled back the whole transaction the call ran in (a database
   * that reached its size limit), so the instance no longer holds what its history says.
   */
  rollback(): boolean {
    let lost = false;
    for (const connection of this.written) {
      try {
        if (connection.inEpisode) {
          if (connection.lostEpisode()) lost = true;
          else {
            connection.db.exec(`ROLLBACK TO ${CALL_SAVEPOINT}; RELEASE ${CALL_SAVEPOINT}`);
            connection.undidPart(this.bulk, this.touched.size);
          }
        } else if (connection.db.inTransaction) connection.runOwn('ROLLBACK');
      } catch {
        // A rollback that fails leaves the episode's transaction in a state nobody can vouch for: end it.
        if (connection.db.inTransaction) connection.db.exec('ROLLBACK');
        connection.lostEpisode();
        lost = true;
      }
      if (this.bulk) connection.endBulk();
    }
    this.written.length = 0;
    this.marks?.restore(this.streams);
    this.end();
    return lost;
  }

  private end(): void {
    this.running = false;
    this.capturing = true;
    this.bulk = false;
    this.refused = null;
    this.touched.clear();
  }
}
