/** What `submit` may ask for, and the episode's trace it then answers (the grader token's holder only). */
import type { CallLogEntry } from '../../core/call-history.ts';
import type { Change, ChangeLogEntry } from '../../core/capture.ts';

/**
 * The episode as the server recorded it, which `submit({ trace: true })` answers to the holder of the grader token:
 * what `inst.callLog()`, `inst.changeLog()` and `inst.changes()` give in process, with the world and the sha256 of the
 * fixture the episode started from.
 */
export interface EpisodeTrace {
  world: { name: string; version: string };
  fixture_sha256: string | null;
  calls: CallLogEntry[];
  change_log: ChangeLogEntry[];
  changes: Change[];
}

/** What `submit` may ask for. */
export interface SubmitOptions {
  /**
   * Also answer the episode's trace (`SubmitResult.trace`). Only for a session reset with the server's `grader_token`;
   * without it the submit is refused (`VALIDATION_ERROR`) and the episode goes on.
   */
  trace?: boolean;
}
