/**
 * What the parts of an endpoint share: its options, and the members of `Endpoint` (endpoint.ts) that its reset
 * (endpoint-reset.ts), grading (endpoint-grade.ts) and step (endpoint-step.ts) functions use. Those modules see the
 * endpoint only through `EndpointCore`, so none of them imports endpoint.ts back.
 */
import type { EpisodeLimits, Instance, InstanceOptions } from '../../core/instance.ts';
import type { World } from '../../core/world.ts';
import type { FrameError } from './errors.ts';
import type { FaceKeys } from './face-keys.ts';
import type { ServeHooks } from './hooks.ts';
import type { MemoryBudget } from './memory-budget.ts';
import type { FairScheduler } from './scheduler.ts';
import type { Session, SessionEndpoint, SessionOwner, SessionRegistry } from './sessions.ts';

export interface EndpointOptions {
  registry: SessionRegistry;
  scheduler: FairScheduler;
  hooks: ServeHooks;
  logger: (line: string) => void;
  /** The keys of the world's HTTP face, when it has one: each session's key goes into its reset metadata as `api_key`. */
  faceKeys?: FaceKeys;
  /** Slow-call threshold of every instance this endpoint starts. Default: the instance's own (1000 ms). */
  slowCallMs?: number;
  /** What one episode may hold (its call log's outcomes), for every instance this endpoint starts. Default: the instance's own. */
  episodeLimits?: EpisodeLimits;
  /** Fixture of sessions before their first reset and of resets that name none. Default: the world's first fixture. */
  defaultFixture?: string;
  /** Frames longer than this many characters are refused. */
  maxFrameChars: number;
  /** The secret a session presents to get whole grades (names and reasons) instead of the agent view. Default: none. */
  graderToken?: string;
  /** The process's memory budget (`--max-memory`): sessions, resets and forks that would not fit are refused. None: no budget. */
  memory?: MemoryBudget;
}

/** The members of an endpoint its reset, grading and step functions use. */
export interface EndpointCore extends SessionEndpoint {
  readonly world: World;
  readonly defaultFixture: string | undefined;
  /** The registry, scheduler, hooks, logger and limits the endpoint serves with. */
  readonly options: EndpointOptions;
  /** The JSON of the tool listing, without and with `submit`. */
  readonly toolsJson: string;
  readonly toolsWithSubmitJson: string;
  /** The step payloads of `list_tools`, without and with `submit`. */
  readonly listToolsPayload: string;
  readonly listToolsWithSubmitPayload: string;
  /** Whether a value is the server's grader token; null when the server has none. */
  readonly isGraderToken: ((value: string | undefined) => boolean) | null;
  /** Tell the hooks that a planned episode ended ungraded. */
  abandon(session: Session, context?: unknown): void;
  instanceOptions(): Pick<InstanceOptions, 'logger' | 'slowCallMs'> & EpisodeLimits;
  admitFixture(what: string, fixture: string | null | undefined): void;
  admitFork(inst: Instance): void;
  faceKeyOf(session: Session): string | undefined;
  adoptSession(owner: SessionOwner, id: string, inst: Instance, freeing?: number): Session;
  asFrameError(e: unknown): FrameError;
  /** Why an instance could not start, for a client. */
  startFailure(e: unknown): string;
}
