/** Composition: which tools of a mounted sub-world the agent sees, the worlds of an instance by mount, and their clock hooks. */
import type { Ctx } from './ctx.ts';
import type { Tool, ToolListing } from './tool.ts';
import type { MountSpec, World } from './world-types.ts';

/** Whether a sub-world tool is shown through a mount. */
export function visibleInMount(m: MountSpec, tool: string): boolean {
  if (m.allow && !m.allow.includes(tool)) return false;
  return !(m.block && m.block.includes(tool));
}

/** The agent-facing tool list of a world: its own tools, then each mount's visible tools under the mount's prefix. */
export function composedToolListings(world: World): ToolListing[] {
  const out: ToolListing[] = world.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
  for (const m of Object.values(world.mounts)) {
    for (const l of m.world.toolListings()) {
      if (visibleInMount(m, l.name)) out.push({ ...l, name: m.prefix + l.name });
    }
  }
  return out;
}

/** A world and its mounted sub-worlds, keyed by mount name (`null` for the host), in declaration order. */
export function worldsByMount(world: World): Map<string | null, World> {
  return new Map<string | null, World>([
    [null, world],
    ...Object.entries(world.mounts).map(([m, s]): [string, World] => [m, s.world]),
  ]);
}

/** A tool as an instance runs it: the tool, its agent-visible name, and the store it runs in. */
export interface Bound {
  tool: Tool<any, any>;
  /** The agent-visible name (a mounted tool's carries its prefix). */
  name: string;
  /** Index into the instance's stores: 0 = host, then mounts in declaration order. */
  store: number;
}

const boundByWorld = new WeakMap<World, Map<string, Bound>>();

/** The agent-visible tool names of a world and where each runs; computed once per world. */
export function boundTools(world: World): Map<string, Bound> {
  let bound = boundByWorld.get(world);
  if (bound === undefined) {
    bound = new Map();
    for (const t of world.tools) bound.set(t.name, { tool: t, name: t.name, store: 0 });
    Object.values(world.mounts).forEach((m, i) => {
      for (const t of m.world.tools)
        if (visibleInMount(m, t.name))
          bound!.set(m.prefix + t.name, { tool: t, name: m.prefix + t.name, store: i + 1 });
    });
    boundByWorld.set(world, bound);
  }
  return bound;
}

/** A world's or a mounted world's `onClockAdvance`, and the store it runs in (`null`: the host's). */
export interface ClockHook {
  mount: string | null;
  run: NonNullable<World['onClockAdvance']>;
}

/** What runs while time passes: each mounted world's hook in its own store, then the host's. */
export function clockHooksOf(world: World): ClockHook[] {
  const hooks: ClockHook[] = [];
  for (const [mount, m] of Object.entries(world.mounts))
    if (m.world.onClockAdvance) hooks.push({ mount, run: m.world.onClockAdvance });
  if (world.onClockAdvance) hooks.push({ mount: null, run: world.onClockAdvance });
  return hooks;
}

/**
 * Run the hooks of one clock advance, each with its store's context, as a generator that stops wherever a hook may
 * pause. The result is the host's hook's when it alone has one; otherwise one entry per world with a hook, under the
 * mount's name (the host's under its world name). A hook written as a
 * generator function (`function* onClockAdvance(ctx, passed)`) pauses at each `yield`, and its `return` value is its
 * result; any other hook runs whole. Whoever drives the generator decides only when the next part runs, never what it
 * does, so the advance writes the same state however it is sliced.
 */
export function* clockHookSteps(
  world: World,
  hooks: readonly ClockHook[],
  ctxOf: (mount: string | null) => Ctx,
  passed: { from: number; to: number },
): Generator<unknown, unknown> {
  const single = hooks.length === 1 && hooks[0].mount === null;
  const out: Record<string, unknown> = {};
  for (const h of hooks) {
    let result = h.run(ctxOf(h.mount), passed);
    if (isGenerator(result)) result = yield* result;
    if (single) return result;
    out[h.mount ?? world.name] = result ?? null;
  }
  return out;
}

function isGenerator(v: unknown): v is Generator<unknown, unknown> {
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as Generator).next === 'function' &&
    typeof (v as Generator)[Symbol.iterator] === 'function'
  );
}
