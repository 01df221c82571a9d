/**
 * Test clocks (`/v1/test_helpers/test_clocks`): a frozen time that customers created with `test_clock`, and their
 * subscriptions and invoices, live on instead of the world clock (lib/test-clocks.ts). Advancing one bills what is on
 * it as the world clock's advance bills the rest, within the call (billing/test-clock-advance.ts); deleting one
 * deletes its customers. The clock itself lives on the world clock: its `created` and `deletes_after` are world times.
 */
import type { Ctx } from 'seahaven';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { changedAttributes, emit } from '../lib/events.ts';
import { invalidRequest, parameterMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, p, type OpParams } from '../lib/params.ts';
import { newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import { liveTestClock } from '../lib/test-clocks.ts';
import { CLOCK_LIFETIME, advanceClock, deleteClock } from './test-clock-advance.ts';

const createParams = { frozen_time: p.int(), name: p.string(300), customer: p.string() };
const advanceParams = { frozen_time: p.int() };

/** Unix seconds Stripe accepts for a frozen time: from 1970 to the year 9999. */
const MAX_TIME = 253_402_300_799;

function frozenTime(value: unknown): number {
  if (value === undefined || value === null) throw parameterMissing('frozen_time');
  const t = value as number;
  if (t < 0 || t > MAX_TIME)
    throw invalidRequest(
      `Invalid frozen_time: must be a unix timestamp between 0 and ${MAX_TIME}.`,
      'frozen_time',
      'parameter_invalid_integer',
    );
  return t;
}

/**
 * A customer a new clock may take (`customer` on create): live, on no clock yet (a customer never changes clocks),
 * and with no live subscription, whose periods were drawn on the world clock.
 */
function attachable(ctx: Ctx, id: string): Stored<'customers'> {
  const customer = liveCustomer(ctx, id, 'customer');
  if (customer.test_clock)
    throw invalidRequest(
      `The customer ${id} is already attached to test clock ${customer.test_clock}, and a customer's test clock cannot change. Create a new customer with test_clock instead.`,
      'customer',
    );
  const sub = ctx.db.one<{ id: string }>(
    "SELECT id FROM subscriptions WHERE customer = ? AND status NOT IN ('canceled', 'incomplete_expired') ORDER BY seq LIMIT 1",
    id,
  );
  if (sub)
    throw invalidRequest(
      `The customer ${id} has a subscription on the world clock (${sub.id}), so it cannot move to a test clock. Attach a customer without live subscriptions, or create a new customer with test_clock.`,
      'customer',
    );
  return customer;
}

export const testClocksOps = [
  op({
    id: 'PostTestHelpersTestClocks',
    method: 'POST',
    path: '/v1/test_helpers/test_clocks',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const now = nowSeconds(c.ctx);
      const customer = params.customer ? attachable(c.ctx, params.customer) : undefined;
      const clock: Stored<'test_clocks'> = {
        id: newId(c.ctx, 'clock_'),
        object: 'test_helpers.test_clock',
        created: now,
        deletes_after: now + CLOCK_LIFETIME,
        frozen_time: frozenTime(params.frozen_time),
        livemode: false,
        name: params.name ?? null,
        status: 'ready',
        status_details: {},
      };
      put(c.ctx, 'test_clocks', clock);
      emit(c, 'test_helpers.test_clock.created', clock);
      if (customer) {
        const after = { ...customer, test_clock: clock.id };
        put(c.ctx, 'customers', after);
        emit(c, 'customer.updated', after, changedAttributes(customer, after));
      }
      return clock;
    },
  }),
  op({
    id: 'GetTestHelpersTestClocksTestClock',
    method: 'GET',
    path: '/v1/test_helpers/test_clocks/{test_clock}',
    params: {},
    run: (c, _params: OpParams, path) => liveTestClock(c.ctx, path.test_clock, 'test_clock'),
  }),
  op({
    id: 'GetTestHelpersTestClocks',
    method: 'GET',
    path: '/v1/test_helpers/test_clocks',
    params: listParams,
    run: (c, params: OpParams<typeof listParams>) =>
      listPage(c.ctx, 'test_clocks', params, {
        url: '/v1/test_helpers/test_clocks',
        what: 'test_clock',
      }),
  }),
  op({
    id: 'DeleteTestHelpersTestClocksTestClock',
    method: 'DELETE',
    path: '/v1/test_helpers/test_clocks/{test_clock}',
    params: {},
    run(c, _params: OpParams, path) {
      const clock = liveTestClock(c.ctx, path.test_clock, 'test_clock');
      deleteClock(c, clock);
      return { id: clock.id, object: 'test_helpers.test_clock', deleted: true };
    },
  }),
  op({
    id: 'PostTestHelpersTestClocksTestClockAdvance',
    method: 'POST',
    path: '/v1/test_helpers/test_clocks/{test_clock}/advance',
    params: advanceParams,
    run(c, params: OpParams<typeof advanceParams>, path) {
      const clock = liveTestClock(c.ctx, path.test_clock, 'test_clock');
      return advanceClock(c, clock, frozenTime(params.frozen_time));
    },
  }),
];
