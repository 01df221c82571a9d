/**
 * From the command line's words to a run's settings: which tasks (`--tasks`, or a split: `all`, `tag:<tag>`, a
 * curriculum or one of its stages as `<curriculum>:<stage>`), which seeds, how many trials, the budget. Every refusal
 * is one sentence that names the fix.
 */
import type { World } from '../../core/world-types.ts';
import type { RunSettings } from './store.ts';

export class OptionError extends Error {}

export interface RunFlags {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  url?: string;
  token?: string;
  /** The served world's grader token, with `url`: whole grades and change logs from the server. */
  graderToken?: string;
  tasks?: string;
  split?: string;
  seeds?: string;
  trials?: string;
  maxTurns?: string;
  maxTokens?: string;
  temperature?: string;
  concurrency?: string;
  retries?: string;
  /** Milliseconds before the first retry of a transient model error, doubled on each retry (default 500). */
  retryBackoff?: string;
  out?: string;
}

function wholeNumber(
  flag: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new OptionError(
      `${flag} ${text}: give a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`,
    );
  return n;
}

/** `0,1,2`, `0-4`, or a mix: `0-2,7`. */
export function parseSeeds(text: string | undefined): number[] {
  if (text === undefined) return [0];
  const out: number[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m)
      throw new OptionError(
        `--seeds ${text}: give whole numbers ≥ 0 and ranges, like 0,1,2 or 0-4`,
      );
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 100_000)
      throw new OptionError(`--seeds ${part}: a range goes up, like 0-4`);
    for (let s = from; s <= to; s++) if (!out.includes(s)) out.push(s);
  }
  if (out.length === 0) throw new OptionError('--seeds is empty; give seeds like 0,1,2 or 0-4');
  return out;
}

/** The task ids a run plays, in the world's order. */
export function selectTasks(
  world: World,
  tasks: string | undefined,
  split: string | undefined,
): string[] {
  const ids = world.tasks.map((t) => t.id);
  if (ids.length === 0)
    throw new OptionError(`${world.name} has no tasks to evaluate; define some with defineTask`);
  if (tasks !== undefined && split !== undefined)
    throw new OptionError('give --tasks or --split, not both');
  if (tasks !== undefined) {
    const wanted = tasks
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const unknown = wanted.filter((t) => !ids.includes(t));
    if (unknown.length > 0)
      throw new OptionError(
        `${world.name} has no task ${unknown.join(', ')}; its tasks are ${ids.join(', ')}`,
      );
    if (wanted.length === 0)
      throw new OptionError('--tasks is empty; name tasks like a,b, or leave it out for all');
    return ids.filter((t) => wanted.includes(t));
  }
  if (split === undefined || split === 'all') return ids;
  if (split.startsWith('tag:')) {
    const tag = split.slice(4);
    const found = world.tasks.filter((t) => t.tags?.includes(tag)).map((t) => t.id);
    if (found.length === 0)
      throw new OptionError(
        `no task of ${world.name} is tagged "${tag}"; its tags are ${[...new Set(world.tasks.flatMap((t) => t.tags ?? []))].join(', ') || 'none'}`,
      );
    return found;
  }
  const [name, stageName] = split.split(':');
  const curriculum = world.curricula.find((c) => c.name === name);
  if (curriculum === undefined) {
    throw new OptionError(
      `--split ${split}: give all, tag:<tag>, or a curriculum (or <curriculum>:<stage>) of ${world.name}: ${world.curricula.map((c) => c.name).join(', ') || 'it has none'}`,
    );
  }
  if (!Array.isArray(curriculum.stages))
    throw new OptionError(
      `curriculum ${name} measures its stages when first used; name its tasks with --tasks instead`,
    );
  const stages =
    stageName === undefined
      ? curriculum.stages
      : curriculum.stages.filter((s) => s.name === stageName);
  if (stages.length === 0)
    throw new OptionError(
      `curriculum ${name} has no stage "${stageName}"; its stages are ${curriculum.stages.map((s) => s.name).join(', ')}`,
    );
  const chosen = new Set<string>();
  for (const st of stages) {
    for (const t of st.tasks ?? []) chosen.add(t);
    for (const t of world.tasks) if (st.fixtures?.includes(t.fixture)) chosen.add(t.id);
  }
  return ids.filter((t) => chosen.has(t));
}

/** The sha256 of each fixture the tasks start from. */
export function fixtureHashes(
  world: World,
  tasks: readonly string[],
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const id of tasks) {
    const fixture = world.task(id)!.fixture;
    if (fixture in out) continue;
    const inst = world.instance({ task: id });
    out[fixture] = inst.fixtureSha256;
    inst.destroy();
  }
  return out;
}

export function numbers(flags: RunFlags): {
  concurrency: number;
  retries: number;
  retryBackoffMs: number;
} {
  return {
    concurrency: wholeNumber('--concurrency', flags.concurrency, 4, 1, 1024),
    retries: wholeNumber('--retries', flags.retries, 4, 0, 100),
    retryBackoffMs: wholeNumber('--retry-backoff', flags.retryBackoff, 500, 0, 600_000),
  };
}

/** The settings of a run from its flags. */
export function runSettings(world: World, flags: RunFlags): RunSettings {
  if (flags.model === undefined || flags.model.trim() === '')
    throw new OptionError(
      'name the model with --model <name>, as the server knows it (like qwen2.5:7b for Ollama)',
    );
  if (flags.baseUrl === undefined)
    throw new OptionError(
      'give the model server with --base-url <url>, an OpenAI-compatible API like http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1',
    );
  try {
    new URL(flags.baseUrl);
  } catch {
    throw new OptionError(
      `--base-url ${flags.baseUrl} is not a URL; give one like http://127.0.0.1:8080/v1`,
    );
  }
  const tasks = selectTasks(world, flags.tasks, flags.split);
  let temperature: number | null = null;
  if (flags.temperature !== undefined) {
    temperature = Number(flags.temperature);
    if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2)
      throw new OptionError(`--temperature ${flags.temperature}: give a number from 0 to 2`);
  }
  return {
    format: 'seahaven.eval-run/1',
    world: { name: world.name, version: world.version, schema_hash: world.schemaHash },
    fixtures: fixtureHashes(world, tasks),
    model: flags.model,
    base_url: flags.baseUrl,
    url: flags.url ?? null,
    tasks,
    seeds: parseSeeds(flags.seeds),
    trials: wholeNumber('--trials', flags.trials, 1, 1, 999),
    max_turns: wholeNumber('--max-turns', flags.maxTurns, 20, 1, 10_000),
    max_tokens:
      flags.maxTokens === undefined ? null : wholeNumber('--max-tokens', flags.maxTokens, 0, 1),
    temperature,
  };
}

/**
 * The grader token for a run on a served world: `--grader-token`, else `$SEAHAVEN_GRADER_TOKEN` (which a run in
 * process ignores, as a shell set up for `seahaven serve` may hold it); undefined for none.
 */
export function graderTokenOf(
  flags: RunFlags,
  env: Record<string, string | undefined>,
): string | undefined {
  if (flags.graderToken !== undefined && flags.url === undefined)
    throw new OptionError(
      "--grader-token goes with --url: it is the served world's secret; in process the runner has the whole grade already",
    );
  if (flags.graderToken === '')
    throw new OptionError(
      '--grader-token is empty; pass the secret the server was started with (seahaven serve --grader-token)',
    );
  if (flags.url === undefined) return undefined;
  return flags.graderToken ?? (env.SEAHAVEN_GRADER_TOKEN || undefined);
}

/** The API key: `--api-key`, else `$OPENAI_API_KEY`; `none` for a local server that takes none. */
export function apiKeyOf(flags: RunFlags, env: Record<string, string | undefined>): string {
  const key = flags.apiKey ?? (env.OPENAI_API_KEY || undefined);
  if (key === undefined)
    throw new OptionError(
      'no API key: pass --api-key <key> or set OPENAI_API_KEY (for a local server that needs none, --api-key none)',
    );
  return key;
}
