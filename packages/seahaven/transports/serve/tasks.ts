/**
 * A world's tasks as a trainer sees them: what each asks (id, fixture, prompt, difficulty, tags, curriculum stages) and
 * never how it is graded, grouped into splits a trainer can index. Served as `GET /tasks` and as OpenEnv's Task API
 * (`/<world>/splits`, `/tasks`, `/num_tasks`, `/task`, `/task_range`), and read by a reset with `{split, index}`.
 *
 * Splits: `all` (every task in declaration order), one per curriculum, named after it (its tasks stage by stage), and
 * one per tag, `tag:<tag>` (the tagged tasks in declaration order).
 */
import { resolveCurriculum } from '../../libraries/curricula/define.ts';
import type { World } from '../../core/world.ts';

/** One task on the wire: what the agent is asked, where it starts, and where curricula place it. */
export interface TaskEntry {
  id: string;
  world: string;
  fixture: string;
  prompt: string;
  difficulty: number | null;
  tags: string[];
  /** The curriculum stages the task is in, one per curriculum that lists it. */
  stages: { curriculum: string; stage: string }[];
}

/** A split's name and size, as `GET /tasks` lists it. */
export interface SplitSummary {
  name: string;
  num_tasks: number;
}

/** A world's tasks and splits. */
export interface TaskCatalog {
  readonly tasks: readonly TaskEntry[];
  /** Split name → its tasks, in the split's order. */
  readonly splits: ReadonlyMap<string, readonly TaskEntry[]>;
}

/** The name of the split of every task. */
export const ALL_SPLIT = 'all';

const catalogs = new WeakMap<World, TaskCatalog>();

/**
 * The world's task catalog, built once (a curriculum with automatic stages measures the tasks' difficulty, so it is
 * not rebuilt per request).
 * @example
 * taskCatalog(crm).splits.get('crm-basics')?.map((t) => t.id); // ['add_company', 'add_lead', …]
 */
export function taskCatalog(world: World): TaskCatalog {
  let catalog = catalogs.get(world);
  if (catalog === undefined) {
    catalog = buildCatalog(world);
    catalogs.set(world, catalog);
  }
  return catalog;
}

function buildCatalog(world: World): TaskCatalog {
  const resolved = world.curricula.map((c) => resolveCurriculum(world, c));
  const stagesOf = new Map<string, { curriculum: string; stage: string }[]>();
  for (const c of resolved) {
    for (const s of c.stages)
      for (const id of s.tasks)
        stagesOf.set(id, [...(stagesOf.get(id) ?? []), { curriculum: c.name, stage: s.name }]);
  }
  const tasks = world.tasks.map((t): TaskEntry => ({
    id: t.id,
    world: world.name,
    fixture: t.fixture,
    prompt: t.prompt,
    difficulty: typeof t.difficulty === 'number' ? t.difficulty : null,
    tags: [...(t.tags ?? [])],
    stages: stagesOf.get(t.id) ?? [],
  }));
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const splits = new Map<string, TaskEntry[]>([[ALL_SPLIT, tasks]]);
  // A curriculum named `all` would shadow the split of every task; it keeps its runs, and is not a split.
  for (const c of resolved)
    if (c.name !== ALL_SPLIT)
      splits.set(
        c.name,
        c.stages.flatMap((s) => s.tasks.map((id) => byId.get(id)!)),
      );
  for (const t of tasks) {
    for (const tag of t.tags) {
      const name = `tag:${tag}`;
      const list = splits.get(name) ?? [];
      if (!list.includes(t)) list.push(t);
      splits.set(name, list);
    }
  }
  return { tasks, splits };
}

/** `GET /tasks` for one world, or (several) for every world: tasks, and splits of the same name added up. */
export function tasksAnswer(worlds: readonly World[]): {
  tasks: TaskEntry[];
  splits: SplitSummary[];
} {
  const tasks: TaskEntry[] = [];
  const sizes = new Map<string, number>();
  for (const w of worlds) {
    const c = taskCatalog(w);
    tasks.push(...c.tasks);
    for (const [name, list] of c.splits) sizes.set(name, (sizes.get(name) ?? 0) + list.length);
  }
  return { tasks, splits: [...sizes].map(([name, num_tasks]) => ({ name, num_tasks })) };
}

/** Why a split name is not one of the world's, naming those that are. */
export function unknownSplit(world: World, split: unknown): string {
  const names = [...taskCatalog(world).splits.keys()];
  return `world "${world.name}" has no split ${JSON.stringify(split)}; its splits are ${names.join(', ')}`;
}

/**
 * The task at `index` of `split`: the entry, or a refusal naming the fix (an unknown split, or an index past the
 * split's size).
 */
export function taskAt(
  world: World,
  split: string,
  index: number,
): TaskEntry | { refused: string; field: 'split' | 'index' } {
  const list = taskCatalog(world).splits.get(split);
  if (list === undefined) return { refused: unknownSplit(world, split), field: 'split' };
  if (index < 0 || index >= list.length) {
    const range = list.length === 0 ? 'it is empty' : `use an index from 0 to ${list.length - 1}`;
    return {
      refused: `index ${index} is out of range for split "${split}" of world "${world.name}", which has ${list.length} task(s); ${range}`,
      field: 'index',
    };
  }
  return list[index];
}
