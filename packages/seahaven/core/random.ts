/** Seeded randomness: a 128-bit string hash for seed derivation and sfc32 streams whose position can be saved and restored. */

/** Hash a string to four 32-bit words (cyrb128). */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Hex text of a 128-bit hash, used for derived ids. */
export function hashHex(text: string): string {
  return hash128(text)
    .map((w) => w.toString(16).padStart(8, '0'))
    .join('');
}

/** A small, fast, seedable generator (sfc32). Its whole state is four numbers, so forks and rollbacks copy it. */
export class Stream {
  a: number;
  b: number;
  c: number;
  d: number;
  constructor(seedText: string) {
    [this.a, this.b, this.c, this.d] = hash128(seedText);
    for (let i = 0; i < 12; i++) this.nextUint32();
  }
  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** Write the state into `into` at `at` (`STREAM_WORDS` words), without allocating. */
  saveInto(into: Int32Array, at: number): void {
    into[at] = this.a;
    into[at + 1] = this.b;
    into[at + 2] = this.c;
    into[at + 3] = this.d;
  }
  /** Read the state back from `from` at `at`. */
  restoreFrom(from: Int32Array, at: number): void {
    this.a = from[at];
    this.b = from[at + 1];
    this.c = from[at + 2];
    this.d = from[at + 3];
  }
}

/** Words of state per stream: sfc32's a, b, c and d. */
const STREAM_WORDS = 4;

/**
 * The positions of a fixed list of streams, in one flat buffer of `STREAM_WORDS` words per stream, so that saving them
 * at the start of every call allocates nothing. A call that fails puts its streams back; a fork starts from a copy.
 */
export class StreamPositions {
  readonly #words: Int32Array;

  /** Room for the positions of `streams` streams (or, from `copy()`, positions already taken). */
  constructor(streams: number, words = new Int32Array(streams * STREAM_WORDS)) {
    this.#words = words;
  }

  /** Remember where each of `streams` is (the same list, in the same order, every time). */
  save(streams: readonly Stream[]): void {
    for (let i = 0; i < streams.length; i++) streams[i].saveInto(this.#words, i * STREAM_WORDS);
  }

  /** Put each of `streams` back where `save` found it. */
  restore(streams: readonly Stream[]): void {
    for (let i = 0; i < streams.length; i++) streams[i].restoreFrom(this.#words, i * STREAM_WORDS);
  }

  /** An independent copy (a fork's streams continue from here, apart from the original's). */
  copy(): StreamPositions {
    return new StreamPositions(0, this.#words.slice());
  }
}

/** The `ctx.rng` face: floats, integers, picks and shuffles from one stream. */
export class Rng {
  /** @internal The generator behind it; the instance saves and restores its position. */
  readonly stream: Stream;
  /** @internal Use `ctx.rng`. */
  constructor(stream: Stream) {
    this.stream = stream;
  }
  /** A float in [0, 1). */
  next(): number {
    // 53 bits from two draws, like Math.random's resolution.
    const hi = this.stream.nextUint32() >>> 5;
    const lo = this.stream.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new RangeError(
        `rng.int(min, max) needs integers with min <= max, got (${min}, ${max})`,
      );
    }
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('rng.pick() needs a non-empty array');
    return items[this.int(0, items.length - 1)];
  }
  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const TOKEN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** The `ctx.ids` face: UUID-shaped ids, prefixed tokens and per-instance sequences. */
export class Ids {
  /** @internal The generator behind it; the instance saves and restores its position. */
  readonly stream: Stream;
  readonly #nextSeq: (name: string) => number;
  /** @internal Use `ctx.ids`. */
  constructor(stream: Stream, nextSeq: (name: string) => number) {
    this.stream = stream;
    this.#nextSeq = nextSeq;
  }
  /** A version-4-shaped UUID from the instance's id stream. */
  uuid(): string {
    let out = '';
    for (let i = 0; i < 32; i++) {
      let nibble = this.stream.nextUint32() & 15;
      if (i === 12) nibble = 4;
      else if (i === 16) nibble = 8 | (nibble & 3);
      out += HEX[nibble];
      if (i === 7 || i === 11 || i === 15 || i === 19) out += '-';
    }
    return out;
  }
  /** `prefix` followed by `length` base-62 characters (default 24), like Stripe's `cus_…` ids. */
  token(prefix = '', length = 24): string {
    let out = prefix;
    for (let i = 0; i < length; i++) out += TOKEN_ALPHABET[this.stream.nextUint32() % 62];
    return out;
  }
  /** The next number of the named sequence, from 1; stored in the instance, so it continues from the fixture. */
  seq(name: string): number {
    return this.#nextSeq(name);
  }
}
