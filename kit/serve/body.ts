/**
 * Request bodies read with a size limit and a deadline, so one large POST cannot exhaust the server's memory and a body
 * sent a byte at a time cannot hold a connection open. A client that goes away mid-body is not a server error: it is
 * logged in one line, at most once a second.
 */

/** How every route reads bodies. */
export interface BodyLimits {
  /** Longest body accepted, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** A body must have fully arrived this long after reading starts, in milliseconds (408 otherwise). */
  bodyTimeoutMs: number;
  /** Where a cut-off (`aborted`) or late (`timeout`) body is reported, one line each: pass a `rateLimited` logger. */
  report: (kind: 'aborted' | 'timeout', line: string) => void;
}

/** The body was longer than allowed. */
export class BodyTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`request body exceeds this server's limit of ${limit} bytes; send less, or start the server with a higher --max-body-bytes`);
    this.name = 'BodyTooLarge';
    this.limit = limit;
  }
}

/** The body did not arrive in time: answered with 408, and the connection is closed. */
export class BodyTimeout extends Error {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`the request body did not arrive within ${timeoutMs / 1000} s; send it at once, or start the server with a higher --body-timeout`);
    this.name = 'BodyTimeout';
    this.timeoutMs = timeoutMs;
  }
}

/** The client closed the connection before its body ended; nobody is left to answer. */
export class BodyAborted extends Error {
  constructor() {
    super('the request body was cut off before its end; send the whole body');
    this.name = 'BodyAborted';
  }
}

/**
 * Read a request body as text: refused past `maxBodyBytes` (checked against Content-Length first, then while reading),
 * cut when it has not arrived after `bodyTimeoutMs`.
 * @example
 * const text = await readBody(c.req.raw, { maxBodyBytes: 1 << 20, bodyTimeoutMs: 10_000, report: rateLimited(console.error) });
 */
export async function readBody(req: Request, limits: BodyLimits): Promise<string> {
  const limit = limits.maxBodyBytes;
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLarge(limit);
  if (req.body === null) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeout(limits.bodyTimeoutMs)), limits.bodyTimeoutMs);
  });
  // Only a read that is still waiting observes the deadline; this keeps an unobserved rejection from being reported.
  late.catch(() => undefined);
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await Promise.race([reader.read(), late]);
      } catch (e) {
        if (e instanceof BodyTimeout) {
          limits.report('timeout', `[seahaven] ${req.method} ${new URL(req.url).pathname}: body not received within ${limits.bodyTimeoutMs} ms after ${size} bytes; answered 408 and closed the connection`);
          throw e;
        }
        limits.report('aborted', `[seahaven] ${req.method} ${new URL(req.url).pathname}: the client closed the connection after ${size} bytes of its body`);
        throw new BodyAborted();
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) throw new BodyTooLarge(limit);
      chunks.push(chunk.value);
    }
  } catch (e) {
    reader.cancel().catch(() => undefined);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A logger that writes at most one line per `kind` each `intervalMs`. Lines that come sooner are counted, and at the
 * end of the interval the last of them is written with the count (`… (N more like this in the last 1 s)`).
 * @example
 * const log = rateLimited(console.error);
 * for (let i = 0; i < 300; i++) log('aborted', 'client went away'); // one line now, "… (299 more …)" a second later
 */
export function rateLimited(logger: (line: string) => void, intervalMs = 1000): (kind: string, line: string) => void {
  const quiet = new Map<string, { dropped: number; last: string }>();
  const endInterval = (kind: string) => {
    const entry = quiet.get(kind)!;
    if (entry.dropped === 0) {
      quiet.delete(kind);
      return;
    }
    logger(`${entry.last} (${entry.dropped} more like this in the last ${intervalMs / 1000} s)`);
    quiet.set(kind, { dropped: 0, last: '' });
    setTimeout(endInterval, intervalMs, kind).unref?.();
  };
  return function log(kind, line) {
    const entry = quiet.get(kind);
    if (entry !== undefined) {
      entry.dropped++;
      entry.last = line;
      return;
    }
    logger(line);
    quiet.set(kind, { dropped: 0, last: '' });
    setTimeout(endInterval, intervalMs, kind).unref?.();
  };
}
