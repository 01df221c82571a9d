/**
 * Promotion codes: customer-facing codes for a coupon, optionally limited to one customer, a number of redemptions,
 * an expiry, or a minimum order. Create takes the coupon as `promotion[coupon]` (2025-09-30.clover on) or the older
 * `coupon`; the object names it under `promotion.coupon` either way.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { StripeError, invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import { liveCoupon, redeemableCoupon } from './coupons.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { copyJson } from '../lib/clone.ts';

const CODE = /^[A-Za-z0-9]+$/;

function mustPromotionCode(ctx: Ctx, id: string, param = 'id'): Stored<'promotion_codes'> {
  const code = get(ctx, 'promotion_codes', id);
  if (code === undefined) throw resourceMissing('promotion_code', id, param);
  return code;
}

/** The coupon a code is for: every code the world makes names one. */
function couponOf(promo: Stored<'promotion_codes'>): string {
  const id = promo.promotion.coupon;
  if (id === null) throw new Error(`promotion code ${promo.id} names no coupon`);
  return id;
}

/** 400 when another active code reads the same (case-insensitively) for the same customer. */
function refuseDuplicate(
  ctx: Ctx,
  code: string,
  customer: string | null,
  selfId: string | null,
): void {
  const other = ctx.db.one<{ id: string }>(
    'SELECT id FROM promotion_codes WHERE active = 1 AND code = ? COLLATE NOCASE AND customer IS ? AND id IS NOT ?',
    code,
    customer,
    selfId,
  );
  if (other) {
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'resource_already_exists',
      message: `An active promotion code with \`code: ${code}\` already exists.`,
      param: 'code',
    });
  }
}

/**
 * A promotion code that `customer` may redeem now, with its coupon; otherwise the 400 Stripe gives. `param` names the
 * parameter that carried it.
 */
export function redeemablePromotionCode(
  ctx: Ctx,
  id: string,
  customer: string | null,
  param = 'promotion_code',
): { promo: Stored<'promotion_codes'>; coupon: Stored<'coupons'> } {
  const promo = mustPromotionCode(ctx, id, param);
  const now = nowSeconds(ctx);
  const refuse = (why: string) =>
    new StripeError(400, {
      type: 'invalid_request_error',
      code: 'promotion_code_invalid',
      message: `This promotion code cannot be redeemed: ${why}.`,
      param,
    });
  if (!promo.active) throw refuse('it is inactive');
  if (promo.expires_at !== null && promo.expires_at <= now) throw refuse('it has expired');
  if (promo.max_redemptions !== null && promo.times_redeemed >= promo.max_redemptions)
    throw refuse('it has reached its maximum number of redemptions');
  if (promo.customer !== null && promo.customer !== customer)
    throw refuse(`it is restricted to customer ${promo.customer}`);
  const coupon = redeemableCoupon(ctx, couponOf(promo), param);
  return { promo, coupon };
}

/** Count one redemption of a promotion code. */
export function redeemPromotionCode(
  ctx: Ctx,
  promo: Stored<'promotion_codes'>,
): Stored<'promotion_codes'> {
  return put(ctx, 'promotion_codes', { ...promo, times_redeemed: promo.times_redeemed + 1 });
}

const createParams = {
  promotion: p.obj({ type: p.enum('coupon').req(), coupon: p.string() }),
  coupon: p.string(),
  active: p.bool(),
  code: p.string(500),
  customer: p.string(),
  expires_at: p.int(),
  max_redemptions: p.int(1),
  metadata: p.metadata(),
  restrictions: p.obj({
    first_time_transaction: p.bool(),
    minimum_amount: p.int(0),
    minimum_amount_currency: p.string(3),
  }),
};
const updateParams = { active: p.bool(), metadata: p.metadata() };
const listCodesParams = {
  ...listParams,
  active: p.bool(),
  code: p.string(),
  coupon: p.string(),
  customer: p.string(),
};

export const promotionCodesOps = [
  op({
    id: 'PostPromotionCodes',
    method: 'POST',
    path: '/v1/promotion_codes',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const ctx = c.ctx;
      if (params.coupon && params.promotion?.coupon)
        throw invalidRequest(
          'You may only specify one of these parameters: coupon, promotion[coupon].',
          'coupon',
        );
      const couponParam = params.coupon ? 'coupon' : 'promotion[coupon]';
      const couponId: string | undefined = params.coupon ?? params.promotion?.coupon ?? undefined;
      if (!couponId) throw parameterMissing(params.promotion ? 'promotion[coupon]' : 'promotion');
      const coupon = liveCoupon(ctx, couponId, couponParam);
      if (!coupon.valid)
        throw invalidRequest(
          `Coupon ${coupon.id} is no longer valid; a promotion code needs a valid coupon.`,
          couponParam,
        );
      const customer = params.customer ? liveCustomer(ctx, params.customer, 'customer').id : null;
      const now = nowSeconds(ctx);
      if (params.expires_at !== undefined && params.expires_at !== null) {
        if (params.expires_at <= now)
          throw invalidRequest('expires_at must be in the future.', 'expires_at');
        if (coupon.redeem_by !== null && params.expires_at > coupon.redeem_by)
          throw invalidRequest(
            "expires_at cannot be later than the coupon's redeem_by.",
            'expires_at',
          );
      }
      const r: NonNullable<typeof params.restrictions> = params.restrictions ?? {};
      const minimum = r.minimum_amount;
      const hasMinimum = minimum !== undefined && minimum !== null;
      if (hasMinimum && !r.minimum_amount_currency)
        throw parameterMissing('restrictions[minimum_amount_currency]');
      if (!hasMinimum && r.minimum_amount_currency)
        throw parameterMissing('restrictions[minimum_amount]');
      const code: string = params.code ?? ctx.ids.token('', 8).toUpperCase();
      if (!CODE.test(code))
        throw invalidRequest(
          `Invalid code: ${code}. A promotion code may contain only letters and digits.`,
          'code',
        );
      const active = params.active ?? true;
      if (active) refuseDuplicate(ctx, code, customer, null);
      const promo: Stored<'promotion_codes'> = {
        id: newId(ctx, 'promo_'),
        object: 'promotion_code',
        active,
        code,
        created: now,
        customer,
        customer_account: null,
        expires_at: params.expires_at ?? null,
        livemode: false,
        max_redemptions: params.max_redemptions ?? null,
        metadata: mergeMetadata({}, params.metadata),
        promotion: { coupon: coupon.id, type: 'coupon' },
        restrictions: {
          first_time_transaction: r.first_time_transaction ?? false,
          minimum_amount: hasMinimum ? minimum : null,
          minimum_amount_currency: hasMinimum
            ? String(r.minimum_amount_currency).toLowerCase()
            : null,
        },
        times_redeemed: 0,
      };
      put(ctx, 'promotion_codes', promo);
      emit(c, 'promotion_code.created', promo);
      return promo;
    },
  }),
  op({
    id: 'GetPromotionCodesPromotionCode',
    method: 'GET',
    path: '/v1/promotion_codes/{promotion_code}',
    params: {},
    run: (c, _params: OpParams, path) => mustPromotionCode(c.ctx, path.promotion_code),
  }),
  op({
    id: 'PostPromotionCodesPromotionCode',
    method: 'POST',
    path: '/v1/promotion_codes/{promotion_code}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = mustPromotionCode(c.ctx, path.promotion_code);
      const after = copyJson(before);
      if (
        params.active !== undefined &&
        params.active !== null &&
        params.active !== before.active
      ) {
        if (params.active) {
          const coupon = liveCoupon(c.ctx, couponOf(before), 'active');
          if (!coupon.valid)
            throw invalidRequest(
              `This promotion code cannot be reactivated: its coupon ${coupon.id} is no longer valid.`,
              'active',
            );
          refuseDuplicate(c.ctx, before.code, before.customer, before.id);
        }
        after.active = params.active;
      }
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      put(c.ctx, 'promotion_codes', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'promotion_code.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetPromotionCodes',
    method: 'GET',
    path: '/v1/promotion_codes',
    params: listCodesParams,
    run(c, params: OpParams<typeof listCodesParams>) {
      const where: [string, ...(string | number)[]][] = [];
      if (typeof params.active === 'boolean') where.push(['active = ?', params.active ? 1 : 0]);
      if (params.code) where.push(['code = ? COLLATE NOCASE', params.code]);
      if (params.coupon) where.push(['coupon = ?', params.coupon]);
      if (params.customer) where.push(['customer = ?', params.customer]);
      return listPage(c.ctx, 'promotion_codes', params, {
        url: '/v1/promotion_codes',
        what: 'promotion_code',
        where,
      });
    },
  }),
];
