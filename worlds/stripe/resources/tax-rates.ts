/**
 * Tax rates: a percentage, inclusive or exclusive, for a jurisdiction. The percentage and inclusiveness are fixed once
 * created (Stripe's rule: invoices that used a rate must keep meaning the same thing); archive a rate and make another.
 */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import type { TaxRate } from '../lib/objects.ts';
import { listParams, mergeMetadata, p, type OpParams, type ParamsOf } from '../lib/params.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import type { Ctx } from 'seahaven';
import { copyJson } from '../lib/clone.ts';

const TAX_TYPES: readonly NonNullable<TaxRate['tax_type']>[] = [
  'amusement_tax',
  'communications_tax',
  'gst',
  'hst',
  'igst',
  'jct',
  'lease_tax',
  'pst',
  'qst',
  'retail_delivery_fee',
  'rst',
  'sales_tax',
  'service_tax',
  'vat',
  'admissions_tax',
  'attendance_tax',
  'digital_excise_tax',
  'entertainment_tax',
  'get_fund',
  'gross_receipts_tax',
  'hospitality_tax',
  'luxury_tax',
  'mass_transit_parking_tax',
  'nhil',
  'parking_tax',
  'resort_tax',
  'tourism_tax',
  'utility_users_tax',
];

/** The fields create and update share. */
const writable = {
  active: p.bool(),
  country: p.string(2),
  description: p.string(),
  display_name: p.string(50),
  jurisdiction: p.string(50),
  metadata: p.metadata(),
  state: p.string(2),
  tax_type: p.enum(...TAX_TYPES),
};

function mustTaxRate(ctx: Ctx, id: string): Stored<'tax_rates'> {
  const rate = get(ctx, 'tax_rates', id);
  if (rate === undefined) throw resourceMissing('tax_rate', id, 'id');
  return rate;
}

function apply(rate: Stored<'tax_rates'>, params: ParamsOf<typeof writable>): void {
  if (params.description !== undefined) rate.description = params.description;
  if (params.jurisdiction !== undefined) rate.jurisdiction = params.jurisdiction;
  if (params.tax_type !== undefined) rate.tax_type = params.tax_type;
  for (const k of ['country', 'state'] as const) {
    const given = params[k];
    if (given === undefined) continue;
    if (given !== null && !/^[A-Za-z]{2}$/.test(given))
      throw invalidRequest(
        `Invalid ${k}: ${given}; use a two-letter ${k === 'country' ? 'ISO 3166-1 country' : 'ISO 3166-2 subdivision'} code.`,
        k,
      );
    rate[k] = given === null ? null : String(given).toUpperCase();
  }
  if (params.display_name !== undefined && params.display_name !== null)
    rate.display_name = params.display_name;
  if (params.active !== undefined && params.active !== null) rate.active = params.active;
  if (params.metadata !== undefined)
    rate.metadata = mergeMetadata(rate.metadata ?? {}, params.metadata);
}

const createParams = {
  ...writable,
  display_name: p.string(50).req(),
  inclusive: p.bool().req(),
  percentage: p.num(0, 100).req(),
};
const listRatesParams = { ...listParams, active: p.bool(), inclusive: p.bool() };

export const taxRatesOps = [
  op({
    id: 'PostTaxRates',
    method: 'POST',
    path: '/v1/tax_rates',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const rate: Stored<'tax_rates'> = {
        id: newId(c.ctx, 'txr_'),
        object: 'tax_rate',
        active: true,
        country: null,
        created: nowSeconds(c.ctx),
        description: null,
        display_name: params.display_name,
        // A manual rate is applied as written; Stripe Tax's automatic rates are where the two differ.
        effective_percentage: params.percentage,
        flat_amount: null,
        inclusive: params.inclusive,
        jurisdiction: null,
        jurisdiction_level: null,
        livemode: false,
        metadata: {},
        percentage: params.percentage,
        rate_type: 'percentage',
        state: null,
        tax_type: null,
      };
      apply(rate, params);
      put(c.ctx, 'tax_rates', rate);
      emit(c, 'tax_rate.created', rate);
      return rate;
    },
  }),
  op({
    id: 'GetTaxRatesTaxRate',
    method: 'GET',
    path: '/v1/tax_rates/{tax_rate}',
    params: {},
    run: (c, _params: OpParams, path) => mustTaxRate(c.ctx, path.tax_rate),
  }),
  op({
    id: 'PostTaxRatesTaxRate',
    method: 'POST',
    path: '/v1/tax_rates/{tax_rate}',
    params: writable,
    run(c, params: OpParams<typeof writable>, path) {
      const before = mustTaxRate(c.ctx, path.tax_rate);
      const after = copyJson(before);
      apply(after, params);
      put(c.ctx, 'tax_rates', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'tax_rate.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetTaxRates',
    method: 'GET',
    path: '/v1/tax_rates',
    params: listRatesParams,
    run(c, params: OpParams<typeof listRatesParams>) {
      const where: [string, ...number[]][] = [];
      if (typeof params.active === 'boolean') where.push(['active = ?', params.active ? 1 : 0]);
      if (typeof params.inclusive === 'boolean')
        where.push(['inclusive = ?', params.inclusive ? 1 : 0]);
      return listPage(c.ctx, 'tax_rates', params, {
        url: '/v1/tax_rates',
        what: 'tax rate',
        where,
      });
    },
  }),
];
