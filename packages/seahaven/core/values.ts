/** The JSON forms every value the kit emits takes: safe integers as numbers, larger ones as decimal strings, BLOBs as base64. */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type Row = Record<string, JsonValue>;

/** Convert one SQLite value (read with safe integers) to its JSON form. */
export function sqlValueToJson(value: unknown): JsonValue {
  if (typeof value === 'bigint')
    return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return value as JsonValue;
}

/** Convert a row read with safe integers in place and return it. */
export function rowToJson(row: Record<string, unknown>): Row {
  for (const key in row) {
    const value = row[key];
    if (typeof value === 'bigint' || value instanceof Uint8Array) row[key] = sqlValueToJson(value);
  }
  return row as Row;
}

/** Compare two SQLite values the way `ORDER BY` does with the BINARY collation. */
export function compareSqlValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) {
    const na = a as number | bigint;
    const nb = b as number | bigint;
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  if (ra === 2) return Buffer.compare(Buffer.from(a as string), Buffer.from(b as string));
  if (ra === 3) return Buffer.compare(a as Uint8Array, b as Uint8Array);
  return 0;
}

function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number' || typeof v === 'bigint') return 1;
  if (typeof v === 'string') return 2;
  return 3;
}

/** A row read as an array (`raw` mode) as an object keyed by `cols`, its values in their JSON forms. */
export function arrayToRow(cols: string[], values: unknown[]): Row {
  const row: Record<string, JsonValue> = {};
  for (let i = 0; i < cols.length; i++) {
    const v = values[i];
    const json =
      typeof v === 'bigint' || (typeof v === 'object' && v !== null)
        ? sqlValueToJson(v)
        : (v as JsonValue);
    // Assigning to "__proto__" would set the prototype instead of a key.
    if (cols[i] === '__proto__')
      Object.defineProperty(row, '__proto__', {
        value: json,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else row[cols[i]] = json;
  }
  return row;
}
