/** The state document: what an instance's `state()` returns and OpenEnv's `/state` sends. */
import type { Change } from './capture.ts';
import type { ClockMode } from './clock.ts';

/** The state document. */
export interface StateDocument {
  format: 'seahaven.state/1';
  world: { name: string; version: string };
  fixture: { id: string; sha256: string } | null;
  seed: number;
  clock: { mode: ClockMode; now: string };
  call_count: number;
  task?: string;
  changes: Change[];
}
