/**
 * Play a task's gold solution over a socket. Gold solutions are synchronous (`inst.call` answers at once), so they run
 * on an in-process twin of the episode (same world, fixture, task and seed) that records each call; the recorded calls
 * are then sent as `call_tool` frames. The twin is also the reference: the wire must give the same results and grade.
 */
import type { Instance } from '../../../core/instance.ts';
import type { GoldTarget, Grade } from '../../../core/task.ts';
import type { World } from '../../../core/world.ts';
import type { WireProbe } from '../wire-probe.ts';

export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  /** What the call returned in process: the result, or the failure. */
  outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
  /** The twin's grade right after the call (for shaped rewards). */
  gradeAfter: number;
}

export interface GoldEpisode {
  calls: RecordedCall[];
  /** The twin's grade after the gold solution: what `submit` over the wire must report. */
  grade: Grade;
}

/** Run a task's gold solution on an in-process instance and record its calls and grade. */
export function recordGold(world: World, taskId: string, seed = 0): GoldEpisode {
  const task = world.task(taskId);
  if (!task?.gold) throw new Error(`task ${taskId} has no gold solution`);
  const inst: Instance = world.instance({ fixture: task.fixture, task: task.id, seed });
  try {
    const calls: RecordedCall[] = [];
    const target: GoldTarget = {
      call(tool, args = {}) {
        const r = inst.call(tool, args);
        calls.push({ tool, args, outcome: r.ok ? { ok: true, result: r.result } : { ok: false, error: r.error }, gradeAfter: inst.submit().reward });
        return r;
      },
      changes: () => inst.changes(),
      query: (sql, ...params) => inst.query(sql, ...params),
    };
    task.gold(target);
    return { calls, grade: inst.submit() };
  } finally {
    inst.destroy();
  }
}

/** The grade of doing nothing on a task, in process. */
export function idleGrade(world: World, taskId: string, seed = 0): Grade {
  const task = world.task(taskId)!;
  const inst = world.instance({ fixture: task.fixture, task: task.id, seed });
  try {
    return inst.submit();
  } finally {
    inst.destroy();
  }
}

/** A `call_tool` step frame. */
export const callFrame = (tool: string, args: Record<string, unknown>) => ({ type: 'step', data: { type: 'call_tool', tool_name: tool, arguments: args } });

export const SUBMIT = { type: 'step', data: { type: 'submit' } };

/** Send recorded calls over the probe's socket; the parsed step payloads, in order. */
export async function replay(probe: WireProbe, calls: RecordedCall[]): Promise<any[]> {
  const out = [];
  for (const c of calls) {
    const reply = await probe.ask(callFrame(c.tool, c.args));
    if (reply.type !== 'observation') throw new Error(`${c.tool} was refused: ${JSON.stringify(reply.data)}`);
    out.push(reply.data);
  }
  return out;
}

const goldCache = new Map<string, GoldEpisode>();

/** One episode over the socket: reset with `reset`, then the gold solution (`solve`) or nothing, then submit. */
export async function playEpisode(probe: WireProbe, world: World, reset: Record<string, unknown>, solve: boolean): Promise<{ task: string; start: any; done: any }> {
  const start = await probe.ask({ type: 'reset', data: reset });
  if (start.type !== 'observation') throw new Error(`reset refused: ${JSON.stringify(start.data)}`);
  const task: string = start.data.observation.task.id;
  const seed: number = start.data.observation.seed;
  if (solve) {
    const key = `${world.name}/${task}/${seed}`;
    if (!goldCache.has(key)) goldCache.set(key, recordGold(world, task, seed));
    await replay(probe, goldCache.get(key)!.calls);
  }
  const done = await probe.ask(SUBMIT);
  if (done.type !== 'observation') throw new Error(`submit refused: ${JSON.stringify(done.data)}`);
  return { task, start: start.data, done: done.data };
}
