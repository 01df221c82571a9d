/**
 * Coupons: a percentage or an amount off, once, for some months, or forever. Ids are the caller's own (`SUMMER25`) or
 * eight random characters, so they carry no prefix and expansion finds them through `EXPANDERS`. A deleted coupon
 * keeps its row, marked deleted and no longer valid: discounts already applied still name it, and its id stays taken.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { StripeError, invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { EXPANDERS } from '../lib/expand.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { nowSeconds, put, type Stored } from '../lib/store.ts';
import { copyJson } from '../lib/clone.ts';

type Coupon = Stored<'coupons'>;

/** Whether a coupon can still be redeemed: not deleted, not past `redeem_by`, not used up. */
function isValid(ctx: Ctx, coupon: Stored<'coupons'>, deleted: boolean): boolean {
  if (deleted) return false;
  if (coupon.redeem_by !== null && coupon.redeem_by <= nowSeconds(ctx)) return false;
  if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions)
    return false;
  return true;
}

/** A stored coupon as the API shows it now: `valid` follows the clock and the redemption count. */
function readCoupon(ctx: Ctx, id: string): { coupon: Coupon; deleted: boolean } | undefined {
  const row = ctx.db.one<{ data: string; deleted: number }>(
    'SELECT data, deleted FROM coupons WHERE id = ?',
    id,
  );
  if (!row) return undefined;
  const coupon = JSON.parse(row.data) as Coupon;
  coupon.valid = isValid(ctx, coupon, row.deleted === 1);
  return { coupon, deleted: row.deleted === 1 };
}

/** A coupon that has not been deleted, or Stripe's 404. */
export function liveCoupon(ctx: Ctx, id: string, param = 'coupon'): Coupon {
  const found = readCoupon(ctx, id);
  if (!found || found.deleted) throw resourceMissing('coupon', id, param);
  return found.coupon;
}

/** A coupon that can be applied now, or the 400 Stripe gives for an expired or used-up one. */
export function redeemableCoupon(ctx: Ctx, id: string, param = 'coupon'): Coupon {
  const coupon = liveCoupon(ctx, id, param);
  if (!coupon.valid)
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'coupon_expired',
      message: `Coupon expired: ${id}`,
      param,
    });
  return coupon;
}

/** Count one redemption of a coupon (a discount applied). */
export function redeemCoupon(ctx: Ctx, coupon: Coupon): Coupon {
  const after: Coupon = { ...coupon, times_redeemed: coupon.times_redeemed + 1 };
  after.valid = isValid(ctx, after, false);
  return put(ctx, 'coupons', after);
}

// Discounts and promotion codes hold coupon ids under a field named `coupon`; a deleted coupon still expands there.
EXPANDERS.coupon = (ctx, id) => readCoupon(ctx, id)?.coupon;

const CURRENCY = /^[a-z]{3}$/;

const createParams = {
  id: p.string(),
  amount_off: p.int(1),
  currency: p.string(3),
  duration: p.enum('forever', 'once', 'repeating'),
  duration_in_months: p.int(1),
  max_redemptions: p.int(1),
  metadata: p.metadata(),
  name: p.string(40),
  percent_off: p.num(),
  redeem_by: p.int(),
};
const updateParams = { metadata: p.metadata(), name: p.string(40) };

export const couponsOps = [
  op({
    id: 'PostCoupons',
    method: 'POST',
    path: '/v1/coupons',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const ctx = c.ctx;
      const percent = params.percent_off;
      const amount = params.amount_off;
      const hasPercent = percent !== undefined && percent !== null;
      const hasAmount = amount !== undefined && amount !== null;
      if (hasPercent && hasAmount)
        throw invalidRequest(
          'You may only specify one of these parameters: amount_off, percent_off.',
          'amount_off',
        );
      if (!hasPercent && !hasAmount)
        throw invalidRequest(
          'You must specify either `percent_off` or `amount_off` when creating a coupon.',
          'percent_off',
          'parameter_missing',
        );
      if (hasPercent && !(percent > 0 && percent <= 100))
        throw invalidRequest(
          'Invalid percent_off: must be greater than 0 and at most 100.',
          'percent_off',
          'parameter_invalid_float',
        );
      const currency = params.currency ? String(params.currency).toLowerCase() : null;
      if (hasAmount && !currency) throw parameterMissing('currency');
      if (currency && !CURRENCY.test(currency))
        throw invalidRequest(
          `Invalid currency: ${params.currency}`,
          'currency',
          'parameter_invalid_string',
        );
      const duration = params.duration ?? 'once';
      if (duration === 'repeating' && !params.duration_in_months)
        throw parameterMissing('duration_in_months');
      if (duration !== 'repeating' && params.duration_in_months)
        throw invalidRequest(
          '`duration_in_months` can only be set when `duration` is `repeating`.',
          'duration_in_months',
        );
      if (params.redeem_by && params.redeem_by <= nowSeconds(ctx))
        throw invalidRequest('Invalid redeem_by: must be in the future.', 'redeem_by');
      const id: string = params.id ?? ctx.ids.token('', 8);
      if (ctx.db.one('SELECT 1 FROM coupons WHERE id = ?', id)) {
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'resource_already_exists',
          message: 'Coupon already exists.',
          param: 'id',
        });
      }
      const coupon: Stored<'coupons'> = {
        id,
        object: 'coupon',
        amount_off: hasAmount ? amount : null,
        created: nowSeconds(ctx),
        currency: hasAmount ? currency : null,
        duration,
        // Set when repeating (checked above).
        duration_in_months: duration === 'repeating' ? (params.duration_in_months ?? null) : null,
        livemode: false,
        max_redemptions: params.max_redemptions ?? null,
        metadata: mergeMetadata({}, params.metadata),
        name: params.name ?? null,
        percent_off: hasPercent ? percent : null,
        redeem_by: params.redeem_by ?? null,
        times_redeemed: 0,
        valid: true,
      };
      put(ctx, 'coupons', coupon);
      emit(c, 'coupon.created', coupon);
      return coupon;
    },
  }),
  op({
    id: 'GetCouponsCoupon',
    method: 'GET',
    path: '/v1/coupons/{coupon}',
    params: {},
    run: (c, _params: OpParams, path) => liveCoupon(c.ctx, path.coupon, 'id'),
  }),
  op({
    id: 'PostCouponsCoupon',
    method: 'POST',
    path: '/v1/coupons/{coupon}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = liveCoupon(c.ctx, path.coupon, 'id');
      const after = copyJson(before);
      if (params.name !== undefined) after.name = params.name;
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      put(c.ctx, 'coupons', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'coupon.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'DeleteCouponsCoupon',
    method: 'DELETE',
    path: '/v1/coupons/{coupon}',
    params: {},
    run(c, _params: OpParams, path) {
      const before = liveCoupon(c.ctx, path.coupon, 'id');
      const kept = { ...before, valid: false };
      put(c.ctx, 'coupons', kept);
      // The row stays (discounts name it) but leaves the coupon endpoints; `put` reads `deleted` off the object,
      // which Stripe's coupon does not carry, so the flag is set beside it.
      c.ctx.db.run('UPDATE coupons SET deleted = 1 WHERE id = ?', before.id);
      emit(c, 'coupon.deleted', kept);
      return { id: before.id, object: 'coupon', deleted: true };
    },
  }),
  op({
    id: 'GetCoupons',
    method: 'GET',
    path: '/v1/coupons',
    params: listParams,
    run(c, params: OpParams<typeof listParams>) {
      return listPage(c.ctx, 'coupons', params, {
        url: '/v1/coupons',
        what: 'coupon',
        map: (o) => ({ ...o, valid: isValid(c.ctx, o, false) }),
      });
    },
  }),
];
