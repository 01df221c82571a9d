/** Errors of the curriculum runtime: a misuse by the harness or a server, named by a stable code. */
import { AuthorError, brandErrorClass } from '../../core/errors.ts';

/** The codes of a `CurriculumError`. */
export type CurriculumErrorCode =
  | 'unknown_curriculum'
  | 'unknown_run'
  | 'unknown_ticket'
  | 'invalid_run_id'
  | 'invalid_ticket'
  | 'invalid_outcome'
  | 'invalid_reset'
  | 'invalid_history'
  | 'ticket_settled'
  | 'nothing_pending'
  | 'definition_changed'
  | 'unsupported_format'
  | 'not_a_runs_db'
  | 'invalid_runs_db'
  | 'runs_db_closed'
  | 'runs_db_unreachable'
  | 'runs_db_unusable';

/**
 * A runtime misuse of curriculum runs (an unknown curriculum or run, a ticket recorded twice, a resumed run whose
 * definition changed). `code` is stable; the message names the fix. A server answers these as validation errors.
 */
export class CurriculumError extends AuthorError<CurriculumErrorCode> {
  constructor(code: CurriculumErrorCode, message: string) {
    super(code, message);
    this.name = 'CurriculumError';
  }
}
brandErrorClass(CurriculumError, 'CurriculumError');
