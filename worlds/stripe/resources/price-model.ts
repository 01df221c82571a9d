/**
 * A price's model: finding a live price or plan, its legacy plan shape, its events, lookup keys, tiers, creation and update.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { StripeError, invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { EXPANDERS, HIDDEN, INCLUDERS } from '../lib/expand.ts';
import { type OpContext } from '../lib/op.ts';
import { mergeMetadata, p } from '../lib/params.ts';
import type { Plan, PriceRecurring, PriceTier } from '../lib/objects.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import {
  CURRENCY,
  createProduct,
  liveProduct,
  priceDataFields,
  productDataFields,
  tier,
  transform,
  type ProductData,
} from './price-fields.ts';
import { copyJson } from '../lib/clone.ts';

/** A price that has not been deleted (through the plans endpoint), or Stripe's 404. */
export function livePrice(ctx: Ctx, id: string, param = 'price', what = 'price'): Stored<'prices'> {
  const row = ctx.db.one<{ data: string; deleted: number }>(
    'SELECT data, deleted FROM prices WHERE id = ?',
    id,
  );
  if (!row || row.deleted === 1) throw resourceMissing(what, id, param);
  return JSON.parse(row.data) as Stored<'prices'>;
}

/** A recurring price in the legacy `plan` shape. */
export function planOf(price: Stored<'prices'>): Plan {
  // Only a recurring price is a plan (`livePlan`); its recurrence is set.
  const recurring = price.recurring as PriceRecurring;
  const plan: Plan = {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: recurring.meter,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: price.tiers_mode,
    transform_usage: price.transform_quantity,
    trial_period_days: recurring.trial_period_days,
    usage_type: recurring.usage_type,
  };
  if (price.tiers) plan.tiers = price.tiers;
  return plan;
}

/** Announce a price write: `price.<verb>`, and `plan.<verb>` when the price is also a plan. */
export function emitPrice(
  c: OpContext,
  verb: 'created' | 'updated' | 'deleted',
  after: Stored<'prices'>,
  before?: Stored<'prices'>,
): void {
  const previous = before ? changedAttributes(before, after) : undefined;
  if (previous && Object.keys(previous).length === 0) return;
  emit(c, `price.${verb}`, after, previous);
  if (after.type === 'recurring') {
    const plan = planOf(after);
    emit(c, `plan.${verb}`, plan, before ? changedAttributes(planOf(before), plan) : undefined);
  }
}

/** Give `key` to price `selfId`: with `transfer`, take it from the price holding it; otherwise that price is a 400. */
export function claimLookupKey(c: OpContext, key: string, transfer: boolean, selfId: string): void {
  const holder = c.ctx.db.one<{ id: string }>(
    'SELECT id FROM prices WHERE lookup_key = ? AND deleted = 0 AND id <> ?',
    key,
    selfId,
  );
  if (!holder) return;
  if (!transfer) {
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'resource_already_exists',
      message: `A price (\`${holder.id}\`) already uses that lookup key. Pass \`transfer_lookup_key=true\` to move it to this price.`,
      param: 'lookup_key',
    });
  }
  // The holder was found by its row just now.
  const before = get(c.ctx, 'prices', holder.id)!;
  const after = { ...before, lookup_key: null };
  put(c.ctx, 'prices', after);
  emitPrice(c, 'updated', after, before);
}

/** A tier's two forms of one amount (`unit_amount`, `unit_amount_decimal`), checked and shown as Stripe shows them. */
function tierAmount(
  t: TierInput,
  key: 'unit_amount' | 'flat_amount',
  param: string,
): { amount: number | null; decimal: string | null } {
  const whole = (key === 'unit_amount' ? t.unit_amount : t.flat_amount) ?? null;
  const given = (key === 'unit_amount' ? t.unit_amount_decimal : t.flat_amount_decimal) ?? null;
  if (whole !== null && given !== null)
    throw invalidRequest(
      `You may only specify one of these parameters: ${key}, ${key}_decimal.`,
      `${param}[${key}]`,
    );
  if (whole !== null) return { amount: whole, decimal: String(whole) };
  if (given === null) return { amount: null, decimal: null };
  const decimal = normalDecimal(given);
  if (decimal.startsWith('-'))
    throw invalidRequest(
      `Invalid ${param}[${key}_decimal]: must be at least 0.`,
      `${param}[${key}_decimal]`,
    );
  return { amount: /^\d+$/.test(decimal) ? Number(decimal) : null, decimal };
}

/**
 * A tiered price's `tiers` as Stripe stores them, or its 400: each tier a whole `up_to` above the previous one's
 * (the last one `inf`, shown as `null`, and no other), at most one of each amount's two forms, and some amount.
 */
export function tiersOf(raw: TierInput[], param: string): PriceTier[] {
  let previous = 0;
  return raw.map((t, i) => {
    const here = `${param}[${i}]`;
    const last = i === raw.length - 1;
    const upTo =
      t.up_to === 'inf'
        ? null
        : typeof t.up_to === 'string' && /^\d+$/.test(t.up_to)
          ? Number(t.up_to)
          : typeof t.up_to === 'number' && Number.isSafeInteger(t.up_to)
            ? t.up_to
            : undefined;
    if (upTo === undefined || upTo === 0)
      throw invalidRequest(
        `Invalid ${here}[up_to]: must be a positive integer or \`inf\`.`,
        `${here}[up_to]`,
      );
    if (upTo === null && !last)
      throw invalidRequest(
        `Only the last tier may have \`up_to\` set to \`inf\`; ${here} is not the last of ${raw.length} tiers.`,
        `${here}[up_to]`,
      );
    if (upTo !== null && last)
      throw invalidRequest(`The last tier must have \`up_to\` set to \`inf\`.`, `${here}[up_to]`);
    if (upTo !== null && upTo <= previous)
      throw invalidRequest(
        `Tiers must be in ascending order of \`up_to\`: ${here}[up_to] (${upTo}) must be greater than ${param}[${i - 1}][up_to] (${previous}).`,
        `${here}[up_to]`,
      );
    if (upTo !== null) previous = upTo;
    const unit = tierAmount(t, 'unit_amount', here);
    const flat = tierAmount(t, 'flat_amount', here);
    if (unit.decimal === null && flat.decimal === null)
      throw invalidRequest('An entry in the tiers array is missing an amount.', param);
    return {
      flat_amount: flat.amount,
      flat_amount_decimal: flat.decimal,
      unit_amount: unit.amount,
      unit_amount_decimal: unit.decimal,
      up_to: upTo,
    };
  });
}

/** A tier as a request gives it (`tiers[i][…]`): `up_to` a whole number or `inf`, each amount in one of two forms. */
export interface TierInput {
  up_to?: unknown;
  unit_amount?: number | null;
  unit_amount_decimal?: string | null;
  flat_amount?: number | null;
  flat_amount_decimal?: string | null;
}

/** `transform_quantity` (`transform_usage` on plans) as a request gives it. */
interface PriceTransformQuantityInput {
  divide_by: number;
  round: 'down' | 'up';
}

/** What the price and plan update endpoints change. */
export interface PriceUpdate {
  active?: boolean | null;
  nickname?: string | null;
  metadata?: Record<string, string | null> | null;
  lookup_key?: string | null;
  transfer_lookup_key?: boolean | null;
  tax_behavior?: Stored<'prices'>['tax_behavior'];
  trial_period_days?: number | null;
  product?: string | null;
}

export interface PriceInput {
  currency: string;
  unit_amount?: number | null;
  unit_amount_decimal?: string | null;
  custom_unit_amount?: {
    enabled?: boolean | null;
    maximum?: number | null;
    minimum?: number | null;
    preset?: number | null;
  } | null;
  recurring?: {
    interval: PriceRecurring['interval'];
    interval_count?: number | null;
    meter?: string | null;
    trial_period_days?: number | null;
    usage_type?: PriceRecurring['usage_type'] | null;
  } | null;
  tax_behavior?: Stored<'prices'>['tax_behavior'];
  metadata?: Record<string, string | null> | null;
  active?: boolean | null;
  billing_scheme?: Stored<'prices'>['billing_scheme'] | null;
  tiers?: TierInput[] | null;
  tiers_mode?: Stored<'prices'>['tiers_mode'];
  transform_quantity?: PriceTransformQuantityInput | null;
  lookup_key?: string | null;
  transfer_lookup_key?: boolean | null;
  nickname?: string | null;
  /** An id of the caller's choosing (plans take one). */
  id?: string | null;
  /** Parameter names in errors: the plans endpoint calls `unit_amount` `amount`. */
  names?: {
    unit_amount: string;
    unit_amount_decimal: string;
    tiers: string;
    /** The plans endpoint calls `transform_quantity` `transform_usage`. */
    transform_quantity?: string;
  };
}

/** Check, store and announce a new price of `product`. */
export function createPrice(c: OpContext, input: PriceInput, product: string): Stored<'prices'> {
  const ctx = c.ctx;
  const names = {
    unit_amount: 'unit_amount',
    unit_amount_decimal: 'unit_amount_decimal',
    tiers: 'tiers',
    transform_quantity: 'transform_quantity',
    ...input.names,
  };
  const currency = input.currency.toLowerCase();
  if (!CURRENCY.test(currency))
    throw invalidRequest(
      `Invalid currency: ${input.currency}. Stripe currencies are three-letter ISO codes, like usd.`,
      'currency',
      'parameter_invalid_string',
    );
  const scheme = input.billing_scheme ?? 'per_unit';
  const hasAmount = input.unit_amount !== undefined && input.unit_amount !== null;
  const hasDecimal = input.unit_amount_decimal !== undefined && input.unit_amount_decimal !== null;
  const custom = input.custom_unit_amount?.enabled ? input.custom_unit_amount : null;
  if (hasAmount && hasDecimal)
    throw invalidRequest(
      `You may only specify one of these parameters: ${names.unit_amount}, ${names.unit_amount_decimal}.`,
      names.unit_amount,
    );
  let unitAmount: number | null = null;
  let unitDecimal: string | null = null;
  let tiers: PriceTier[] | null = null;
  if (scheme !== 'tiered') {
    if (input.tiers?.length)
      throw invalidRequest(
        `${names.tiers} can only be set when billing_scheme is tiered.`,
        names.tiers,
      );
    if (input.tiers_mode)
      throw invalidRequest(
        'tiers_mode can only be set when billing_scheme is tiered.',
        'tiers_mode',
      );
  }
  if (scheme === 'tiered') {
    const given = hasAmount ? names.unit_amount : names.unit_amount_decimal;
    if (hasAmount || hasDecimal)
      throw invalidRequest(
        `${given} cannot be set when billing_scheme is tiered; price each tier instead.`,
        given,
      );
    if (custom)
      throw invalidRequest(
        `You may only specify one of these parameters: custom_unit_amount, ${names.tiers}.`,
        'custom_unit_amount',
      );
    if (!input.tiers?.length) throw parameterMissing(names.tiers);
    if (!input.tiers_mode) throw parameterMissing('tiers_mode');
    if (input.transform_quantity)
      throw invalidRequest(
        `You may only specify one of these parameters: ${names.tiers}, ${names.transform_quantity}.`,
        names.tiers,
      );
    tiers = tiersOf(input.tiers, names.tiers);
  } else if (custom) {
    if (hasAmount || hasDecimal)
      throw invalidRequest(
        `${names.unit_amount} cannot be set together with custom_unit_amount.`,
        names.unit_amount,
      );
    if (input.recurring)
      throw invalidRequest(
        'custom_unit_amount is only supported for one-time prices.',
        'custom_unit_amount',
      );
  } else if (hasAmount) {
    unitAmount = input.unit_amount as number;
    unitDecimal = String(unitAmount);
  } else if (hasDecimal) {
    unitDecimal = normalDecimal(input.unit_amount_decimal as string);
    unitAmount = /^\d+$/.test(unitDecimal) ? Number(unitDecimal) : null;
    if (unitDecimal.startsWith('-'))
      throw invalidRequest(
        `Invalid ${names.unit_amount_decimal}: must be at least 0.`,
        names.unit_amount_decimal,
      );
  } else {
    throw parameterMissing(names.unit_amount);
  }
  const recurring: PriceRecurring | null = input.recurring
    ? {
        interval: input.recurring.interval,
        interval_count: input.recurring.interval_count ?? 1,
        meter: input.recurring.meter ?? null,
        trial_period_days: input.recurring.trial_period_days ?? null,
        usage_type: input.recurring.usage_type ?? 'licensed',
      }
    : null;
  if (recurring) {
    const days =
      { day: 1, week: 7, month: 31, year: 366 }[recurring.interval] * recurring.interval_count;
    if (days > 3 * 366)
      throw invalidRequest(
        'The maximum billing interval is three years (3 years, 36 months, or 156 weeks).',
        'recurring[interval_count]',
      );
  }
  const id = input.id ?? newId(ctx, 'price_');
  if (input.id && ctx.db.one('SELECT 1 FROM prices WHERE id = ?', input.id)) {
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'resource_already_exists',
      message: 'Plan already exists.',
      param: 'id',
    });
  }
  if (input.lookup_key) claimLookupKey(c, input.lookup_key, input.transfer_lookup_key === true, id);
  const price: Stored<'prices'> = {
    id,
    object: 'price',
    active: input.active ?? true,
    billing_scheme: scheme,
    created: nowSeconds(ctx),
    currency,
    custom_unit_amount: custom
      ? {
          maximum: custom.maximum ?? null,
          minimum: custom.minimum ?? null,
          preset: custom.preset ?? null,
        }
      : null,
    livemode: false,
    lookup_key: input.lookup_key ?? null,
    metadata: mergeMetadata({}, input.metadata),
    nickname: input.nickname ?? null,
    product,
    recurring,
    tax_behavior: input.tax_behavior ?? 'unspecified',
    tiers_mode: scheme === 'tiered' ? (input.tiers_mode ?? null) : null,
    transform_quantity: input.transform_quantity
      ? { divide_by: input.transform_quantity.divide_by, round: input.transform_quantity.round }
      : null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: unitDecimal,
  };
  // A tiered price stores its tiers (billing reads them off the price, or a subscription item's copy of it); replies
  // show them only when `expand[]` names them (HIDDEN, below).
  if (tiers) price.tiers = tiers;
  put(ctx, 'prices', price);
  emitPrice(c, 'created', price);
  return price;
}

/** `"12.50"` → `"12.5"`, `"007"` → `"7"`: Stripe echoes decimals in their shortest form. */
export function normalDecimal(d: string): string {
  let [whole, frac = ''] = d.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  whole = whole.replace(/^-/, '').replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  return sign + whole + (frac ? `.${frac}` : '');
}

/** The product a new price or plan belongs to: an existing id, or one made from inline data. */
export function productFor(
  c: OpContext,
  id: unknown,
  data: ProductData | null | undefined,
  param: string,
): string {
  if (typeof id === 'string' && id !== '') {
    if (data)
      throw invalidRequest(
        `You may only specify one of these parameters: ${param}, product_data.`,
        param,
      );
    return liveProduct(c.ctx, id, param).id;
  }
  if (data) return createProduct(c, data).id;
  throw invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
}

export const priceCreate = {
  ...priceDataFields,
  active: p.bool(),
  billing_scheme: p.enum('per_unit', 'tiered'),
  lookup_key: p.string(200),
  nickname: p.string(),
  product: p.string(),
  product_data: p.obj(productDataFields),
  tiers: p.arr(tier),
  tiers_mode: p.enum('graduated', 'volume'),
  transfer_lookup_key: p.bool(),
  transform_quantity: transform,
};

/** Apply a price update (the fields both endpoints change). */
export function updatePrice(
  c: OpContext,
  before: Stored<'prices'>,
  params: PriceUpdate,
): Stored<'prices'> {
  const after = copyJson(before);
  if (params.active !== undefined && params.active !== null) {
    if (params.active === false && before.active) {
      const product = get(c.ctx, 'products', before.product);
      if (product?.default_price === before.id) {
        throw invalidRequest(
          'This price cannot be archived because it is the default price of its product. Set another default price on the product first.',
          'active',
        );
      }
    }
    after.active = params.active;
  }
  if (params.nickname !== undefined) after.nickname = params.nickname;
  if (params.metadata !== undefined)
    after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
  if (params.lookup_key !== undefined) {
    if (params.lookup_key !== null)
      claimLookupKey(c, params.lookup_key, params.transfer_lookup_key === true, before.id);
    after.lookup_key = params.lookup_key;
  }
  if (
    params.tax_behavior !== undefined &&
    params.tax_behavior !== null &&
    params.tax_behavior !== before.tax_behavior
  ) {
    if (before.tax_behavior !== 'unspecified')
      throw invalidRequest(
        `tax_behavior cannot be changed once it is set (it is ${before.tax_behavior}).`,
        'tax_behavior',
      );
    after.tax_behavior = params.tax_behavior;
  }
  if (params.trial_period_days !== undefined && after.recurring)
    after.recurring.trial_period_days = params.trial_period_days;
  if (params.product !== undefined && params.product !== null && params.product !== before.product)
    after.product = liveProduct(c.ctx, params.product, 'product').id;
  put(c.ctx, 'prices', after);
  emitPrice(c, 'updated', after, before);
  return after;
}

/** A price that is a plan (recurring), or the plans endpoint's 404. */
export function livePlan(ctx: Ctx, id: string, param = 'id'): Stored<'prices'> {
  const price = livePrice(ctx, id, param, 'plan');
  if (price.type !== 'recurring') throw resourceMissing('plan', id, param);
  return price;
}

// A price's product may carry a caller-chosen id, with no `prod_` prefix to find it by.
EXPANDERS['price.product'] = (ctx, id) => get(ctx, 'products', id);
EXPANDERS['plan.product'] = (ctx, id) => get(ctx, 'products', id);

// `tiers` is includable on prices and plans: absent from every reply that holds one, a price's own or one embedded in
// a subscription item, until `expand[]` names it (`tiers`, `data.tiers`, `items.data.price.tiers`). A price that is
// not tiered has none.
HIDDEN.price = ['tiers'];
HIDDEN.plan = ['tiers'];
const storedTiers = (ctx: Ctx, owner: { id: string }): PriceTier[] =>
  get(ctx, 'prices', owner.id)?.tiers ?? [];
INCLUDERS['price.tiers'] = storedTiers;
INCLUDERS['plan.tiers'] = storedTiers;
