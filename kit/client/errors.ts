/** A request the server refused (its protocol error code), a timeout, or a closed connection. */
export class SeahavenError extends Error {
  /** The server's code (`VALIDATION_ERROR`, `CAPACITY_REACHED`, …), or `TIMEOUT`, `CLOSED`, `CONNECT`. */
  readonly code: string;
  /** The server's error frame data (for `VALIDATION_ERROR`: `errors`). */
  readonly data: Record<string, unknown>;
  constructor(code: string, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SeahavenError';
    this.code = code;
    this.data = data;
  }
}
