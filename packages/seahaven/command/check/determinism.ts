/**
 * The determinism smoke: for each fixture, a seeded random agent plays the same calls twice on fresh instances, and
 * both plays must end in identical state documents and return identical results. A world that reads the host's
 * clock, entropy or module state, or returns rows in plan order, shows up here even where lint cannot see it.
 */
import { Rng, Stream } from '../../core/random.ts';
import type { World } from '../../core/world.ts';
import { finding, type Finding } from './codes.ts';
import { randomArgs, rememberValues, type SeenValues } from '../../core/random-args.ts';
import type { Check } from './check.ts';
import { visibleInMount } from '../../core/mount.ts';

/** The instance seed of both plays. */
export const SMOKE_SEED = 7;
const DEFAULT_CALLS = 40;

interface Crash {
  call: number;
  tool: string;
  args: unknown;
  error: string;
}

interface Play {
  state: string;
  changes: { table: string; key: unknown }[];
  results: { tool: string; json: string }[];
  crashes: Crash[];
}

function play(world: World, fixture: string | null, calls: number): Play {
  const logged: string[] = [];
  const inst = world.instance({
    ...(fixture === null ? {} : { fixture }),
    seed: SMOKE_SEED,
    clock: 'tick',
    logger: (line) => logged.push(line),
  });
  try {
    const agent = new Rng(new Stream(`seahaven-check/${world.name}/${fixture ?? ''}`));
    const tools = inst.tools();
    const seen: SeenValues = { strings: [], integers: [] };
    const results: Play['results'] = [];
    const crashes: Crash[] = [];
    for (let n = 0; n < calls && tools.length > 0; n++) {
      const tool = agent.pick(tools);
      const args = randomArgs(tool.inputSchema, agent, seen) as Record<string, unknown>;
      const r = inst.call(tool.name, args);
      results.push({ tool: tool.name, json: JSON.stringify(r) });
      if (r.ok) rememberValues(r.result, seen);
      else if (r.error.code === 'internal') {
        const id = String(r.error.details?.id ?? '');
        const line = logged.find((l) => l.includes(id)) ?? '';
        crashes.push({
          call: n + 1,
          tool: tool.name,
          args,
          error: /\): ([^\n]*)/.exec(line)?.[1] ?? 'internal error',
        });
      }
    }
    const state = inst.state();
    return { state: JSON.stringify(state), changes: state.changes, results, crashes };
  } finally {
    inst.destroy();
  }
}

function firstDifference(a: Play, b: Play): string {
  const n = Math.max(a.changes.length, b.changes.length);
  for (let i = 0; i < n; i++) {
    const [x, y] = [a.changes[i], b.changes[i]];
    if (JSON.stringify(x) !== JSON.stringify(y)) {
      const c = x ?? y;
      return `the change to ${c.table} ${JSON.stringify(c.key)}${x && y ? '' : ' exists in only one play'}`;
    }
  }
  return "the state document's header";
}

/** Smoke findings for one fixture (`null`: a blank instance). */
export async function smokeFixture(
  world: World,
  fixture: string | null,
  calls: number,
): Promise<Finding[]> {
  const object = fixture === null ? 'blank instance' : `fixture ${fixture}`;
  const label = fixture === null ? 'a blank instance' : `fixture "${fixture}"`;
  let first: Play;
  let second: Play;
  try {
    first = play(world, fixture, calls);
    // Let the wall clock move, so a world that reads it cannot match itself by luck.
    await new Promise((done) => setTimeout(done, 5));
    second = play(world, fixture, calls);
  } catch (e) {
    // A fixture whose frozen image is refused is the fixtures check's finding, not this one's.
    if ((e as { code?: string }).code === 'fixture_invalid') return [];
    return [
      finding(
        'SH604',
        `The smoke could not play ${label}: ${(e as Error).message.split('\n')[0]}`,
        { location: { object } },
      ),
    ];
  }
  const out: Finding[] = [];
  const setup = `seed ${SMOKE_SEED}, ${calls} calls, clock 'tick'`;
  if (first.state !== second.state) {
    out.push(
      finding(
        'SH601',
        `Two identical plays of ${label} (${setup}) end in different states; they first differ at ${firstDifference(first, second)}.`,
        { location: { object } },
      ),
    );
  } else {
    const i = first.results.findIndex((r, k) => r.json !== second.results[k]?.json);
    if (i !== -1)
      out.push(
        finding(
          'SH602',
          `Two identical plays of ${label} (${setup}) return different results at call ${i + 1} (${first.results[i].tool}).`,
          { location: { object: `${object}, call ${i + 1}` } },
        ),
      );
  }
  const reported = new Set<string>();
  const mounted = mountOfTool(world);
  for (const crash of first.crashes) {
    if (reported.has(crash.tool)) continue;
    reported.add(crash.tool);
    const where = `on valid arguments ${JSON.stringify(crash.args)} (${label}, ${setup}, call ${crash.call})`;
    const mount = mounted.get(crash.tool);
    if (mount !== undefined)
      out.push(
        finding(
          'SH605',
          `Tool "${crash.tool}" of the world mounted at "${mount}" came back internal, with ${crash.error}, ${where}.`,
          { location: { object: `tool ${crash.tool}` } },
        ),
      );
    else
      out.push(
        finding('SH603', `Tool "${crash.tool}" crashed with ${crash.error} ${where}.`, {
          location: { object: `tool ${crash.tool}` },
        }),
      );
  }
  return out;
}

/** The mount of each agent-visible tool that a mounted world provides. */
function mountOfTool(world: World): Map<string, string> {
  const out = new Map<string, string>();
  for (const [mount, m] of Object.entries(world.mounts))
    for (const t of m.world.tools) if (visibleInMount(m, t.name)) out.set(m.prefix + t.name, mount);
  return out;
}

export const determinismCheck: Check = {
  name: 'determinism',
  description:
    'a seeded random agent plays each fixture twice; states and results must be identical',
  async run(target, options) {
    if (!target.world) return [];
    const calls = options.smokeCalls ?? DEFAULT_CALLS;
    const fixtures = Object.keys(target.world.fixtures);
    const out: Finding[] = [];
    for (const fixture of fixtures.length > 0 ? fixtures : [null])
      out.push(...(await smokeFixture(target.world, fixture, calls)));
    return out;
  },
};
