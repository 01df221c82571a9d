/** Worlds: a SQLite schema, tools, fixtures and tasks, checked when defined. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { DefinitionError } from './errors.ts';
import { RESERVED_TOOL_NAMES } from './tool.ts';
import { KIT_DDL, readTables, schemaHash, type TableInfo } from './schema.ts';
import { parseInstant } from './clock.ts';
import { installSqlOverrides } from './sql-overrides.ts';
import { Stream } from './random.ts';
import { startInstance, type Instance, type InstanceOptions } from './instance.ts';
import { composedToolListings, visibleInMount } from './mount.ts';
import type { MountSpec, World, WorldSpec } from './world-types.ts';
import type { HttpFace } from './http-face.ts';

export type { FixtureSpec, MountSpec, World, WorldSpec } from './world-types.ts';

// The member of World that names Instance. Declared here, where it is implemented, so the types World is made of
// (world-types.ts) sit below the runtime and the runtime can use them without importing this module.
declare module './world-types.ts' {
  interface World {
    /**
     * Start an instance: a private copy of a fixture (or the blank schema). With `task`, the task's fixture: naming
     * another fixture beside it throws `InstanceError` (`fixture_mismatch`).
     * @example
     * const inst = crm.instance({ task: 'add_lead', seed: 1 }); // starts from small_startup, add_lead's fixture
     */
    instance(options?: InstanceOptions): Instance;
  }
}

const WORLD_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** The `http` option: absent, or what `defineHttpFace` returned. */
function checkedFace(where: string, face: WorldSpec['http']): World['http'] {
  if (face === undefined) return undefined;
  if (face === null || typeof face !== 'object' || !(face.operationsByName instanceof Map)) {
    throw new DefinitionError(
      `${where}: http must come from defineHttpFace({ basePath, operations, credential, issueKey, route, reply }); see docs/http-apis.md`,
    );
  }
  return face;
}

/** The face a world serves: its own `http` option, or the face of the one mount that sets `http: true`. */
function servedFace(
  where: string,
  own: WorldSpec['http'],
  mounts: Readonly<Record<string, MountSpec>>,
): { http: HttpFace | undefined; httpMount: string | undefined } {
  const http = checkedFace(where, own);
  const serving = Object.entries(mounts).filter(
    ([, m]) => m.http !== undefined && m.http !== false,
  );
  for (const [mount, m] of serving) {
    if (m.http !== true)
      throw new DefinitionError(
        `${where}: worlds.${mount}.http must be true or false; got ${JSON.stringify(m.http)}.`,
      );
    if (m.world.http === undefined)
      throw new DefinitionError(
        `${where}: worlds.${mount}.http is true, but ${m.world.name} has no HTTP face to serve; remove it, or give ${m.world.name} one with defineWorld({ http: defineHttpFace({...}) }).`,
      );
    if (m.world.httpMount !== undefined)
      throw new DefinitionError(
        `${where}: worlds.${mount}.http is true, but ${m.world.name}'s HTTP face is itself served from its mount "${m.world.httpMount}"; serve a face through one mount only.`,
      );
  }
  if (serving.length === 0) return { http, httpMount: undefined };
  if (http !== undefined)
    throw new DefinitionError(
      `${where}: the world has an http option of its own and worlds.${serving[0][0]}.http is true; a world serves one HTTP face, so drop one of them.`,
    );
  if (serving.length > 1)
    throw new DefinitionError(
      `${where}: worlds.${serving[0][0]}.http and worlds.${serving[1][0]}.http are both true; a world serves one HTTP face, so set it on one mount.`,
    );
  const [mount, m] = serving[0];
  return { http: m.world.http, httpMount: mount };
}

/** The tables whose writes are captured: all but the `untracked` ones, which must name tables of the schema. */
function trackedOf(
  where: string,
  tables: readonly TableInfo[],
  untracked: WorldSpec['untracked'],
): TableInfo[] {
  if (untracked === undefined) return [...tables];
  if (!Array.isArray(untracked))
    throw new DefinitionError(
      `${where}: untracked must be an array of table names, like ['idempotency_keys']`,
    );
  const names = new Set(tables.map((t) => t.name));
  const unknown = untracked.filter((n) => !names.has(n));
  if (unknown.length > 0)
    throw new DefinitionError(
      `${where}: untracked names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, which the schema does not create; its tables are ${[...names].join(', ')}`,
    );
  return tables.filter((t) => !untracked.includes(t.name));
}

/** The `onClockAdvance` option: absent or a function. */
function checkedHook(where: string, hook: WorldSpec['onClockAdvance']): World['onClockAdvance'] {
  if (hook !== undefined && typeof hook !== 'function')
    throw new DefinitionError(
      `${where}: onClockAdvance must be a function (ctx, { from, to }) => result`,
    );
  return hook;
}

/** Read a SQL file next to a module: `readSql(import.meta.url, 'schema.sql')`. */
export function readSql(moduleUrl: string, file: string): string {
  return readFileSync(fileURLToPath(new URL(file, moduleUrl)), 'utf8');
}

/**
 * Define a world. The schema is executed on a scratch database here, so author mistakes fail at import.
 * @example
 * export default defineWorld({ name: 'crm', version: '1.0.0', schema, tools: [createContact] });
 */
export function defineWorld(spec: WorldSpec): World {
  const where = `defineWorld(${JSON.stringify(spec?.name)})`;
  if (typeof spec?.name !== 'string' || !WORLD_NAME.test(spec.name))
    throw new DefinitionError(`${where}: the name must match ${WORLD_NAME}, like "crm".`);
  if (typeof spec.version !== 'string' || spec.version === '')
    throw new DefinitionError(`${where}: give a version, like version: '1.0.0'.`);
  if (typeof spec.schema !== 'string' || spec.schema.trim() === '')
    throw new DefinitionError(
      `${where}: schema is empty; pass the DDL, e.g. schema: readSql(import.meta.url, 'schema.sql').`,
    );
  if (!Array.isArray(spec.tools) || spec.tools.length === 0)
    throw new DefinitionError(
      `${where}: tools must be a non-empty array of defineTool(...) results.`,
    );
  const epoch = spec.epoch ?? '2026-01-01T00:00:00.000Z';
  try {
    parseInstant(epoch, 'epoch');
  } catch (e) {
    throw new DefinitionError(`${where}: ${(e as Error).message}`);
  }

  const seen = new Set<string>();
  for (const tool of spec.tools) {
    if (typeof tool?.name !== 'string' || typeof tool.run !== 'function' || !tool.inputSchema) {
      throw new DefinitionError(
        `${where}: every entry of tools must come from defineTool(...); got ${typeof tool}.`,
      );
    }
    if (seen.has(tool.name))
      throw new DefinitionError(
        `${where}: two tools are named "${tool.name}"; tool names must be unique.`,
      );
    if (RESERVED_TOOL_NAMES.includes(tool.name))
      throw new DefinitionError(
        `${where}: "${tool.name}" is a reserved protocol name; rename the tool.`,
      );
    seen.add(tool.name);
  }
  const mounts = spec.worlds ?? {};
  for (const [mount, m] of Object.entries(mounts)) {
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(mount))
      throw new DefinitionError(
        `${where}: mount name "${mount}" must match ^[a-z][a-z0-9_]{0,31}$.`,
      );
    if (typeof m?.world?.instance !== 'function')
      throw new DefinitionError(
        `${where}: worlds.${mount}.world must be a world from defineWorld(...).`,
      );
    if (typeof m.prefix !== 'string' || !/^[a-z][a-z0-9_]*$/.test(m.prefix))
      throw new DefinitionError(
        `${where}: worlds.${mount}.prefix must be lower snake case, like "${mount}_".`,
      );
    if (m.receive !== undefined && typeof m.receive !== 'function')
      throw new DefinitionError(
        `${where}: worlds.${mount}.receive must be a function (ctx, message) => answer.`,
      );
    const subNames = new Set(m.world.tools.map((t) => t.name));
    for (const n of [...(m.allow ?? []), ...(m.block ?? [])]) {
      if (!subNames.has(n))
        throw new DefinitionError(
          `${where}: worlds.${mount} names tool "${n}", which ${m.world.name} does not have; its tools are ${[...subNames].join(', ')}.`,
        );
    }
    for (const t of m.world.tools) {
      const full = m.prefix + t.name;
      if (!visibleInMount(m, t.name)) continue;
      if (seen.has(full))
        throw new DefinitionError(
          `${where}: the composed tool "${full}" clashes with another tool; change worlds.${mount}.prefix.`,
        );
      seen.add(full);
    }
  }

  const { tables, hash } = runSchema(where, spec.schema, epoch);
  const fixtures = spec.fixtures ?? {};
  for (const [id, f] of Object.entries(fixtures)) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(id))
      throw new DefinitionError(`${where}: fixture id "${id}" must match ^[a-z][a-z0-9_]{0,63}$.`);
    if (typeof f?.build !== 'function')
      throw new DefinitionError(`${where}: fixtures.${id}.build must be a function (ctx) => void.`);
    if (typeof f.description !== 'string' || f.description.trim() === '')
      throw new DefinitionError(`${where}: fixtures.${id} needs a description.`);
    try {
      parseInstant(f.now, `fixtures.${id}.now`);
    } catch (e) {
      throw new DefinitionError(`${where}: ${(e as Error).message}`);
    }
    if (f.parent !== undefined && !Object.hasOwn(fixtures, f.parent))
      throw new DefinitionError(
        `${where}: fixtures.${id}.parent names "${f.parent}", which is not a fixture of this world.`,
      );
  }
  for (const id of Object.keys(fixtures)) {
    const chain = new Set<string>();
    for (let cur: string | undefined = id; cur !== undefined; cur = fixtures[cur].parent) {
      if (chain.has(cur))
        throw new DefinitionError(
          `${where}: fixtures.${id} has a parent cycle (${[...chain, cur].join(' → ')}).`,
        );
      chain.add(cur);
    }
  }
  const tasks = spec.tasks ?? [];
  const taskIds = new Set<string>();
  for (const t of tasks) {
    if (taskIds.has(t.id)) throw new DefinitionError(`${where}: two tasks have the id "${t.id}".`);
    taskIds.add(t.id);
    if (!Object.hasOwn(fixtures, t.fixture))
      throw new DefinitionError(
        `${where}: task "${t.id}" starts from fixture "${t.fixture}", which this world does not declare; its fixtures are ${Object.keys(fixtures).join(', ') || '(none)'}.`,
      );
  }
  const curricula = spec.curricula ?? [];
  const curriculumNames = new Set<string>();
  for (const c of curricula) {
    if (typeof c?.check !== 'function')
      throw new DefinitionError(
        `${where}: every entry of curricula must come from defineCurriculum(...).`,
      );
    if (curriculumNames.has(c.name))
      throw new DefinitionError(`${where}: two curricula are named "${c.name}"; rename one.`);
    curriculumNames.add(c.name);
    c.check({ name: spec.name, tasks, fixtures });
  }

  const fixturesDir =
    spec.fixturesDir === undefined
      ? null
      : typeof spec.fixturesDir === 'string'
        ? spec.fixturesDir
        : fileURLToPath(spec.fixturesDir);
  const world: World = {
    name: spec.name,
    version: spec.version,
    description: spec.description ?? '',
    schema: spec.schema,
    tools: Object.freeze([...spec.tools]),
    fixtures: Object.freeze({ ...fixtures }),
    tasks: Object.freeze([...tasks]),
    curricula: Object.freeze([...curricula]),
    epoch,
    fixturesDir,
    mounts: Object.freeze({ ...mounts }),
    mcp: {
      name: spec.mcp?.name ?? spec.name,
      ...(spec.mcp?.instructions ? { instructions: spec.mcp.instructions } : {}),
    },
    ...servedFace(where, spec.http, mounts),
    onClockAdvance: checkedHook(where, spec.onClockAdvance),
    tables: Object.freeze(tables),
    trackedTables: Object.freeze(trackedOf(where, tables, spec.untracked)),
    schemaHash: hash,
    instance: (options?: InstanceOptions) => startInstance(world, options ?? {}),
    toolListings: () => composedToolListings(world),
    task: (id: string) => tasks.find((t) => t.id === id),
  };
  return Object.freeze(world);
}

/** Run the schema on a scratch database: its tables (each STRICT, with a primary key) and its hash, or a `DefinitionError`. */
function runSchema(
  where: string,
  schema: string,
  epoch: string,
): { tables: TableInfo[]; hash: string } {
  const db = new Database(':memory:');
  try {
    const stream = new Stream('schema-check');
    installSqlOverrides(
      db,
      () => epoch,
      () => stream,
    );
    db.exec(KIT_DDL);
    try {
      db.exec(schema);
    } catch (e) {
      throw new DefinitionError(
        `${where}: the schema does not execute: ${(e as Error).message}. Fix the DDL (try it with the sqlite3 shell).`,
      );
    }
    const tables = readTables(db);
    if (tables.length === 0) throw new DefinitionError(`${where}: the schema creates no tables.`);
    for (const t of tables) {
      if (!t.strict)
        throw new DefinitionError(
          `${where}: table "${t.name}" is not STRICT; end its CREATE TABLE with ") STRICT" so types are enforced.`,
        );
      if (t.pk.length === 0)
        throw new DefinitionError(
          `${where}: table "${t.name}" has no explicit PRIMARY KEY; declare one (e.g. id TEXT PRIMARY KEY) so changes can name their rows.`,
        );
    }
    return { tables, hash: schemaHash(db) };
  } finally {
    db.close();
  }
}
