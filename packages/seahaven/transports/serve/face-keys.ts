/**
 * The keys of a world's HTTP face: each session is issued one (its reset metadata's `api_key`), and a key a client
 * brings is bound to the session opened for it, which is seeded from the key (`keySeed`). face-routes.ts finds a
 * request's session here.
 */
import { randomBytes } from 'node:crypto';
import type { HttpFace } from '../../core/http-face.ts';
import { hash128 } from '../../core/random.ts';
import type { Session } from './sessions.ts';

/**
 * The seed of the account a key the server never issued opens: a stable hash of the key, a whole number below 2^53.
 * Two keys get different seeds, so their accounts draw different ids (the first customer of one is never the first of
 * another); the same key gets the same seed on any server and any worker, so its account replays byte for byte.
 */
export function keySeed(key: string): number {
  const [hi, lo] = hash128('seahaven face key\u0000' + key);
  // 21 bits of the first word and 32 of the second: every seed is a safe integer.
  return (hi >>> 11) * 0x100000000 + lo;
}

/** The keys a world's sessions were issued, both ways, for one endpoint. */
export class FaceKeys {
  readonly face: HttpFace;
  readonly #sessions = new Map<string, Session>();
  readonly #keys = new WeakMap<Session, string>();
  /** The keys this process issued (the rest were brought by clients). */
  readonly #issued = new Set<string>();
  /** Which keys this process may issue: in a `--workers` server, only those whose hash picks this worker (cluster.ts). */
  readonly #accept: ((key: string) => boolean) | undefined;

  constructor(face: HttpFace, accept?: (key: string) => boolean) {
    this.face = face;
    this.#accept = accept;
  }

  /** The key of `session`, issued on first use and kept for the session's life (resets keep it). */
  keyOf(session: Session): string {
    let key = this.#keys.get(session);
    if (key === undefined) {
      // A worker draws keys until one hashes to it (about as many draws as there are workers), so a request bearing
      // the key reaches this session whichever worker it lands on, whatever the world's key format.
      do key = this.face.issueKey(randomBytes(18).toString('base64url'));
      while (this.#accept !== undefined && !this.#accept(key));
      this.#keys.set(session, key);
      this.#sessions.set(key, session);
      this.#issued.add(key);
    }
    return key;
  }

  /** Bind a key a client brought to the session opened for it. */
  bind(key: string, session: Session): void {
    this.#keys.set(session, key);
    this.#sessions.set(key, session);
  }

  /** Whether this process issued `key` to a session that is still open (a key a client brought never counts). */
  issued(key: string): boolean {
    return this.#issued.has(key);
  }

  /** The open session a key is bound to. */
  sessionOf(key: string): Session | undefined {
    const s = this.#sessions.get(key);
    if (s !== undefined && s.closed) {
      this.#sessions.delete(key);
      return undefined;
    }
    return s;
  }

  /** Forget the key of a session that ended. */
  release(session: Session): void {
    const key = this.#keys.get(session);
    if (key !== undefined && this.#sessions.get(key) === session) this.#sessions.delete(key);
    if (key !== undefined) this.#issued.delete(key);
  }
}
