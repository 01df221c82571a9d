/**
 * Copies of stored objects. World code copies an object before changing it (the copy is the object after, the original
 * the object before, for an event's `previous_attributes`), several times per renewal; `structuredClone` serializes
 * its argument through V8's value serializer and costs several times a walk over the object.
 */

/**
 * A deep copy of JSON data: a stored object (parsed from its row) or one built of literals and spreads. Arrays and plain
 * objects are copied member by member, in their key order; any other value (strings, numbers, booleans, null,
 * undefined) is kept as it is. For such data it is what `structuredClone` answers.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = copyJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  // A plain object inherits no enumerable keys, so `for … in` visits its own, as Object.keys would, without the array.
  for (const k in value) out[k] = copyJson((value as Record<string, unknown>)[k]);
  return out as T;
}
