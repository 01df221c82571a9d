/**
 * A chaos agent: seeded random tool calls whose arguments are generated from each tool's JSON Schema, with ids taken
 * from earlier results so that some calls really change rows. A grader that gives it full marks is not grading.
 */
import type { CallResult, ToolListing } from '../kit/index.ts';
import { Rng, Stream } from '../kit/random.ts';

/** What the chaos agent plays against: an instance, or anything with its tool list and `call`. */
export interface ChaosTarget {
  tools(): ToolListing[];
  call(tool: string, args?: Record<string, unknown>): CallResult;
}

export interface ChaosOptions {
  /** Seed of the agent's choices. Default 1. */
  seed?: number;
  /** Number of tool calls. Default 30. */
  calls?: number;
}

export interface ChaosRun {
  seed: number;
  calls: number;
  /** Calls the world accepted. */
  succeeded: number;
}

/** A JSON Schema object, as a tool listing's `inputSchema` carries it. */
export type JsonSchema = Record<string, unknown>;

/** The chaos agent's seeded generator: the kit's own `Rng` over a stream seeded from a string. */
export class ChaosRandom extends Rng {
  constructor(seed: string) {
    super(new Stream(seed));
  }
}

const WORDS = ['alpha', 'bravo', 'chaos', 'delta', 'echo', 'fox', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

function isIdName(name: string): boolean {
  return name === 'id' || name.endsWith('_id') || name === 'cursor';
}

function stringFor(schema: JsonSchema, name: string, rnd: ChaosRandom, pool: readonly string[]): string {
  if (isIdName(name) && pool.length > 0 && rnd.next() < 0.85) return rnd.pick(pool);
  const word = `${rnd.pick(WORDS)}${rnd.int(0, 999)}`;
  const day = `2026-${String(rnd.int(1, 12)).padStart(2, '0')}-${String(rnd.int(1, 28)).padStart(2, '0')}`;
  const candidates = [word, `${word}@example.com`, day, `${day}T09:00:00.000Z`, WORDS[rnd.int(0, WORDS.length - 1)].slice(0, 3), String(rnd.int(0, 99999))];
  let out = schema.format === 'email' ? candidates[1] : word;
  if (typeof schema.pattern === 'string') {
    let re: RegExp | null = null;
    try {
      re = new RegExp(schema.pattern);
    } catch {
      re = null;
    }
    const fits = re ? candidates.filter((c) => re.test(c)) : [];
    if (fits.length) out = schema.format === 'email' && fits.includes(candidates[1]) ? candidates[1] : rnd.pick(fits);
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  while (out.length < min) out += 'x';
  return out.length > max ? out.slice(0, max) : out;
}

function numberFor(schema: JsonSchema, integer: boolean, rnd: ChaosRandom): number {
  const lo = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0;
  const rawHi = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : lo + 1000;
  // Keep numbers modest: huge values exercise nothing a grader cares about.
  const hi = Math.max(lo, Math.min(rawHi, lo + 100_000));
  if (!integer) return lo + rnd.next() * (hi - lo);
  const [a, b] = [Math.ceil(lo), Math.floor(hi)];
  return a <= b ? rnd.int(a, b) : a;
}

/**
 * Arguments for a JSON Schema: required properties always, optional ones half the time; properties named `id`,
 * `*_id` or `cursor` mostly reuse values from `pool` (ids seen in earlier results).
 * @example
 * argsFromSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['n'] }, new ChaosRandom('s'), [])
 */
export function argsFromSchema(schema: JsonSchema, rnd: ChaosRandom, pool: readonly string[], name = '', depth = 0): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length) return rnd.pick(schema.enum);
  if ('const' in schema) return schema.const;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length) return argsFromSchema(rnd.pick(branches), rnd, pool, name, depth);
  let type = schema.type as string | string[] | undefined;
  if (Array.isArray(type)) type = type.length > 1 && type.includes('null') && rnd.next() < 0.2 ? 'null' : rnd.pick(type.filter((t) => t !== 'null').length ? type.filter((t) => t !== 'null') : type);
  if (type === undefined && schema.properties) type = 'object';
  switch (type) {
    case 'string': return stringFor(schema, name, rnd, pool);
    case 'integer': return numberFor(schema, true, rnd);
    case 'number': return numberFor(schema, false, rnd);
    case 'boolean': return rnd.next() < 0.5;
    case 'null': return null;
    case 'array': {
      if (depth > 3) return [];
      const items = (schema.items ?? {}) as JsonSchema;
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const n = Math.max(min, rnd.int(0, 3));
      return Array.from({ length: n }, () => argsFromSchema(items, rnd, pool, name, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 3) return out;
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [key, sub] of Object.entries(props)) {
        if (required.has(key) || rnd.next() < 0.5) out[key] = argsFromSchema(sub, rnd, pool, key, depth + 1);
      }
      return out;
    }
    default: return rnd.pick([null, 0, 'x']);
  }
}

function harvest(value: unknown, pool: string[], seen: Set<string>, key = ''): void {
  if (Array.isArray(value)) {
    for (const v of value) harvest(v, pool, seen, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) harvest(v, pool, seen, k);
  } else if ((typeof value === 'string' || typeof value === 'number') && (isIdName(key) || key === 'next_cursor')) {
    const text = String(value);
    if (!seen.has(text)) {
      seen.add(text);
      pool.push(text);
    }
  }
}

/**
 * Play `calls` random tool calls against `target`.
 * @example
 * runChaos(world.instance({ fixture: 'small_startup' }), { seed: 2, calls: 30 })
 */
export function runChaos(target: ChaosTarget, options: ChaosOptions = {}): ChaosRun {
  const seed = options.seed ?? 1;
  const calls = options.calls ?? 30;
  const rnd = new ChaosRandom(`seahaven-chaos:${seed}`);
  const tools = target.tools();
  if (tools.length === 0) return { seed, calls: 0, succeeded: 0 };
  const pool: string[] = [];
  const seen = new Set<string>();
  let succeeded = 0;
  for (let i = 0; i < calls; i++) {
    const tool = rnd.pick(tools);
    const args = argsFromSchema(tool.inputSchema, rnd, pool);
    const result = target.call(tool.name, (args ?? {}) as Record<string, unknown>);
    if (result.ok) {
      succeeded++;
      harvest(result.result, pool, seen);
    }
  }
  return { seed, calls, succeeded };
}
