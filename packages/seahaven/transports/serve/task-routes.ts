/**
 * The task routes of one world (tasks.ts says what they list): `GET /tasks`, and OpenEnv's Task API, `GET /splits`,
 * `POST /tasks`, `/num_tasks`, `/task` and `/task_range`. Mounted under `/<world>`, which is the Task API's
 * `/{env_name}`, and for the first world also at the root. They read no session and start nothing.
 */
import type { Context, Hono } from 'hono';
import type { World } from '../../core/world.ts';
import { readBody, type BodyLimits } from './body.ts';
import { FrameError, type ErrorItem } from './errors.ts';
import { bodyError, jsonBody } from './http.ts';
import { taskAt, taskCatalog, tasksAnswer, unknownSplit, type TaskEntry } from './tasks.ts';

/** A Task API task: the entry, with where it sits in the split asked for. */
const positioned = (t: TaskEntry, split: string, index: number) => ({ ...t, split, index });

function invalid(item: ErrorItem): FrameError {
  return new FrameError('VALIDATION_ERROR', item.msg, [item]);
}

/** Read a Task API body and its split; throws a 422 for a malformed body, answers 400 for an unknown split. */
async function splitRequest(
  c: Context,
  world: World,
  limits: BodyLimits,
  keys: string[],
): Promise<
  { body: Record<string, unknown>; split: string; tasks: readonly TaskEntry[] } | Response
> {
  const body = await jsonBody(c, limits);
  for (const key of Object.keys(body)) {
    if (!keys.includes(key))
      throw invalid({
        type: 'extra_forbidden',
        loc: ['body', key],
        msg: `unknown key "${key}"; this route takes ${keys.join(', ')}`,
        input: body[key],
      });
  }
  if (typeof body.split !== 'string') {
    throw invalid(
      body.split === undefined
        ? {
            type: 'missing',
            loc: ['body', 'split'],
            msg: `Field required: name the split, like {"split": "all"}; GET ${c.req.path.replace(/\/[a-z_]+$/, '/splits')} lists them`,
            input: body,
          }
        : {
            type: 'string_type',
            loc: ['body', 'split'],
            msg: 'split must be a string',
            input: body.split,
          },
    );
  }
  const tasks = taskCatalog(world).splits.get(body.split);
  // OpenEnv's Task API answers an unknown split with 400, as it does an index out of range.
  if (tasks === undefined) return c.json({ detail: unknownSplit(world, body.split) }, 400);
  return { body, split: body.split, tasks };
}

/** An optional whole number of a Task API body (`start`, `stop`, `index`). */
function wholeNumber(body: Record<string, unknown>, key: string, required: boolean): number | null {
  const v = body[key];
  if (v === undefined || v === null) {
    if (required)
      throw invalid({
        type: 'missing',
        loc: ['body', key],
        msg: `Field required: give ${key}, a whole number`,
        input: body,
      });
    return null;
  }
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw invalid({
      type: 'int_type',
      loc: ['body', key],
      msg: `${key} must be a whole number`,
      input: v,
    });
  return v;
}

/** Python's slice bounds: negative counts from the end, and both are clamped to the list. */
function sliceBound(at: number | null, size: number, fallback: number): number {
  if (at === null) return fallback;
  return at < 0 ? Math.max(0, size + at) : Math.min(at, size);
}

async function answer(c: Context, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (e) {
    const refused = bodyError(c, e);
    if (refused !== undefined) return refused;
    if (e instanceof FrameError && e.code === 'VALIDATION_ERROR')
      return c.json({ detail: e.errors ?? [] }, 422);
    throw e;
  }
}

/**
 * Add a world's task routes to `app` (mounted by the caller under `/` and `/<world>`).
 * @example
 * taskRoutes(sub, crm, limits); // GET /crm/tasks, GET /crm/splits, POST /crm/task {"split": "all", "index": 0}, …
 */
export function taskRoutes(app: Hono, world: World, limits: BodyLimits): void {
  app.get('/tasks', (c) => c.json(tasksAnswer([world])));
  app.get('/splits', (c) =>
    c.json([...taskCatalog(world).splits.keys()].map((name) => ({ name, type: 'train' }))),
  );
  app.post('/tasks', (c) =>
    answer(c, async () => {
      const r = await splitRequest(c, world, limits, ['split']);
      if (r instanceof Response) return r;
      return c.json({
        tasks: r.tasks.map((t, i) => positioned(t, r.split, i)),
        env_name: world.name,
      });
    }),
  );
  app.post('/num_tasks', (c) =>
    answer(c, async () => {
      const r = await splitRequest(c, world, limits, ['split']);
      if (r instanceof Response) return r;
      return c.json({ num_tasks: r.tasks.length });
    }),
  );
  app.post('/task', (c) =>
    answer(c, async () => {
      const r = await splitRequest(c, world, limits, ['split', 'index']);
      if (r instanceof Response) return r;
      const index = wholeNumber(r.body, 'index', true)!;
      const t = taskAt(world, r.split, index);
      if ('refused' in t) return c.json({ detail: t.refused }, 400);
      return c.json({ task: positioned(t, r.split, index), env_name: world.name });
    }),
  );
  app.post('/task_range', (c) =>
    answer(c, async () => {
      const r = await splitRequest(c, world, limits, ['split', 'start', 'stop']);
      if (r instanceof Response) return r;
      const size = r.tasks.length;
      const start = sliceBound(wholeNumber(r.body, 'start', false), size, 0);
      const stop = sliceBound(wholeNumber(r.body, 'stop', false), size, size);
      const tasks = [];
      for (let i = start; i < stop; i++) tasks.push(positioned(r.tasks[i], r.split, i));
      return c.json({ tasks, env_name: world.name });
    }),
  );
}

/**
 * The server-wide task routes: `GET /list_environments` (the worlds, for the Task API), and on a server of several
 * worlds `GET /tasks` listing every world's tasks (each entry names its world). Add them before the worlds' routes.
 */
export function serverTaskRoutes(app: Hono, worlds: readonly World[], limits: BodyLimits): void {
  app.get('/list_environments', (c) => c.json(worlds.map((w) => w.name)));
  if (worlds.length > 1) app.get('/tasks', (c) => c.json(tasksAnswer(worlds)));
  // The Task API matches `{env_name}` without regard to case: `/CRM/splits` is answered as `/crm/splits` is.
  app.use('/:env_name/:route', async (c, next) => {
    const asked = c.req.param('env_name');
    const world = TASK_API_ROUTES.has(c.req.param('route'))
      ? worlds.find((w) => w.name !== asked && w.name.toLowerCase() === asked.toLowerCase())
      : undefined;
    if (world === undefined) return next();
    const url = new URL(c.req.url);
    url.pathname = `/${world.name}/${c.req.param('route')}`;
    const body =
      c.req.method === 'GET' || c.req.method === 'HEAD'
        ? undefined
        : await readBody(c.req.raw, limits).catch((e: unknown) => e);
    if (body instanceof Error) return bodyError(c, body) ?? c.json({ detail: body.message }, 400);
    return app.fetch(
      new Request(url, {
        method: c.req.method,
        headers: c.req.raw.headers,
        ...(body === undefined ? {} : { body: body as string }),
      }),
    );
  });
}

const TASK_API_ROUTES = new Set(['splits', 'tasks', 'num_tasks', 'task', 'task_range']);
