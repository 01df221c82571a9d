/**
 * Where an episode runs: an instance in this process (`world.instance({ task, seed })`), or a session of a world
 * served elsewhere (`SeahavenClient`, one WebSocket session per episode). The agent loop sees only this interface,
 * so both go through the same code.
 */
import type { Change, ChangeLogEntry } from '../../core/capture.ts';
import type { CallLogEntry } from '../../core/call-history.ts';
import type { Instance } from '../../core/instance.ts';
import type { Grade } from '../../core/task.ts';
import type { ToolListing } from '../../core/tool.ts';
import type { World } from '../../core/world-types.ts';
import { SeahavenClient } from '../../libraries/client/index.ts';
import { callWithJson } from '../../core/instance-internals.ts';

/** `json`, when the environment has it: the JSON text of the result (or of the error), as the call log recorded it. */
export type CallOutcome = (
  | { ok: true; result: unknown }
  | { ok: false; error: { code: string; message: string; details?: unknown } }
) & { json?: string };

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
        return {
          prompt: inst.task()!.prompt,
          tools: inst.tools(),
          fixture: inst.fixture,
          now: inst.clock.iso(),
        };
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
        return {
          fixtureSha256: i.fixtureSha256,
          calls: i.callLog(),
          changeLog: i.changeLog(),
          changes: i.changes(),
        };
      },
      async close() {
        if (inst !== undefined) pool.give(inst);
        inst = undefined;
      },
    };
  };
}

export interface RemoteEnvOptions {
  /** The served world's token (`seahaven serve --token`). */
  token?: string;
  /**
   * The server's grader token (`seahaven serve --grader-token`): each episode's submit then answers the whole grade and
   * the episode's trace in one round trip, and nothing is replayed here but the first episode, as a check.
   */
  graderToken?: string;
}

/** How a served world's episodes get their whole grade and change log: from the server, or replayed here. */
export function remoteTraceSource(options: RemoteEnvOptions): string {
  return options.graderToken !== undefined
    ? 'whole grades and change logs from the server (grader token); the first episode replayed here as a check'
    : 'whole grades and change logs by replaying each episode here (no grader token: pass --grader-token or set SEAHAVEN_GRADER_TOKEN to take them from the server)';
}

/**
 * Episodes on a served world: one WebSocket session each. The first episode checks that the server serves this world
 * and version. With the grader token, submit answers the whole grade and the episode's trace (call log, change log,
 * net changes) at once; each episode's trace must name this world, version and fixture, and the first episode is
 * also replayed here and must come out the same. Without it, the server gives agents' grades only and no change log,
 * so the trace replays every episode's calls on a local instance of the same world (the same task, seed and calls give
 * the same rows, byte for byte), checking that every call came out there as it did on the server.
 */
export function remoteEnvs(url: string, world: World, options: RemoteEnvOptions = {}): EnvFactory {
  const pool = instancePool(world);
  const { graderToken } = options;
  const same = `is it serving this same ${world.name} ${world.version} with the same fixtures?`;
  let checked: Promise<void> | undefined;
  /** With the grader token: whether an episode has yet been replayed here against the server's trace. */
  let replayedOne = false;
  const fixtureHashes = new Map<string, string | null>();
  const fixtureHash = (task: string): string | null => {
    const fixture = world.task(task)?.fixture ?? '';
    if (!fixtureHashes.has(fixture)) {
      const inst = pool.take(task, 0);
      fixtureHashes.set(fixture, inst.fixtureSha256);
      pool.give(inst);
    }
    return fixtureHashes.get(fixture)!;
  };
  return async () => {
    const client = await SeahavenClient.connect(url, { token: options.token });
    let started: { task: string; seed: number } | undefined;
    const calls: { tool: string; args: Record<string, unknown>; outcome: CallOutcome }[] = [];
    /** The episode replayed on a local instance, once its calls are all made: for its whole grade and its change log. */
    let local: Instance | undefined;
    /** With the grader token: the episode's trace, as the server answered it with the grade. */
    let served: EpisodeTrace | undefined;
    const replayed = (): Instance => {
      if (started === undefined) throw new Error('start the episode first');
      if (local !== undefined) return local;
      const inst = pool.take(started.task, started.seed);
      for (const c of calls) {
        const here = inst[callWithJson](c.tool, c.args);
        const there = c.outcome.ok
          ? JSON.stringify(c.outcome.result)
          : JSON.stringify(c.outcome.error);
        if (here.ok !== c.outcome.ok || here.json !== there) {
          pool.give(inst);
          throw new Error(
            `${c.tool} came out otherwise when the episode was replayed here than on ${url}; ${same}`,
          );
        }
      }
      return (local = inst);
    };
    /** The whole grade and the trace from the server, checked against this world (and, the first time, a replay here). */
    const submitWithTrace = async (): Promise<Grade> => {
      const r = await client.submit({ trace: true });
      const t = r.trace;
      if (t === undefined)
        throw new Error(
          `the server at ${url} answered submit without the episode's trace; upgrade it to a seahaven that answers submit with trace, or leave out --grader-token`,
        );
      const task = started!.task;
      if (
        t.world.name !== world.name ||
        t.world.version !== world.version ||
        t.fixture_sha256 !== fixtureHash(task)
      ) {
        throw new Error(
          `the server at ${url} played ${task} on ${t.world.name} ${t.world.version} from a fixture of sha256 ${t.fixture_sha256}, not ${world.name} ${world.version} from ${fixtureHash(task)}; ${same}`,
        );
      }
      const grade = r.grade as Grade;
      served = {
        fixtureSha256: t.fixture_sha256,
        calls: t.calls,
        changeLog: t.change_log,
        changes: t.changes,
      };
      if (!replayedOne) {
        replayedOne = true;
        const inst = replayed();
        const here = JSON.stringify([inst.submit(), inst.changeLog(), inst.changes()]);
        if (here !== JSON.stringify([grade, t.change_log, t.changes]))
          throw new Error(
            `the episode's grade or changes on ${url} differ from the same episode replayed here; ${same}`,
          );
      }
      return grade;
    };
    return {
      async start(task, seed) {
        const r = await client.reset(
          graderToken === undefined ? { task, seed } : { task, seed, grader_token: graderToken },
        );
        const obs = r.observation;
        checked ??= client.state().then((state) => {
          if (state.world.name !== world.name || state.world.version !== world.version) {
            throw new Error(
              `the server at ${url} serves ${state.world.name} ${state.world.version}, not ${world.name} ${world.version}; evaluate the world it serves, or point --url at a server of ${world.name}`,
            );
          }
        });
        await checked;
        started = { task, seed };
        calls.length = 0;
        served = undefined;
        if (local !== undefined) pool.give(local);
        local = undefined;
        const tools = obs.tools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.input_schema,
        }));
        return { prompt: obs.task?.prompt ?? '', tools, fixture: obs.fixture, now: obs.now };
      },
      async call(tool, args) {
        const outcome = await client.call(tool, args);
        calls.push({ tool, args, outcome });
        return outcome;
      },
      async submit() {
        if (graderToken !== undefined) return submitWithTrace();
        // The server answers the agent's view of the grade (no names or reasons): the whole grade comes from the same
        // episode replayed here, and must agree with the server's reward.
        const there = await client.submit();
        const grade = replayed().submit();
        if (there.reward !== grade.reward) {
          throw new Error(
            `the episode's reward on ${url} was ${there.reward} and ${grade.reward} when it was replayed here; ${same}`,
          );
        }
        return grade;
      },
      async trace() {
        if (served !== undefined) return served;
        const inst = replayed();
        return {
          fixtureSha256: inst.fixtureSha256,
          calls: inst.callLog(),
          changeLog: inst.changeLog(),
          changes: inst.changes(),
        };
      },
      async close() {
        if (local !== undefined) pool.give(local);
        local = undefined;
        await client.close();
      },
    };
  };
}
