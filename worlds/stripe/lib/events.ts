/**
 * Events: one `evt_` per state change, with a snapshot of the object, the changed attributes' previous values for
 * `*.updated`, and the request that caused it; `GET /v1/events` lists them. Each is queued for the webhook endpoints
 * that listen to its type (webhooks.ts), whose number is its `pending_webhooks`.
 */
import type { OpContext } from './op.ts';
import { newId, nowSeconds, putJson, type Stored, type Table } from './store.ts';

/** An event's `type`: one of those the SDK declares (`customer.updated`). */
export type EventType = Stored<'events'>['type'];

/** The attributes an update changed, with their previous values (an event's `previous_attributes`). */
type Previous = Record<string, unknown>;
import { queueDeliveries } from './webhooks.ts';

/** Write an event of `type` about `object`. `previous`: the attributes an update changed, with their old values. */
export function emit(
  c: OpContext,
  type: EventType,
  object: object,
  previous?: Previous,
): Stored<'events'> {
  return emitStored(c, type, object, JSON.stringify(object), previous);
}

/** Store `object` in `table` and write an event of `type` about it (`put`, then `emit`), serializing the object once. */
export function putAndEmit<T extends Table>(
  c: OpContext,
  table: T,
  object: Stored<T>,
  type: EventType,
  previous?: Previous,
): Stored<T> {
  emitStored(c, type, object, putJson(c.ctx, table, object), previous);
  return object;
}

/**
 * `emit` for an object whose JSON the caller has at hand, exactly `JSON.stringify(object)` as the object is now: most
 * often the text `putJson` has just stored for it. The snapshot is spliced into the event's JSON as that text, so a
 * large object (an invoice, a subscription) is not serialized once for its row and again for its event; the event's
 * row is byte for byte `JSON.stringify(event)`.
 */
export function emitStored(
  c: OpContext,
  type: EventType,
  object: object,
  json: string,
  previous?: Previous,
): Stored<'events'> {
  const id = newId(c.ctx, 'evt_');
  const created = nowSeconds(c.ctx);
  const request = { id: c.requestId, idempotency_key: c.idempotencyKey };
  const pending = queueDeliveries(c.ctx, { id, type, created });
  // The snapshot is the object itself, not a copy: the event is stored as JSON at once.
  // The snapshot is whatever object the reply shows, read as JSON.
  const snapshot = object as Record<string, unknown>;
  const event: Stored<'events'> = {
    id,
    object: 'event',
    api_version: c.version,
    created,
    data: previous ? { object: snapshot, previous_attributes: previous } : { object: snapshot },
    livemode: false,
    pending_webhooks: pending,
    request,
    type,
  };
  // JSON.stringify(event), assembled around the snapshot's text: the fields before `data`, `data`, the fields after.
  const head = JSON.stringify({
    id,
    object: 'event',
    api_version: c.version,
    created,
  });
  const data = previous
    ? `{"object":${json},"previous_attributes":${JSON.stringify(previous)}}`
    : `{"object":${json}}`;
  const tail = JSON.stringify({ livemode: false, pending_webhooks: pending, request, type });
  putJson(c.ctx, 'events', event, `${head.slice(0, -1)},"data":${data},${tail.slice(1)}`);
  return event;
}

/** The attributes of `before` that `after` changed, with their values in `before` (for `*.updated` events). */
export function changedAttributes<T extends object>(before: T, after: T): Previous {
  const out: Previous = {};
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const k of Object.keys(now)) {
    if (!sameJson(old[k], now[k])) out[k] = old[k] ?? null;
  }
  return out;
}

/** Whether two values serialize alike: `JSON.stringify(a) === JSON.stringify(b)`, without serializing where a walk shows it. */
function sameJson(a: unknown, b: unknown): boolean {
  const walked = compareJson(a, b);
  return walked === UNKNOWN ? JSON.stringify(a) === JSON.stringify(b) : walked === SAME;
}

/** What a walk over two values shows of their JSON: the same text, different texts, or nothing certain. */
const SAME = 0;
const DIFFERENT = 1;
const UNKNOWN = 2;
type Shown = typeof SAME | typeof DIFFERENT | typeof UNKNOWN;

/**
 * Whether `a` and `b` certainly serialize to the same JSON (`SAME`: the same value, or arrays of the same length, or
 * plain objects with the same keys in the same order, whose members are so in turn) or certainly to different JSON
 * (`DIFFERENT`: strings, finite numbers, booleans or null that differ, arrays of different lengths, or arrays or such
 * objects with a member that does). JSON text parses one way only, so members that serialize differently make their
 * array or object serialize differently. Anything else (keys that differ, something JSON.stringify treats specially,
 * such as `toJSON`, an omitted `undefined` or a non-finite number) is `UNKNOWN`, for `sameJson` to settle by serializing.
 * Most attributes of an updated object are unchanged copies, and those that changed mostly differ in a number or a
 * string: a walk over them costs far less than serializing them twice.
 */
function compareJson(a: unknown, b: unknown): Shown {
  if (a === b) return SAME;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return plainScalar(a) && plainScalar(b) ? DIFFERENT : UNKNOWN;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return UNKNOWN;
    if (a.length !== b.length) return DIFFERENT;
    let shown: Shown = SAME;
    for (let i = 0; i < a.length; i++) {
      const member = compareJson(a[i], b[i]);
      if (member === DIFFERENT) return DIFFERENT;
      if (member === UNKNOWN) shown = UNKNOWN;
    }
    return shown;
  }
  if (!isPlain(a) || !isPlain(b)) return UNKNOWN;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return UNKNOWN;
  let shown: Shown = SAME;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i] || k === 'toJSON') return UNKNOWN;
    const member = compareJson((a as Previous)[k], (b as Previous)[k]);
    // A member serializes differently: the object does too (its key is written, as neither value is undefined).
    if (member === DIFFERENT) return DIFFERENT;
    if (member === UNKNOWN) shown = UNKNOWN;
  }
  return shown;
}

/** A value JSON.stringify writes as itself: a string, a finite number, a boolean or null (not undefined, NaN or ±Infinity). */
function plainScalar(v: unknown): boolean {
  return (
    v === null ||
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v))
  );
}

/** An object JSON.stringify writes as its own keys: made by a literal, a spread, JSON.parse or copyJson (clone.ts). */
function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}
