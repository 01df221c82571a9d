/**
 * Events: retrieve one, or list them newest first, by `type` (an exact name, or a group with `*` as in `charge.*`),
 * `types[]` (up to 20 exact names), `created` or `delivery_success` (true: every webhook delivered, which an event
 * no endpoint listened to is too; false: some still pending or given up, by `pending_webhooks`). Both
 * settle balance and payouts first, so the `payout.paid` and `balance.available` events the clock has made due are
 * in the log an agent reads.
 */
import type { SqlParam } from 'seahaven';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, p, type OpParams } from '../lib/params.ts';
import { get } from '../lib/store.ts';
import { settle } from './payouts.ts';

const EVENT_TYPE = /^[a-z0-9_.*]+$/;

const listEventsParams = {
  ...listParams,
  delivery_success: p.bool(),
  type: p.string(),
  types: p.arr(p.string()),
};

export const eventsOps = [
  op({
    id: 'GetEventsId',
    method: 'GET',
    path: '/v1/events/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      settle(c);
      const event = get(c.ctx, 'events', path.id);
      if (event === undefined) throw resourceMissing('event', path.id, 'id');
      return event;
    },
  }),
  op({
    id: 'GetEvents',
    method: 'GET',
    path: '/v1/events',
    params: listEventsParams,
    run(c, params: OpParams<typeof listEventsParams>) {
      settle(c);
      const where: [string, ...SqlParam[]][] = [];
      // pending_webhooks counts the endpoints an event has not reached yet, failed deliveries included (webhooks.ts).
      if (params.delivery_success === true)
        where.push(["json_extract(data, '$.pending_webhooks') = 0"]);
      if (params.delivery_success === false)
        where.push(["json_extract(data, '$.pending_webhooks') > 0"]);
      if (params.type && params.types?.length)
        throw invalidRequest('You may pass either type or types, but not both.', 'types');
      if (params.type) {
        if (!EVENT_TYPE.test(params.type))
          throw invalidRequest(
            `Invalid type: ${params.type}. Give an event type such as charge.succeeded, or a group such as charge.*`,
            'type',
          );
        if (params.type.includes('*')) {
          // `*` stands for any run of characters; `_` and `%` are literal in event names, so they are escaped.
          const pattern = params.type.replace(/[\\%_]/g, (m) => `\\${m}`).replace(/\*/g, '%');
          where.push(["type LIKE ? ESCAPE '\\'", pattern]);
        } else {
          where.push(['type = ?', params.type]);
        }
      }
      // An emptied item (`types[0]=`) is null.
      const types = (params.types ?? []).filter((t: string | null): t is string => t !== null);
      if (types.length > 20)
        throw invalidRequest(
          `Invalid types: at most 20 event types, got ${types.length}.`,
          'types',
        );
      if (types.length > 0) {
        for (const t of types)
          if (!/^[a-z0-9_.]+$/.test(t))
            throw invalidRequest(
              `Invalid types: ${t} is not an event type (types takes exact names; use type for a group with *).`,
              'types',
            );
        where.push([`type IN (${types.map(() => '?').join(', ')})`, ...types]);
      }
      return listPage(c.ctx, 'events', params, { url: '/v1/events', what: 'event', where });
    },
  }),
];
