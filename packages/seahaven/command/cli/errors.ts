/** A command failure: one line on stderr that names the fix; exit 1 for failures, 2 for usage. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}
