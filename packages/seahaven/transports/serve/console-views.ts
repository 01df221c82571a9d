/**
 * What the console's API sends: worlds with their fixtures, tasks, curricula, tables and reset form, sessions, the
 * timeline of an episode (each call with the rows it changed), and pages of a table's current rows.
 */
import type { ChangeLogEntry, Change } from '../../core/capture.ts';
import { quoteIdent, type TableInfo } from '../../core/schema.ts';
import type { World } from '../../core/world.ts';
import type { Endpoint } from './endpoint.ts';
import { validationError } from './errors.ts';
import type { Session } from './sessions.ts';

/** A table the console can browse: `mount.table` for a composed sub-world's, with the store to query. */
export interface BrowsableTable {
  name: string;
  store: string | null;
  info: TableInfo;
}

/** Every table of a world, host first, then each mounted sub-world's as `mount.table` (the names `changes()` uses). */
export function browsableTables(world: World): Map<string, BrowsableTable> {
  const out = new Map<string, BrowsableTable>();
  for (const info of world.tables) out.set(info.name, { name: info.name, store: null, info });
  for (const [mount, m] of Object.entries(world.mounts)) {
    for (const info of m.world.tables)
      out.set(`${mount}.${info.name}`, { name: `${mount}.${info.name}`, store: mount, info });
  }
  return out;
}

/** The reset form's JSON Schema: the console renders it with the same generator as the tool forms. */
export function resetSchema(ep: Endpoint): Record<string, unknown> {
  const w = ep.world;
  const fixtures = Object.keys(w.fixtures);
  const properties: Record<string, unknown> = {};
  if (w.tasks.length > 0) {
    properties.task = {
      type: 'string',
      enum: w.tasks.map((t) => t.id),
      description: 'Play a task: it starts from its own fixture, and Submit grades it.',
    };
  }
  if (fixtures.length > 0) {
    properties.fixture = {
      type: 'string',
      enum: fixtures,
      description: `Default: ${ep.defaultFixture ?? 'none'}, or the task's fixture.`,
    };
  }
  properties.seed = {
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'Whole number ≥ 0; the same fixture, seed and calls replay exactly.',
  };
  properties.clock = {
    type: 'string',
    enum: ['fixed', 'tick'],
    default: 'fixed',
    description: "fixed: the fixture's now, unless advanced; tick: +1 s per call.",
  };
  properties.now = {
    type: 'string',
    description: "Start the clock here (ISO-8601, not before the fixture's now).",
  };
  return { type: 'object', properties, additionalProperties: false };
}

/** A served world as the console lists it. */
export function worldView(ep: Endpoint): Record<string, unknown> {
  const w = ep.world;
  return {
    name: w.name,
    version: w.version,
    description: w.description,
    default_fixture: ep.defaultFixture ?? null,
    fixtures: Object.entries(w.fixtures).map(([id, f]) => ({
      id,
      description: f.description ?? '',
      difficulty: f.difficulty ?? null,
      now: f.now ?? null,
    })),
    tasks: w.tasks.map((t) => ({
      id: t.id,
      fixture: t.fixture,
      prompt: t.prompt,
      difficulty: t.difficulty ?? null,
      tags: t.tags ?? [],
    })),
    curricula: w.curricula.map((c) => ({
      name: c.name,
      description: c.description,
      // Measured stages are only known once a run resolves them (gold replays), which the console does not start.
      stages: Array.isArray(c.stages)
        ? c.stages.map((s) => ({ name: s.name, tasks: s.tasks }))
        : null,
      measured_stages: Array.isArray(c.stages) ? null : (c.stages as { count: number }).count,
      promote: c.promote,
      review: c.review,
    })),
    tables: [...browsableTables(w).values()].map((t) => ({
      name: t.name,
      columns: t.info.columns,
      pk: t.info.pk,
    })),
    tools: ep.tools,
    reset_schema: resetSchema(ep),
  };
}

/** A session as the console lists it. `drivable`: the console may call tools, submit and fork (HTTP sessions only). */
export function sessionView(
  s: Session,
  extra: { console: boolean; forkedFrom?: string },
): Record<string, unknown> {
  const inst = s.inst;
  const task = s.task ?? inst.task() ?? null;
  return {
    id: s.id,
    world: s.endpoint.name,
    owner: s.owner,
    console: extra.console,
    drivable: s.owner === 'http',
    forked_from: extra.forkedFrom ?? null,
    episode_id: s.episodeId,
    step_count: s.stepCount,
    created_at: new Date(s.createdAt).toISOString(),
    fixture: inst.fixture,
    seed: inst.seed,
    clock: { mode: inst.clock.mode, now: inst.clock.iso() },
    call_count: inst.callCount,
    task: task === null ? null : { id: task.id, prompt: task.prompt },
    graded: s.graded,
  };
}

/** One call of the timeline: its arguments, its result or error, and the rows it changed. */
export interface TimelineEntry {
  /** Absent for calls refused before they reached the tool (unknown tool, invalid arguments). */
  index?: number;
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: unknown;
  /** The call log no longer keeps this call's outcome (`--max-call-log-mb`): only its size. */
  result_dropped?: true;
  result_bytes?: number;
  changes: Change[];
}

/** The episode so far: `callLog()` with each numbered call's rows from `changeLog()`. */
export function timeline(s: Session): TimelineEntry[] {
  const byCall = new Map<number, Change[]>();
  for (const entry of s.inst.changeLog()) {
    const { call, tool: _tool, ...change } = entry as ChangeLogEntry;
    let list = byCall.get(call);
    if (list === undefined) byCall.set(call, (list = []));
    list.push(change);
  }
  return s.inst.callLog().map((c) => {
    const out: TimelineEntry = { tool: c.tool, args: c.args, ok: c.ok, changes: [] };
    if (c.index !== undefined) {
      out.index = c.index;
      out.changes = byCall.get(c.index) ?? [];
    }
    if (c.result_dropped) {
      out.result_dropped = true;
      out.result_bytes = c.result_bytes;
    } else if (c.ok) out.result = c.result;
    else out.error = c.error;
    return out;
  });
}

/** Which page of rows to read. */
export interface RowsQuery {
  offset?: string;
  limit?: string;
  sort?: string;
  dir?: string;
}

const MAX_PAGE = 500;

function whole(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw validationError('invalid page', [
      {
        type: 'int_parsing',
        loc: ['query', name],
        msg: `${name} must be a whole number from ${min} to ${max}`,
        input: value,
      },
    ]);
  }
  return n;
}

/**
 * A page of a table's current rows, sorted by one column (then the primary key), each marked with its net change
 * in this episode. Identifiers come from the world's table list, never from the request.
 */
export function tableRows(
  s: Session,
  table: BrowsableTable,
  q: RowsQuery,
): Record<string, unknown> {
  const { info, store } = table;
  const offset = whole('offset', q.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = whole('limit', q.limit, 25, 1, MAX_PAGE);
  const sort =
    q.sort === undefined || q.sort === '' ? null : info.columns.find((c) => c === q.sort);
  if (sort === undefined) {
    throw validationError('invalid sort', [
      {
        type: 'literal_error',
        loc: ['query', 'sort'],
        msg: `table ${table.name} has no column "${q.sort}"; its columns are ${info.columns.join(', ')}`,
        input: q.sort,
      },
    ]);
  }
  const dir =
    q.dir === undefined || q.dir === '' || q.dir === 'asc'
      ? 'ASC'
      : q.dir === 'desc'
        ? 'DESC'
        : null;
  if (dir === null)
    throw validationError('invalid sort', [
      {
        type: 'literal_error',
        loc: ['query', 'dir'],
        msg: "dir must be 'asc' or 'desc'",
        input: q.dir,
      },
    ]);
  const from = quoteIdent(info.name);
  const order = [
    ...(sort === null ? [] : [`${quoteIdent(sort)} ${dir}`]),
    ...info.pk.map((c) => `${quoteIdent(c)} ${sort === null ? dir : 'ASC'}`),
  ];
  const sql = `SELECT ${info.columns.map(quoteIdent).join(', ')} FROM ${from}${order.length > 0 ? ` ORDER BY ${order.join(', ')}` : ''} LIMIT ? OFFSET ?`;
  const inst = s.inst;
  const total = inst.queryStore<{ n: number }>(store, `SELECT count(*) AS n FROM ${from}`)[0].n;
  const rows = inst.queryStore<Record<string, unknown>>(store, sql, limit, offset);
  const changed = new Map<string, string>();
  for (const c of inst.changes()) {
    if (c.table === table.name) changed.set(JSON.stringify(info.pk.map((k) => c.key[k])), c.op);
  }
  return {
    table: table.name,
    columns: info.columns,
    pk: info.pk,
    total,
    offset,
    limit,
    sort,
    dir: dir.toLowerCase(),
    rows: rows.map((r) => info.columns.map((c) => r[c])),
    changed: rows.map((r) => changed.get(JSON.stringify(info.pk.map((k) => r[k]))) ?? null),
  };
}
