/**
 * Where an episode runs: an instance in this process (`world.instance({ task, seed })`), or a session of a world
 * served elsewhere (`SeahavenClient`, one WebSocket session per episode). The agent loop sees only this interface,
 * so both go through the same code.
 */
import type { Change, ChangeLogEntry } from '../capture.ts';
import type { CallLogEntry } from '../call-history.ts';
import type { Instance } from '../instance.ts';
import type { Grade } from '../task.ts';
import type { ToolListing } from '../tool.ts';
import type { World } from '../world-types.ts';
import { SeahavenClient } from '../client/index.ts';
import { callWithJson } from '../instance-internals.ts';

/** `json`, when the environment has it: the JSON text of the result (or of the error), as the call log recorded it. */
export type CallOutcome = ({ ok: true; result: unknown } | { ok: false; error: { code: string; message: string; details?: unknown } }) & { json?: string };

/** What the episode began with. */
export interface EpisodeStart {
  prompt: string;
  tools: ToolListing[];
  fixture: string | null;
  now: string;
}

/** What the episode left behind: its call log, the rows each call changed, and the net changes. */
export interface EpisodeTrace {
  fixtureSha256: string | null;
  calls: CallLogEntry[];
  changeLog: ChangeLogEntry[];
  changes: Change[];
}

export interface EpisodeEnv {
  start(task: string, seed: number): Promise<EpisodeStart>;
  call(tool: string, args: Record<string, unknown>): Promise<CallOutcome>;
  submit(): Promise<Grade>;
  trace(): Promise<EpisodeTrace>;
  close(): Promise<void>;
}

/** Opens one environment per episode. */
export type EnvFactory = () => Promise<EpisodeEnv>;

/**
 * Instances to start episodes on: a finished episode's instance is kept and restarted for the next one
 * (`inst.restart`, as the server's reset does: the same fixture's connections rolled back, observably a fresh
 * instance), else a new one is opened.
 */
function instancePool(world: World) {
  const spare: Instance[] = [];
  return {
    take(task: string, seed: number): Instance {
      const old = spare.pop();
      return old?.restart({ task, seed }) ?? (old?.destroy(), world.instance({ task, seed }));
    },
    give(inst: Instance): void {
      spare.push(inst);
    },
  };
}

/** Episodes in this process: a fresh instance each. */
export function localEnvs(world: World): EnvFactory {
  const pool = instancePool(world);
  return async () => {
    let inst: Instance | undefined;
    const live = () => {
      if (inst === undefined) throw new Error('start the episode first');
      return inst;
    };
    return {
      async start(task, seed) {
        inst = pool.take(task, seed);
        return { prompt: inst.task()!.prompt, tools: inst.tools(), fixture: inst.fixture, now: inst.clock.iso() };
      },
      async call(tool, args) {
        // With the JSON text the call log already made, so the agent loop does not serialise the result again.
        return live()[callWithJson](tool, args);
      },
      async submit() {
        return live().submit();
      },
      async trace() {
        const i = live();
        return { fixtureSha256: i.fixtureSha256, calls: i.callLog(), changeLog: i.changeLog(), changes: i.changes() };
      },
      async close() {
        if (inst !== undefined) pool.give(inst);
        inst = undefined;
      },
    };
  };
}

/**
 * Episodes on a served world: one WebSocket session each. The server sends no change log over the wire, so the
 * trace replays the episode's calls on a local instance of the same world (the same task, seed and calls give the
 * same rows, byte for byte) and checks that every call came out there as it did on the server. The first episode
 * checks that the server serves this world and version.
 */
export function remoteEnvs(url: string, world: World, options: { token?: string } = {}): EnvFactory {
  const pool = instancePool(world);
  let checked: Promise<void> | undefined;
  return async () => {
    const client = await SeahavenClient.connect(url, { token: options.token });
    let started: { task: string; seed: number } | undefined;
    const calls: { tool: string; args: Record<string, unknown>; outcome: CallOutcome }[] = [];
    /** The episode replayed on a local instance, once its calls are all made: for its whole grade and its change log. */
    let local: Instance | undefined;
    const replayed = (): Instance => {
      if (started === undefined) throw new Error('start the episode first');
      if (local !== undefined) return local;
      const inst = pool.take(started.task, started.seed);
      for (const c of calls) {
        const here = inst[callWithJson](c.tool, c.args);
        const served = c.outcome.ok ? JSON.stringify(c.outcome.result) : JSON.stringify(c.outcome.error);
        if (here.ok !== c.outcome.ok || here.json !== served) {
          pool.give(inst);
          throw new Error(`${c.tool} came out otherwise when the episode was replayed here than on ${url}; is it serving this same ${world.name} ${world.version} with the same fixtures?`);
        }
      }
      return (local = inst);
    };
    return {
      async start(task, seed) {
        const r = await client.reset({ task, seed });
        const obs = r.observation;
        checked ??= client.state().then((state) => {
          if (state.world.name !== world.name || state.world.version !== world.version) {
            throw new Error(`the server at ${url} serves ${state.world.name} ${state.world.version}, not ${world.name} ${world.version}; evaluate the world it serves, or point --url at a server of ${world.name}`);
          }
        });
        await checked;
        started = { task, seed };
        calls.length = 0;
        if (local !== undefined) pool.give(local);
        local = undefined;
        const tools = obs.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema }));
        return { prompt: obs.task?.prompt ?? '', tools, fixture: obs.fixture, now: obs.now };
      },
      async call(tool, args) {
        const outcome = await client.call(tool, args);
        calls.push({ tool, args, outcome });
        return outcome;
      },
      async submit() {
        // The server answers the agent's view of the grade (no names or reasons, unless it was given a grader token):
        // the whole grade comes from the same episode replayed here, and must agree with the server's reward.
        const served = await client.submit();
        const grade = replayed().submit();
        if (served.reward !== grade.reward) {
          throw new Error(`the episode's reward on ${url} was ${served.reward} and ${grade.reward} when it was replayed here; is it serving this same ${world.name} ${world.version} with the same fixtures?`);
        }
        return grade;
      },
      async trace() {
        const inst = replayed();
        return { fixtureSha256: inst.fixtureSha256, calls: inst.callLog(), changeLog: inst.changeLog(), changes: inst.changes() };
      },
      async close() {
        if (local !== undefined) pool.give(local);
        local = undefined;
        await client.close();
      },
    };
  };
}
