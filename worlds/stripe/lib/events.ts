/**
 * Events: one `evt_` per state change, with a snapshot of the object, the changed attributes' previous values for
 * `*.updated`, and the request that caused it. Nothing is delivered (no webhooks); `GET /v1/events` lists them.
 */
import type { OpContext } from './op.ts';
import { newId, nowSeconds, put, type Obj } from './store.ts';

/** Write an event of `type` about `object`. `previous`: the attributes an update changed, with their old values. */
export function emit(c: OpContext, type: string, object: Obj, previous?: Obj): Obj {
  const event: Obj = {
    id: newId(c.ctx, 'evt_'),
    object: 'event',
    account: undefined,
    api_version: c.version,
    context: null,
    created: nowSeconds(c.ctx),
    // Stored as JSON at once (put), so the snapshot is taken here without a copy.
    data: previous ? { object, previous_attributes: previous } : { object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: c.requestId, idempotency_key: c.idempotencyKey },
    type,
  };
  delete event.account;
  return put(c.ctx, 'events', event);
}

/** The attributes of `before` that `after` changed, with their values in `before` (for `*.updated` events). */
export function changedAttributes(before: Obj, after: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = before[k] ?? null;
  }
  return out;
}
