/** Errors of the curriculum runtime: a misuse by the harness or a server, named by a stable code. */

/**
 * A runtime misuse of curriculum runs (an unknown curriculum or run, a ticket recorded twice, a resumed run whose
 * definition changed). `code` is stable; the message names the fix. A server answers these as validation errors.
 */
export class CurriculumError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'CurriculumError';
    this.code = code;
  }
}
