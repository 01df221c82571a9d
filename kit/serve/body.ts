/** Request bodies read with a size limit, so one large POST cannot exhaust the server's memory. */

/** The body was longer than allowed. */
export class BodyTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`request body exceeds this server's limit of ${limit} bytes; send less, or start the server with a higher --max-body-bytes`);
    this.name = 'BodyTooLarge';
    this.limit = limit;
  }
}

/**
 * Read a request body as text, refusing it past `limit` bytes (checked against Content-Length first, then while reading).
 * @example
 * const text = await readBody(c.req.raw, 1 << 20);
 */
export async function readBody(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLarge(limit);
  if (req.body === null) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
