/**
 * The error a full server raises for a new session or held fork; each transport answers it in its own words
 * (`CAPACITY_REACHED`, `503`, `-32000`). Its own module, so the registry (sessions.ts) and a worker's places
 * (places.ts) both raise it without importing each other.
 */

/** Raised when the registry, or a worker's places, are full. */
export class CapacityError extends Error {
  readonly activeSessions: number;
  readonly maxSessions: number;
  /** `forNow`: the server has room, on other workers of a `--workers` server, and this worker is asking them for some. */
  constructor(active: number, max: number, heldForks = 0, forNow = false) {
    const held = heldForks === 0 ? '' : ` (${heldForks} of them held forks waiting to be adopted)`;
    const why = forNow
      ? `server at capacity for now: ${active} of ${max} sessions are open, and every place this worker holds is taken while it takes free ones over from the other workers (--workers); retry in a moment, or start the server with a higher --max-sessions`
      : `server at capacity: ${active} of ${max} sessions are open${held}; close a session or start the server with a higher --max-sessions`;
    super(why);
    this.name = 'CapacityError';
    this.activeSessions = active;
    this.maxSessions = max;
  }
}
