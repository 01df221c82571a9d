/**
 * Request bodies read with a size limit and a deadline, so one large POST cannot exhaust the server's memory and a body
 * sent a byte at a time cannot hold a connection open. A client that goes away mid-body is not a server error: it is
 * logged in one line, at most once a second.
 */
import { IncomingMessage } from 'node:http';

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
    super(
      `request body exceeds this server's limit of ${limit} bytes; send less, or start the server with a higher --max-body-bytes`,
    );
    this.name = 'BodyTooLarge';
    this.limit = limit;
  }
}

/** The body did not arrive in time: answered with 408, and the connection is closed. */
export class BodyTimeout extends Error {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(
      `the request body did not arrive within ${timeoutMs / 1000} s; send it at once, or start the server with a higher --body-timeout`,
    );
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

/** The report line of a body that did not arrive in time. */
function lateLine(method: string, pathname: string, limits: BodyLimits, size: number): string {
  return `[seahaven] ${method} ${pathname}: body not received within ${limits.bodyTimeoutMs} ms after ${size} bytes; answered 408 and closed the connection`;
}

/** The report line of a body the client cut off. */
function cutLine(method: string, pathname: string, size: number): string {
  return `[seahaven] ${method} ${pathname}: the client closed the connection after ${size} bytes of its body`;
}

/**
 * The body of a request a Hono route answers: straight off Node's request stream when @hono/node-server handed it to
 * the route (`c.env.incoming`), else through the WHATWG `Request.body` (other runtimes, `app.request` in tests). Under
 * the Node server, reading `Request.body` first builds a web stream around the socket, which cost a small form POST
 * about as much as the work it carried; the bytes, limits, errors and report lines are the same either way.
 */
export function readRequestBody(
  c: { req: { raw: Request; method: string }; env: unknown },
  limits: BodyLimits,
): Promise<string> {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof IncomingMessage && !incoming.readableDidRead)
    return readIncoming(incoming, c.req.method, () => new URL(c.req.raw.url).pathname, limits);
  return readBody(c.req.raw, limits);
}

/** `readBody` for Node's request stream. `pathname` gives the path for a report line (only asked for when one is written). */
export function readIncoming(
  incoming: IncomingMessage,
  method: string,
  pathname: () => string,
  limits: BodyLimits,
): Promise<string> {
  const limit = limits.maxBodyBytes;
  const declared = Number(incoming.headers['content-length'] ?? NaN);
  if (declared > limit) return Promise.reject(new BodyTooLarge(limit));
  // A small body comes in the same read as its headers, and by the time a microtask runs Node's parser has put all of
  // it in the request's buffer (its end is sometimes marked only later in that read): it is taken from there at once,
  // without the stream's listeners, ticks and deadline timer, which cost a bare Node server answering a small form POST
  // about 14 µs of CPU per request at one connection.
  return Promise.resolve().then(() =>
    !incoming.readableDidRead &&
    (incoming.complete || (declared > 0 && incoming.readableLength === declared))
      ? buffered(incoming, limit)
      : streamed(incoming, method, pathname, limits),
  );
}

/**
 * The whole body of a request, all of it in the request's buffer, read out of there. A request whose end the parser
 * has yet to mark is left flowing, so that it ends as soon as it does.
 */
function buffered(incoming: IncomingMessage, limit: number): string {
  const data = incoming.read() as Buffer | null;
  if (!incoming.complete) incoming.resume();
  if (data === null) return '';
  if (data.byteLength > limit) throw new BodyTooLarge(limit);
  return data.toString('utf8');
}

/** `readIncoming` of a body still arriving: off the stream's events, within the deadline. */
function streamed(
  incoming: IncomingMessage,
  method: string,
  pathname: () => string,
  limits: BodyLimits,
): Promise<string> {
  const limit = limits.maxBodyBytes;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      clearTimeout(timer);
      incoming.off('data', onData).off('end', onEnd).off('error', onCut).off('close', onCut);
      // What is left of a refused body is drained once the reply is sent, as for a body no route reads.
      incoming.resume();
    };
    const fail = (e: Error) => {
      stop();
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) return fail(new BodyTooLarge(limit));
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(
        chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      );
    };
    const onCut = () => {
      limits.report('aborted', cutLine(method, pathname(), size));
      fail(new BodyAborted());
    };
    const timer = setTimeout(() => {
      limits.report('timeout', lateLine(method, pathname(), limits, size));
      fail(new BodyTimeout(limits.bodyTimeoutMs));
    }, limits.bodyTimeoutMs);
    incoming.on('data', onData).on('end', onEnd).on('error', onCut).on('close', onCut);
  });
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
          limits.report('timeout', lateLine(req.method, new URL(req.url).pathname, limits, size));
          throw e;
        }
        limits.report('aborted', cutLine(req.method, new URL(req.url).pathname, size));
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
export function rateLimited(
  logger: (line: string) => void,
  intervalMs = 1000,
): (kind: string, line: string) => void {
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
