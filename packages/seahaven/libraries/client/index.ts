/**
 * Drive a world served by `seahaven serve` from TypeScript: one `SeahavenClient` is one WebSocket session with its own
 * private instance. Requests are answered in order; each has a timeout; protocol errors reject with a
 * `ClientError`, while a failed tool call is data (`{ ok: false, error }`), like `inst.call()` in process.
 *
 * @example
 * import { SeahavenClient } from 'seahaven/client';
 * await using env = await SeahavenClient.connect('http://127.0.0.1:8000');
 * await env.reset({ fixture: 'small_startup', seed: 1 });
 * const r = await env.call('create_contact', { name: 'Ada Lovelace', email: 'ada@example.com' });
 * if (r.ok) console.log((await env.state()).changes);
 * await using branch = await env.fork(); // a second session, continuing from here on its own
 *
 * Given several base URLs (or a `HostPool`), sessions spread over the servers, fewest sessions first; a refused
 * connection moves on to the next host, and a lost one rejects with `LOST` (the episode is not replayed) until the
 * next `reset()` starts a new episode on another host. `env.host` names the server of the current episode.
 *
 * @module seahaven/client
 */
export { SeahavenClient } from './client.ts';
export { ClientError, type ClientErrorCode } from './errors.ts';
export { HostPool, type HostPoolOptions, type HostStatus } from './hosts.ts';
export type { TaskInfo } from './tasks.ts';
export type { EpisodeTrace, SubmitOptions } from './trace.ts';
export type {
  CallOutcome,
  ConnectOptions,
  ForkToken,
  ResetObservation,
  ResetOptions,
  ServedGrade,
  SessionState,
  StepResult,
  SubmitResult,
  ToolInfo,
} from './types.ts';
