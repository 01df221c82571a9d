/**
 * The server's error codes (the OpenEnv protocol's), the client's own (`TIMEOUT`, `CLOSED`, `CONNECT`, `LOST`), and
 * `HTTP_<status>` for an HTTP route that answered with an error status.
 */
export type ClientErrorCode =
  | 'INVALID_JSON'
  | 'UNKNOWN_TYPE'
  | 'VALIDATION_ERROR'
  | 'EXECUTION_ERROR'
  | 'CAPACITY_REACHED'
  | 'FACTORY_ERROR'
  | 'SESSION_ERROR'
  | 'RESOURCE_EXHAUSTED'
  | 'TIMEOUT'
  | 'CLOSED'
  | 'CONNECT'
  | 'LOST'
  | `HTTP_${number}`
  | (string & {});

/**
 * A request the server refused (its protocol error code), a timeout, a closed connection, a server that could not be
 * reached, or (over several hosts) a lost episode. Not a `SeahavenError` of the kit: a failed tool call is data
 * (`{ ok: false, error }`), and this is the transport's failure.
 */
export class ClientError extends Error {
  /** The server's code (`VALIDATION_ERROR`, `CAPACITY_REACHED`, …), or `TIMEOUT`, `CLOSED`, `CONNECT`, `LOST`. */
  readonly code: ClientErrorCode;
  /** The server's error frame data (for `VALIDATION_ERROR`: `errors`). */
  readonly data: Record<string, unknown>;
  constructor(code: ClientErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ClientError';
    this.code = code;
    this.data = data;
  }
}
