/**
 * The time objects on a test clock live on. A customer created with `test_clock` (and its subscriptions, invoices and
 * invoice items, which carry the customer's clock) lives on the clock's `frozen_time`, not the world clock: an
 * operation that names such an object runs on a context whose clock reads the frozen time, so what it writes
 * (`created`, periods, trial ends, events) is stamped with it. The world's own time stays known beside it
 * (`worldSeconds`): webhook deliveries are due on the world clock, whatever time their event carries.
 */
import type { Ctx } from 'seahaven';
import { resourceMissing } from './errors.ts';
import { get, nowSeconds, type Stored } from './store.ts';

/** The world clock's unix seconds, on a context whose clock reads a test clock's time. Spreads copy it. */
const WORLD = Symbol('world seconds');

type Stamped = Ctx & { [WORLD]?: number };

/** A test clock by id, or Stripe's 404 (`No such test_clock: 'clock_…'`). */
export function liveTestClock(ctx: Ctx, id: string, param = 'test_clock'): Stored<'test_clocks'> {
  const clock = get(ctx, 'test_clocks', id);
  if (!clock) throw resourceMissing('test_clock', id, param);
  return clock;
}

/** Unix seconds of the world clock, also on a context stamped with a test clock's time. */
export function worldSeconds(ctx: Ctx): number {
  return (ctx as Stamped)[WORLD] ?? nowSeconds(ctx);
}

/** `ctx` with its clock reading `at` (unix seconds), the world's time kept for `worldSeconds`. */
export function onClockTime(ctx: Ctx, at: number): Ctx {
  const ms = at * 1000;
  const stamped: Stamped = {
    ...ctx,
    clock: { now: () => ms, iso: () => new Date(ms).toISOString() },
    [WORLD]: worldSeconds(ctx),
  };
  return stamped;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The test clock a customer lives on, or null. */
function clockOfCustomer(ctx: Ctx, id: string | undefined): string | null {
  if (!id) return null;
  return (
    ctx.db.one<{ test_clock: string | null }>('SELECT test_clock FROM customers WHERE id = ?', id)
      ?.test_clock ?? null
  );
}

/**
 * The test clock an operation's objects live on, read off what it names: a `test_clock` parameter (a customer
 * created on one), a customer, a subscription, or an invoice. Null for objects on the world clock.
 */
function clockOf(
  ctx: Ctx,
  params: Record<string, unknown>,
  path: Record<string, string>,
): string | null {
  const named = str(params.test_clock);
  if (named) return named;
  const customer = str(path.customer) ?? str(params.customer);
  if (customer) return clockOfCustomer(ctx, customer);
  const sub = str(path.subscription_exposed_id) ?? str(params.subscription);
  if (sub)
    return (
      ctx.db.one<{ test_clock: string | null }>(
        'SELECT test_clock FROM subscriptions WHERE id = ?',
        sub,
      )?.test_clock ?? null
    );
  const invoice = str(path.invoice) ?? str(params.invoice);
  if (invoice)
    return clockOfCustomer(
      ctx,
      ctx.db.one<{ customer: string | null }>('SELECT customer FROM invoices WHERE id = ?', invoice)
        ?.customer ?? undefined,
    );
  return null;
}

/** `c` on its objects' time: stamped with their test clock's `frozen_time`, or `c` itself on the world clock. */
export function onObjectsTime<C extends { ctx: Ctx }>(
  c: C,
  params: Record<string, unknown>,
  path: Record<string, string>,
): C {
  const id = clockOf(c.ctx, params, path);
  const clock = id ? get(c.ctx, 'test_clocks', id) : undefined;
  if (!clock) return c;
  return { ...c, ctx: onClockTime(c.ctx, clock.frozen_time) };
}
