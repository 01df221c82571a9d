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

export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string; details?: unknown } };

/** What the episode began with. */
export interface EpisodeStart {
  prompt: string;
  tools: ToolListing[];
  fixture: string | null;
  fixtureSha256: string | null;
  now: string;
}

/** What the episode left behind: its call log, the rows each call changed, and the net changes. */
export interface EpisodeTrace {
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

/** Episodes in this process: a fresh instance each. */
export function localEnvs(world: World): EnvFactory {
  return async () => {
    let inst: Instance | undefined;
    const live = () => {
      if (inst === undefined) throw new Error('start the episode first');
      return inst;
    };
    return {
      async start(task, seed) {
        inst = world.instance({ task, seed });
        return { prompt: inst.task()!.prompt, tools: inst.tools(), fixture: inst.fixture, fixtureSha256: inst.fixtureSha256, now: inst.clock.iso() };
      },
      async call(tool, args) {
        return live().call(tool, args);
      },
      async submit() {
        return live().submit();
      },
      async trace() {
        const i = live();
        return { calls: i.callLog(), changeLog: i.changeLog(), changes: i.changes() };
      },
      async close() {
        inst?.destroy();
        inst = undefined;
      },
    };
  };
}

/**
 * Episodes on a served world: one WebSocket session each. The server keeps no change log per call over the wire, so
 * the trace replays the episode's calls on a local instance of the same world (the same task, seed and calls give
 * the same rows, byte for byte) and checks that its net changes are the server's.
 */
export function remoteEnvs(url: string, world: World, options: { token?: string } = {}): EnvFactory {
  return async () => {
    const client = await SeahavenClient.connect(url, { token: options.token });
    let started: { task: string; seed: number } | undefined;
    const calls: { tool: string; args: Record<string, unknown> }[] = [];
    return {
      async start(task, seed) {
        const r = await client.reset({ task, seed });
        const obs = r.observation;
        const state = await client.state();
        if (state.world.name !== world.name || state.world.version !== world.version) {
          throw new Error(`the server at ${url} serves ${state.world.name} ${state.world.version}, not ${world.name} ${world.version}; evaluate the world it serves, or point --url at a server of ${world.name}`);
        }
        started = { task, seed };
        const tools = obs.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema }));
        return { prompt: obs.task?.prompt ?? '', tools, fixture: state.fixture?.id ?? null, fixtureSha256: state.fixture?.sha256 ?? null, now: obs.now };
      },
      async call(tool, args) {
        calls.push({ tool, args });
        return client.call(tool, args);
      },
      async submit() {
        return (await client.submit()).grade;
      },
      async trace() {
        if (started === undefined) throw new Error('start the episode first');
        const served = await client.state();
        const inst = world.instance({ task: started.task, seed: started.seed });
        try {
          for (const c of calls) inst.call(c.tool, c.args);
          const changes = inst.changes();
          if (JSON.stringify(changes) !== JSON.stringify(served.changes)) {
            throw new Error(`the episode replayed here does not end in the server's rows; is ${url} serving this same ${world.name} ${world.version} with the same fixtures?`);
          }
          return { calls: inst.callLog(), changeLog: inst.changeLog(), changes };
        } finally {
          inst.destroy();
        }
      },
      async close() {
        await client.close();
      },
    };
  };
}
