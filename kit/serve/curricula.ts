/**
 * Curricula on the server: one `curriculumHooks` per served world that declares curricula, all on one SQLite file, wired
 * into the protocol. A reset with `{curriculum, run_id}` starts the run's next task, the grade at `submit` is the
 * outcome that moves the run, a session that ends (or resets) before `submit` gives its episode up, and
 * `GET /curricula/<name>/runs/<run_id>` (also under `/<world>`) answers the run's progress.
 */
import type { Hono } from 'hono';
import { CurriculumError } from '../../curricula/errors.ts';
import { curriculumHooks, type CurriculumHooks } from '../../curricula/serve-hooks.ts';
import { DEFAULT_RUNS_PATH } from '../../curricula/store.ts';
import type { World } from '../world.ts';
import type { SeahavenApp } from './app.ts';
import type { ServeHooks } from './endpoint.ts';
import { ResetError } from './errors.ts';
import type { ResetPlan, ResetRequest } from './reset.ts';

export interface ServeCurriculaOptions {
  /** The served worlds; those that declare `curricula` get runs, the others refuse curriculum resets. */
  worlds: World[];
  /** The runs database, shared by every world. Default `.data/curricula.sqlite` under the working directory. */
  path?: string;
  /** The run of a reset that names a curriculum but no `run_id`. Default `default`. */
  defaultRunId?: string;
  /** History entries in a progress answer when the request names none. Default 1000. */
  historyLimit?: number;
}

/** What `serveCurricula` returns: hand `hooks` and `extend` to `createApp`/`startServer`, and `close()` after the server. */
export interface ServedCurricula {
  /** `resolveReset`, `onGrade` and `onAbandon` for the server. */
  readonly hooks: Required<ServeHooks>;
  /** Adds `GET /curricula/:name/runs/:run_id` and `GET /:world/curricula/:name/runs/:run_id`. */
  readonly extend: (app: Hono, server: SeahavenApp) => void;
  /** The runs database: an absolute path, or `:memory:`. */
  readonly path: string;
  /** Curriculum names by world name, for the worlds that declare any. */
  readonly curricula: ReadonlyMap<string, readonly string[]>;
  /** The hooks of one world, if it declares curricula. */
  world(name: string): CurriculumHooks | undefined;
  /** Close the runs database. Call it after the server has closed, so ending sessions can still give up their episodes. */
  close(): void;
}

/** What a curriculum reset leaves on the session, so the grade and the end of the episode reach the right run. */
class CurriculumEpisode {
  readonly hooks: CurriculumHooks;
  readonly ticket: string;
  constructor(hooks: CurriculumHooks, ticket: string) {
    this.hooks = hooks;
    this.ticket = ticket;
  }
}

// Which reset key a refusal is about, for the error's `loc`.
const FIELD_OF: Record<string, string> = { unknown_curriculum: 'curriculum', invalid_run_id: 'run_id', definition_changed: 'run_id' };

/**
 * Serve the curricula of the given worlds: one runs file, hooks for the protocol, and the progress routes.
 * @example
 * const curricula = serveCurricula({ worlds: [crm], path: '.data/curricula.sqlite' });
 * const server = await startServer({ worlds: [crm], port: 0, hooks: curricula.hooks, extend: curricula.extend });
 * // … reset with { curriculum: 'crm-basics', run_id: 'run-1' }, play, submit …
 * await server.close();
 * curricula.close();
 */
export function serveCurricula(options: ServeCurriculaOptions): ServedCurricula {
  const path = options.path ?? DEFAULT_RUNS_PATH;
  const byWorld = new Map<string, CurriculumHooks>();
  try {
    for (const world of options.worlds) {
      if (world.curricula.length === 0) continue;
      byWorld.set(world.name, curriculumHooks({ world, path, defaultRunId: options.defaultRunId, historyLimit: options.historyLimit }));
    }
  } catch (e) {
    for (const h of byWorld.values()) h.close();
    throw e;
  }
  const curricula = new Map([...byWorld].map(([name, h]) => [name, h.runs.curriculumNames()]));
  const served = options.worlds.map((w) => w.name);
  const offered = () => [...curricula].map(([w, names]) => `${w}: ${names.join(', ')}`).join('; ') || '(none)';

  const hooks: Required<ServeHooks> = {
    resolveReset(request: ResetRequest, { world }): ResetPlan {
      const h = byWorld.get(world.name);
      if (!h) throw new ResetError('curriculum', `world "${world.name}" declares no curricula (served curricula: ${offered()}); reset with a task instead`);
      let episode;
      try {
        episode = h.reset(request);
      } catch (e) {
        if (e instanceof CurriculumError) throw new ResetError(fieldOf(e, request), e.message);
        throw e;
      }
      // `resolveReset` runs only for resets that name a curriculum or a run, and the hooks refuse a run alone.
      if (episode === null) throw new ResetError('curriculum', 'name the curriculum to play, like { "curriculum": "basics", "run_id": "run-1" }');
      return {
        task: episode.task,
        fixture: episode.fixture,
        context: new CurriculumEpisode(h, episode.ticket),
        metadata: { curriculum: { name: episode.curriculum, run_id: episode.runId, episode: episode.episode, stage: episode.stage, kind: episode.kind, ticket: episode.ticket } },
      };
    },
    onGrade(session, grade) {
      const ep = session.context;
      if (!(ep instanceof CurriculumEpisode)) return;
      const r = ep.hooks.submit(ep.ticket, grade);
      return { curriculum: { ticket: r.ticket, outcome: r.outcome, stage: r.stage, transition: r.transition, mastered: r.mastered } };
    },
    onAbandon(_session, context) {
      if (context instanceof CurriculumEpisode) context.hooks.abandon(context.ticket);
    },
  };

  const extend = (app: Hono) => {
    const answer = (world: string | undefined, name: string, runId: string, history: string | undefined) => {
      const h = world === undefined ? [...byWorld.values()].find((x) => x.runs.curriculumNames().includes(name)) : byWorld.get(world);
      if (!h) {
        const what = world === undefined ? `no served world has a curriculum "${name}"` : `world "${world}" declares no curricula`;
        return { status: 404 as const, body: { error: { code: 'unknown_curriculum', message: `${what}; served curricula: ${offered()}` } } };
      }
      return h.progress(name, runId, { history });
    };
    app.get('/curricula/:name/runs/:run_id', (c) => {
      const a = answer(undefined, c.req.param('name'), c.req.param('run_id'), c.req.query('history'));
      return c.json(a.body, a.status);
    });
    app.get('/:world/curricula/:name/runs/:run_id', (c, next) => {
      const world = c.req.param('world');
      if (!served.includes(world)) return next();
      const a = answer(world, c.req.param('name'), c.req.param('run_id'), c.req.query('history'));
      return c.json(a.body, a.status);
    });
  };

  return {
    hooks,
    extend,
    path: byWorld.values().next().value?.runs.path ?? path,
    curricula,
    world: (name) => byWorld.get(name),
    close() {
      for (const h of byWorld.values()) h.close();
    },
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
