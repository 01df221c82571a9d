/**
 * SQL functions that read the wall clock or host randomness, replaced on every connection the kit opens so that SQL
 * replays exactly: the `CURRENT_*` keywords, `random()`, `randomblob()`, and the date/time functions whose `'now'`
 * (or omitted time value) becomes the instance's virtual instant. Everything else is delegated to SQLite's own
 * functions on a private helper connection, so results keep SQLite's types and values.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Stream } from './random.ts';
import type { Db } from './sqlite.ts';

let helper: Db | undefined;
const helperStatements = new Map<string, Statement>();

function delegate(fn: string, args: unknown[]): unknown {
  const key = fn + '/' + args.length;
  let stmt = helperStatements.get(key);
  if (stmt === undefined) {
    helper ??= new Database(':memory:');
    stmt = helper
      .prepare(`SELECT ${fn}(${args.map(() => '?').join(', ')})`)
      .pluck()
      .safeIntegers(true);
    helperStatements.set(key, stmt);
  }
  return stmt.get(...args);
}

function isNow(value: unknown): boolean {
  return typeof value === 'string' && value.length === 3 && value.toLowerCase() === 'now';
}

/** strftime's spelling of an ISO-8601 instant with milliseconds, the form `Date.prototype.toISOString` writes. */
const ISO_MS_FORMAT = '%Y-%m-%dT%H:%M:%fZ';

/** The time functions whose first argument is a time value. */
const TIME_FIRST = ['datetime', 'date', 'time', 'julianday', 'unixepoch'] as const;

/** Install the overrides on `db`, reading the instant from `nowIso` and randomness from the stream `stream` returns. */
export function installSqlOverrides(db: Db, nowIso: () => string, stream: () => Stream): void {
  const sqliteNow = () => {
    const iso = nowIso();
    return iso.slice(0, 10) + ' ' + iso.slice(11, 19);
  };
  db.function('current_timestamp', { deterministic: false }, () => sqliteNow());
  db.function('current_date', { deterministic: false }, () => nowIso().slice(0, 10));
  db.function('current_time', { deterministic: false }, () => nowIso().slice(11, 19));
  db.function('random', { deterministic: false }, () => {
    const s = stream();
    const hi = BigInt(s.nextUint32());
    const lo = BigInt(s.nextUint32());
    return BigInt.asIntN(64, (hi << 32n) | lo);
  });
  db.function('randomblob', { deterministic: false, safeIntegers: true }, (n: unknown) => {
    const size = typeof n === 'bigint' ? Number(n) : typeof n === 'number' ? Math.trunc(n) : 1;
    const bytes = Buffer.allocUnsafe(Math.max(1, size));
    const s = stream();
    for (let i = 0; i < bytes.length; i += 4) {
      const word = s.nextUint32();
      for (let j = 0; j < 4 && i + j < bytes.length; j++) bytes[i + j] = (word >>> (8 * j)) & 255;
    }
    return bytes;
  });
  for (const fn of TIME_FIRST) {
    db.function(
      fn,
      { deterministic: true, varargs: true, safeIntegers: true },
      (...args: unknown[]) => {
        if (args.length === 0) args = [nowIso()];
        else if (isNow(args[0])) args[0] = nowIso();
        return delegate(fn, args);
      },
    );
  }
  db.function(
    'strftime',
    { deterministic: true, varargs: true, safeIntegers: true },
    (...args: unknown[]) => {
      if (args.length === 1) args.push(nowIso());
      else if (isNow(args[1])) {
        // The usual timestamp default, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), is the instant's ISO text as it is (4-digit years).
        if (args.length === 2 && args[0] === ISO_MS_FORMAT) {
          const iso = nowIso();
          if (iso.length === 24) return iso;
        }
        args[1] = nowIso();
      }
      return delegate('strftime', args);
    },
  );
  db.function(
    'timediff',
    { deterministic: true, varargs: true, safeIntegers: true },
    (...args: unknown[]) => {
      if (isNow(args[0])) args[0] = nowIso();
      if (isNow(args[1])) args[1] = nowIso();
      return delegate('timediff', args);
    },
  );
}
