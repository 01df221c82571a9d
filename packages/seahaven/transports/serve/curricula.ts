/**
 * Curricula on the server: one runs database for every served world that declares curricula, wired into the protocol.
 * A reset with `{curriculum, run_id}` starts the run's next task, the grade at `submit` is the outcome that moves the
 * run, a session that ends (or resets) before `submit` gives its episode up, and `GET /curricula/<name>/runs/<run_id>`
 * (also under `/<world>`) answers the run's progress. The runs database is a SQLite file (several processes on one
 * machine may share it) or a PostgreSQL database (servers on several machines share it): see `runs-store.ts`.
 */
import type { Hono } from 'hono';
import { CurriculumError } from '../../libraries/curricula/errors.ts';
import type { CurriculumHooks } from '../../libraries/curricula/serve-hooks.ts';
import type { IssuedEpisode, RecordedOutcome } from '../../libraries/curricula/runs.ts';
import { DEFAULT_RUNS_PATH } from '../../libraries/curricula/store.ts';
import type { World } from '../../core/world.ts';
import type { SeahavenApp } from './app.ts';
import type { ServeHooks } from './endpoint.ts';
import { ResetError } from './errors.ts';
import { ResetGroups, type GroupMember } from './reset-groups.ts';
import type { ResetPlan, ResetRequest } from './reset.ts';
import { PostgresRunsStore } from './runs-store-pg.ts';
import { SqliteRunsStore } from './runs-store-sqlite.ts';
import {
  parseRunsTarget,
  stderrLogger,
  type RunsStore,
  type RunsStoreOptions,
  type WorldRuns,
} from './runs-store.ts';

export { maskUrl, parseRunsTarget, type RunsStore } from './runs-store.ts';

/**
 * Open the runs database named by `target`: a SQLite file path (or `:memory:`), or a `postgres://` / `postgresql://`
 * URL. Await `store.ready` before serving; it rejects with a one-line message naming the fix.
 * @example
 * const store = openRunsStore('postgres://seahaven:secret@db:5432/runs', { worlds: [crm] });
 * await store.ready;
 */
export function openRunsStore(target: string, options: RunsStoreOptions): RunsStore {
  const t = parseRunsTarget(target);
  return t.kind === 'sqlite'
    ? new SqliteRunsStore(t.path, options)
    : new PostgresRunsStore(t.url, t.masked, options);
}

export interface ServeCurriculaOptions {
  /** The served worlds; those that declare `curricula` get runs, the others refuse curriculum resets. */
  worlds: World[];
  /**
   * The runs database, shared by every world: a SQLite file path (default `.data/curricula.sqlite` under the working
   * directory; `:memory:` keeps nothing), or a PostgreSQL URL `postgres://user:password@host:5432/dbname`.
   */
  runsDb?: string;
  /** The SQLite runs file: the same as `runsDb` (kept for existing callers; `runsDb` wins). */
  path?: string;
  /** The run of a reset that names a curriculum but no `run_id`. Default `default`. */
  defaultRunId?: string;
  /** History entries in a progress answer when the request names none. Default 1000. */
  historyLimit?: number;
  /** Where failures nobody waits for (giving up an episode on PostgreSQL) are reported. Default: stderr. */
  logger?: (line: string) => void;
}

/** What `serveCurricula` returns: hand `hooks` and `extend` to `createApp`/`startServer`, and `close()` after the server. */
export interface ServedCurricula {
  /** `resolveReset`, `onGrade` and `onAbandon` for the server. */
  readonly hooks: Required<ServeHooks>;
  /** Adds `GET /curricula/:name/runs/:run_id` and `GET /:world/curricula/:name/runs/:run_id`. */
  readonly extend: (app: Hono, server: SeahavenApp) => void;
  /** The runs database: an absolute path, `:memory:`, or the PostgreSQL URL with its password masked. */
  readonly path: string;
  /** `sqlite` or `postgres`. */
  readonly kind: 'sqlite' | 'postgres';
  /** Settles when the runs database is usable; rejects with a one-line message naming the fix (PostgreSQL unreachable). */
  readonly ready: Promise<void>;
  /** Curriculum names by world name, for the worlds that declare any. */
  readonly curricula: ReadonlyMap<string, readonly string[]>;
  /** The in-process hooks of one world, if it declares curricula and its runs are in a SQLite file. */
  world(name: string): CurriculumHooks | undefined;
  /**
   * Close the runs database. Call it after the server has closed, so ending sessions can still give up their episodes.
   * A SQLite file is closed before this returns; await the promise for PostgreSQL, whose last writes are in flight.
   */
  close(): Promise<void>;
}

/** What a curriculum reset leaves on the session, so the grade and the end of the episode reach the right run. */
class CurriculumEpisode {
  readonly runs: WorldRuns;
  readonly ticket: string;
  constructor(runs: WorldRuns, ticket: string) {
    this.runs = runs;
    this.ticket = ticket;
  }
}

// Which reset key a refusal is about, for the error's `loc`.
const FIELD_OF: Record<string, string> = {
  unknown_curriculum: 'curriculum',
  invalid_run_id: 'run_id',
  definition_changed: 'run_id',
};

/**
 * Serve the curricula of the given worlds: one runs database, hooks for the protocol, and the progress routes. On a
 * SQLite file the hooks answer at once; on PostgreSQL resets, submits and progress wait for the database.
 * @example
 * const curricula = serveCurricula({ worlds: [crm], runsDb: '.data/curricula.sqlite' }); // or 'postgres://…'
 * await curricula.ready;
 * const server = await startServer({ worlds: [crm], port: 0, hooks: curricula.hooks, extend: curricula.extend });
 * // … reset with { curriculum: 'crm-basics', run_id: 'run-1' }, play, submit …
 * await server.close();
 * await curricula.close();
 */
export function serveCurricula(options: ServeCurriculaOptions): ServedCurricula {
  const store = openRunsStore(options.runsDb ?? options.path ?? DEFAULT_RUNS_PATH, {
    worlds: options.worlds,
    defaultRunId: options.defaultRunId,
    historyLimit: options.historyLimit,
    logger: options.logger,
  });
  const log = options.logger ?? stderrLogger;
  const byWorld = new Map<string, WorldRuns>();
  for (const world of options.worlds) {
    const runs = store.world(world.name);
    if (runs) byWorld.set(world.name, runs);
  }
  const curricula = new Map([...byWorld].map(([name, r]) => [name, [...r.curriculumNames()]]));
  const served = options.worlds.map((w) => w.name);
  const offered = () =>
    [...curricula].map(([w, names]) => `${w}: ${names.join(', ')}`).join('; ') || '(none)';

  // Reset groups (a GRPO group's resets share one draw) are held in this process: see reset-groups.ts.
  const groups = new ResetGroups();
  const hooks: Required<ServeHooks> = {
    resolveReset(request: ResetRequest, { world }): ResetPlan | Promise<ResetPlan> {
      const r = byWorld.get(world.name);
      if (!r)
        throw new ResetError(
          'curriculum',
          `world "${world.name}" declares no curricula (served curricula: ${offered()}); reset with a task instead`,
        );
      const refuse = (e: unknown) =>
        e instanceof CurriculumError ? new ResetError(fieldOf(e, request), e.message) : e;
      const plan = (episode: IssuedEpisode | null): ResetPlan => {
        // `resolveReset` runs only for resets that name a curriculum or a run, and the hooks refuse a run alone.
        if (episode === null)
          throw new ResetError(
            'curriculum',
            'name the curriculum to play, like { "curriculum": "basics", "run_id": "run-1" }',
          );
        return {
          task: episode.task,
          fixture: episode.fixture,
          context: new CurriculumEpisode(r, episode.ticket),
          metadata: {
            curriculum: {
              name: episode.curriculum,
              run_id: episode.runId,
              episode: episode.episode,
              stage: episode.stage,
              kind: episode.kind,
              ticket: episode.ticket,
            },
          },
        };
      };
      if (request.group !== undefined && request.group_size !== undefined) {
        const runId = request.run_id ?? options.defaultRunId ?? 'default';
        const key = [world.name, request.curriculum, runId, request.group].join('\u0000');
        const grouped = (m: GroupMember): ResetPlan => {
          const p = plan(m.episode);
          const meta = p.metadata!.curriculum as Record<string, unknown>;
          // Every member plays the first one's seed (the default, 0, when it named none).
          return {
            ...p,
            seed: m.seed ?? 0,
            metadata: {
              curriculum: {
                ...meta,
                group: { key: request.group, member: m.member, size: m.size },
              },
            },
          };
        };
        let member;
        try {
          member = groups.join(
            key,
            request.group_size,
            request.seed,
            () => r.reset(request) as IssuedEpisode | Promise<IssuedEpisode>,
            (ticket) => r.repeat(ticket),
          );
        } catch (e) {
          throw refuse(e);
        }
        return member instanceof Promise
          ? member.then(grouped, (e) => {
              throw refuse(e);
            })
          : grouped(member);
      }
      let episode;
      try {
        episode = r.reset(request);
      } catch (e) {
        throw refuse(e);
      }
      if (episode instanceof Promise) {
        return episode.then(plan, (e) => {
          throw refuse(e);
        });
      }
      return plan(episode);
    },
    onGrade(session, grade) {
      const ep = session.context;
      if (!(ep instanceof CurriculumEpisode)) return;
      const report = (r: RecordedOutcome) => ({
        curriculum: {
          ticket: r.ticket,
          outcome: r.outcome,
          stage: r.stage,
          transition: r.transition,
          mastered: r.mastered,
        },
      });
      const r = ep.runs.submit(ep.ticket, grade);
      return r instanceof Promise ? r.then(report) : report(r);
    },
    onAbandon(_session, context) {
      if (!(context instanceof CurriculumEpisode)) return;
      const done = context.runs.abandon(context.ticket);
      if (done instanceof Promise)
        done.catch((e) =>
          log(
            `[seahaven] giving up curriculum episode ${context.ticket} failed: ${(e as Error)?.message ?? String(e)}`,
          ),
        );
    },
  };

  const extend = (app: Hono) => {
    const answer = async (
      world: string | undefined,
      name: string,
      runId: string,
      history: string | undefined,
    ) => {
      const r =
        world === undefined
          ? [...byWorld.values()].find((x) => x.curriculumNames().includes(name))
          : byWorld.get(world);
      if (!r) {
        const what =
          world === undefined
            ? `no served world has a curriculum "${name}"`
            : `world "${world}" declares no curricula`;
        return {
          status: 404 as const,
          body: {
            error: {
              code: 'unknown_curriculum',
              message: `${what}; served curricula: ${offered()}`,
            },
          },
        };
      }
      return r.progress(name, runId, { history });
    };
    app.get('/curricula/:name/runs/:run_id', async (c) => {
      const a = await answer(
        undefined,
        c.req.param('name'),
        c.req.param('run_id'),
        c.req.query('history'),
      );
      return c.json(a.body, a.status);
    });
    app.get('/:world/curricula/:name/runs/:run_id', async (c, next) => {
      const world = c.req.param('world');
      if (!served.includes(world)) return next();
      const a = await answer(
        world,
        c.req.param('name'),
        c.req.param('run_id'),
        c.req.query('history'),
      );
      return c.json(a.body, a.status);
    });
  };

  return {
    hooks,
    extend,
    path: store.location,
    kind: store.kind,
    ready: store.ready,
    curricula,
    world: (name) => byWorld.get(name)?.hooks,
    close: () => store.close(),
  };
}

function fieldOf(e: CurriculumError, request: ResetRequest): string {
  const mapped = FIELD_OF[e.code];
  if (mapped !== undefined) return mapped;
  if (e.code === 'invalid_reset') {
    if (request.curriculum === undefined) return 'run_id';
    if (request.task !== undefined) return 'task';
    if (request.fixture !== undefined) return 'fixture';
  }
  return 'curriculum';
}
