/**
 * Where a server keeps its curriculum runs: one interface, two stores. A SQLite runs file (WAL mode, every step one
 * `BEGIN IMMEDIATE` transaction) serves one machine, and any number of processes on it may share the file; a
 * PostgreSQL database (`postgres://…`, `runs-store-pg.ts`) serves several machines.
 *
 * Sharing a run needs one more thing than transactions: knowing whose episodes are in flight. Each server registers in
 * `curriculum_servers` and refreshes its row while it runs; each pending episode is claimed by the server that issued
 * it. A server that is gone (its row stale, or on the same host, its process no longer running) can never grade its
 * episodes, so whichever server notices gives them up. A server that starts alone on the database also gives up
 * pending episodes nobody claims (left by an older version, or a crash between issuing and claiming).
 */
import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { CurriculumError } from '../../libraries/curricula/errors.ts';
import type {
  IssuedEpisode,
  Outcome,
  RecordedOutcome,
} from '../../libraries/curricula/run-steps.ts';
import type {
  CurriculumHooks,
  CurriculumResetData,
  ProgressAnswer,
} from '../../libraries/curricula/serve-hooks.ts';
import { DEFAULT_RUNS_PATH } from '../../libraries/curricula/store.ts';
import type { World } from '../../core/world.ts';

export type MaybePromise<T> = T | Promise<T>;

/** The runs of one served world's curricula. SQLite answers at once; PostgreSQL with promises. */
export interface WorldRuns {
  /** The curriculum names the world declares. */
  curriculumNames(): readonly string[];
  /** The episode a curriculum reset starts, or `null` when the reset names no curriculum. Throws `CurriculumError`. */
  reset(data: CurriculumResetData | undefined): MaybePromise<IssuedEpisode | null>;
  /** Another episode of the task `ticket` plays, issued without drawing (a member of a reset group). */
  repeat(ticket: string): MaybePromise<IssuedEpisode>;
  /** Feed an episode's grade back (at submit). */
  submit(ticket: string, grade: Outcome): MaybePromise<RecordedOutcome>;
  /** The episode's session ended before submit. */
  abandon(ticket: string): MaybePromise<void>;
  /** The answer to `GET /curricula/<name>/runs/<run_id>[?history=N]`. */
  progress(
    curriculum: string,
    runId: string,
    query?: { history?: string | number | null },
  ): MaybePromise<ProgressAnswer>;
  /** The in-process hooks (SQLite only). */
  readonly hooks?: CurriculumHooks;
}

/** A runs database opened for a server. */
export interface RunsStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The file (absolute, or `:memory:`), or the PostgreSQL URL with its password masked. */
  readonly location: string;
  /** Settles once the database is usable: rejects with a one-line message naming the fix when it is not. */
  readonly ready: Promise<void>;
  /** Pending episodes of servers that are gone, given up when this store opened (known once `ready` settles). */
  readonly recovered: number;
  /** The runs of a served world that declares curricula. */
  world(name: string): WorldRuns | undefined;
  /** Wait for the steps in flight, give up this server's claim, and close the database. */
  close(): Promise<void>;
}

export interface RunsStoreOptions {
  /** The served worlds; those without curricula get no runs. */
  worlds: World[];
  defaultRunId?: string;
  historyLimit?: number;
  /** Where failures of steps nobody waits for (giving up an episode) are reported. Default: stderr. */
  logger?: (line: string) => void;
  /** How often a server refreshes its row and gives up the episodes of servers that are gone, in ms. Default 1000. */
  heartbeatMs?: number;
  /** A server whose row is older than this is gone, in ms. Default 30000. */
  staleMs?: number;
}

/** The defaults of `heartbeatMs` and `staleMs`, for the SQLite and the PostgreSQL store alike. */
export const RUNS_TIMING = { heartbeatMs: 1000, staleMs: 30_000 } as const;

/** What `--runs-db` names: a SQLite file or a PostgreSQL URL. */
export type RunsTarget =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; masked: string };

/**
 * Read a `--runs-db` value: `postgres://…` or `postgresql://…` is PostgreSQL, anything else without a scheme a SQLite
 * file (or `:memory:`). Another scheme is refused with the accepted forms.
 * @example
 * parseRunsTarget('postgres://seahaven:secret@db:5432/runs'); // { kind: 'postgres', masked: 'postgres://seahaven:***@db:5432/runs', … }
 */
export function parseRunsTarget(target: string): RunsTarget {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(target)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (target.trim() === '')
      throw new CurriculumError(
        'invalid_runs_db',
        `the runs database must be a SQLite file path like ${DEFAULT_RUNS_PATH}, or a PostgreSQL URL like postgres://user:password@host:5432/dbname`,
      );
    return { kind: 'sqlite', path: target };
  }
  if (scheme === 'postgres' || scheme === 'postgresql')
    return { kind: 'postgres', url: target, masked: maskUrl(target) };
  throw new CurriculumError(
    'invalid_runs_db',
    `${maskUrl(target)}: the runs database is a SQLite file path (like ${DEFAULT_RUNS_PATH}) or a PostgreSQL URL (postgres://user:password@host:5432/dbname or postgresql://…); "${scheme}://" is neither`,
  );
}

/** The URL with its password replaced by `***`. */
export function maskUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/, '$1:***@');
}

// ---------------------------------------------------------------------------------------------------------------------
// Helpers both stores use.

/** The identity of this server in `curriculum_servers`. */
export interface ServerIdentity {
  server: string;
  host: string;
  pid: number;
}

export function newIdentity(): ServerIdentity {
  return { server: randomUUID(), host: hostname() + pidNamespace(), pid: process.pid };
}

/** Process ids mean something only within their pid namespace (containers on one host have their own). */
function pidNamespace(): string {
  try {
    return ' ' + readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

/** A server is gone when its row is stale, or (on this host, in this pid namespace) its process is no longer running. */
export function isGone(
  me: ServerIdentity,
  row: { server: string; host: string; pid: number; age_ms: number },
  staleMs: number,
): boolean {
  if (row.server === me.server) return false;
  if (row.age_ms > staleMs) return true;
  if (row.host !== me.host) return false;
  if (row.pid === me.pid) return false; // another store of this very process
  try {
    process.kill(row.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** Steps nobody waits for (giving up an episode) still finish before the store closes. */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();
  track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    const done = () => this.pending.delete(p);
    p.then(done, done);
    return p;
  }
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

export const stderrLogger = (line: string) => void process.stderr.write(line + '\n');

export { resetTarget } from '../../libraries/curricula/serve-hooks.ts';

/** A ticket's parts, or a `CurriculumError`. */
export function parseTicket(ticket: string): {
  curriculum: string;
  runId: string;
  episode: number;
} {
  const parts = typeof ticket === 'string' ? ticket.split('/') : [];
  const episode = Number(parts[2]);
  if (parts.length !== 3 || !Number.isSafeInteger(episode) || episode < 0)
    throw new CurriculumError(
      'invalid_ticket',
      `"${ticket}" is not a ticket; pass the ticket that next() returned, like "basics/run-1/0"`,
    );
  return { curriculum: parts[0], runId: parts[1], episode };
}

/** The `history` of a progress request: the limit to use. */
export function historyOf(
  query: { history?: string | number | null } | undefined,
  limit: number,
): number {
  const raw = query?.history;
  return raw === undefined || raw === null || raw === '' ? limit : Number(raw);
}
