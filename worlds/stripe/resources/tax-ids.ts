/**
 * Tax IDs: a customer's (`/v1/customers/{customer}/tax_ids`) and the account's own or a customer's through
 * `/v1/tax_ids` with `owner`. A value is checked against its type's format on create (tax-id-formats.ts: 400
 * `tax_id_invalid`); types Stripe verifies with a registry (EU VAT, GB VAT, AU ABN) start `pending` and are answered a
 * minute later on the world clock (test mode: `000000000` verifies, `111111111` does not, anything else stays
 * pending), with `customer.tax_id.updated`; other types are `unavailable`. Tax IDs are deleted for good. A customer's
 * `tax_ids` (expandable) lists them, and invoices copy them into `customer_tax_ids`.
 */
import type { Ctx } from 'seahaven';
import type { InvoiceCustomerTaxId } from '../lib/objects.ts';
import { emit } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { INCLUDERS } from '../lib/expand.ts';
import { listPage, type ListEnvelope } from '../lib/list.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, p, type OpParams, type ParamValue } from '../lib/params.ts';
import { get, newId, nowSeconds, put, remove, rows, type Stored } from '../lib/store.ts';
import {
  TAX_ID_TYPES,
  type TaxIdType,
  countryOfTaxId,
  isVerifiedType,
  testVerification,
  validTaxIdValue,
} from './tax-id-formats.ts';
import { copyJson } from '../lib/clone.ts';

/** How long the registry takes to answer a verification, in seconds of the world clock. */
export const VERIFICATION_DELAY = 60;

const taxIdParams = { type: p.enum(...TAX_ID_TYPES).req(), value: p.string().req() };

/** `tax_id_data` of `POST /v1/customers`: tax IDs to add to the new customer. */
export const taxIdData = p.arr(p.obj(taxIdParams));

/** Check every entry of `tax_id_data` before anything is written (a bad one refuses the whole create). */
export function checkTaxIdData(data: ParamValue<typeof taxIdData> | null | undefined): void {
  (data ?? []).forEach((d, i) => checkTaxId(d.type, d.value, `tax_id_data[${i}][value]`));
}

/** Add the (checked) `tax_id_data` to a customer just created, each with `customer.tax_id.created`. */
export function addTaxIdData(
  c: OpContext,
  customer: string,
  data: ParamValue<typeof taxIdData> | null | undefined,
): void {
  for (const d of data ?? []) addCustomerTaxId(c, customer, d.type, d.value);
}

/** Refuse a value that does not fit its type, naming the parameter that carried it. */
export function checkTaxId(type: string, value: string, param = 'value'): void {
  if (!validTaxIdValue(type, value))
    throw invalidRequest(`Invalid value for ${type}.`, param, 'tax_id_invalid');
}

/** A new tax ID object (not stored): the customer's when `customer` is given, else the account's own (`self`). */
function taxIdObject(
  ctx: Ctx,
  type: TaxIdType,
  value: string,
  customer: string | null,
): Stored<'tax_ids'> {
  return {
    id: newId(ctx, 'txi_'),
    object: 'tax_id',
    country: countryOfTaxId(type, value),
    created: nowSeconds(ctx),
    customer,
    customer_account: null,
    livemode: false,
    owner: customer
      ? { customer, customer_account: null, type: 'customer' }
      : { customer_account: null, type: 'self' },
    type,
    value,
    // The account's own tax IDs are not verified; a customer's are, where a registry exists.
    verification: customer
      ? {
          status: isVerifiedType(type) ? 'pending' : 'unavailable',
          verified_address: null,
          verified_name: null,
        }
      : null,
  };
}

/** Add a tax ID to a live customer (checked first), with `customer.tax_id.created`. */
export function addCustomerTaxId(
  c: OpContext,
  customer: string,
  type: TaxIdType,
  value: string,
): Stored<'tax_ids'> {
  checkTaxId(type, value);
  const taxId = taxIdObject(c.ctx, type, value, customer);
  put(c.ctx, 'tax_ids', taxId);
  emit(c, 'customer.tax_id.created', taxId);
  return taxId;
}

function mustTaxId(ctx: Ctx, id: string, customer?: string): Stored<'tax_ids'> {
  const taxId = get(ctx, 'tax_ids', id);
  if (taxId === undefined || (customer !== undefined && taxId.customer !== customer))
    throw resourceMissing('tax_id', id, 'id');
  return taxId;
}

function deleteTaxId(
  c: OpContext,
  taxId: Stored<'tax_ids'>,
): { id: string; object: 'tax_id'; deleted: true } {
  remove(c.ctx, 'tax_ids', taxId.id);
  if (taxId.customer) emit(c, 'customer.tax_id.deleted', taxId);
  return { id: taxId.id, object: 'tax_id', deleted: true };
}

/** A customer's tax IDs, newest first, as the list its `/tax_ids` answers. */
function customerTaxIds(
  ctx: Ctx,
  customer: string,
  params: OpParams<typeof listParams>,
): ListEnvelope<Stored<'tax_ids'>> {
  return listPage(ctx, 'tax_ids', params, {
    url: `/v1/customers/${customer}/tax_ids`,
    what: 'tax_id',
    where: [['customer = ?', customer]],
  });
}

/** The customer's tax IDs as `{ type, value }`, oldest first: what an invoice shows in `customer_tax_ids`. */
export function customerTaxIdsOf(ctx: Ctx, customer: string): InvoiceCustomerTaxId[] {
  return rows(ctx, 'tax_ids', 'customer = ?', [customer], true, 100).map((t) => ({
    type: t.type,
    value: t.value,
  }));
}

// A customer's `tax_ids` appear when `expand[]` names them: its first 10, newest first.
INCLUDERS['customer.tax_ids'] = (ctx, customer) => customerTaxIds(ctx, customer.id, { limit: 10 });

/**
 * The registry's answers due by `end` (unix seconds): each pending tax ID whose test number has an answer is verified
 * or not `VERIFICATION_DELAY` after its creation, with `customer.tax_id.updated` stamped then.
 */
export function verifyTaxIds(
  contextAt: (ctx: Ctx, at: number) => OpContext,
  ctx: Ctx,
  end: number,
): void {
  const due = rows(
    ctx,
    'tax_ids',
    "verification_status = 'pending' AND created <= ?",
    [end - VERIFICATION_DELAY],
    true,
  );
  for (const taxId of due) {
    const status = testVerification(taxId.value);
    // The query picked tax ids whose verification is pending, so each has one.
    if (status === 'pending' || taxId.verification === null) continue;
    const c = contextAt(ctx, taxId.created + VERIFICATION_DELAY);
    const previous = { verification: copyJson(taxId.verification) };
    taxId.verification = { ...taxId.verification, status };
    put(ctx, 'tax_ids', taxId);
    emit(c, 'customer.tax_id.updated', taxId, previous);
  }
}

const ownerParam = p.obj({
  type: p.enum('account', 'application', 'customer', 'self').req(),
  account: p.string(),
  customer: p.string(),
  customer_account: p.string(),
});

/** The customer an `owner` names, or null for the account itself; Connect owners are refused. */
function ownerCustomer(
  ctx: Ctx,
  owner: ParamValue<typeof ownerParam> | null | undefined,
): string | null {
  if (!owner || owner.type === 'self') return null;
  if (owner.type === 'customer') {
    if (!owner.customer)
      throw invalidRequest(
        'owner[customer] is required when owner[type] is customer.',
        'owner[customer]',
      );
    return liveCustomer(ctx, owner.customer, 'owner[customer]').id;
  }
  throw invalidRequest(
    `Tax IDs owned by an ${owner.type} need Connect, which this account does not use; use owner[type]=self or owner[type]=customer.`,
    'owner[type]',
  );
}

const createParams = { ...taxIdParams, owner: ownerParam };
const listTaxIdsParams = { ...listParams, owner: ownerParam };

export const taxIdsOps = [
  op({
    id: 'PostCustomersCustomerTaxIds',
    method: 'POST',
    path: '/v1/customers/{customer}/tax_ids',
    params: taxIdParams,
    run(c, params: OpParams<typeof taxIdParams>, path) {
      const customer = liveCustomer(c.ctx, path.customer, 'customer');
      return addCustomerTaxId(c, customer.id, params.type, params.value);
    },
  }),
  op({
    id: 'GetCustomersCustomerTaxIds',
    method: 'GET',
    path: '/v1/customers/{customer}/tax_ids',
    params: listParams,
    run(c, params: OpParams<typeof listParams>, path) {
      const customer = liveCustomer(c.ctx, path.customer, 'customer');
      return customerTaxIds(c.ctx, customer.id, params);
    },
  }),
  op({
    id: 'GetCustomersCustomerTaxIdsId',
    method: 'GET',
    path: '/v1/customers/{customer}/tax_ids/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      const customer = liveCustomer(c.ctx, path.customer, 'customer');
      return mustTaxId(c.ctx, path.id, customer.id);
    },
  }),
  op({
    id: 'DeleteCustomersCustomerTaxIdsId',
    method: 'DELETE',
    path: '/v1/customers/{customer}/tax_ids/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      const customer = liveCustomer(c.ctx, path.customer, 'customer');
      return deleteTaxId(c, mustTaxId(c.ctx, path.id, customer.id));
    },
  }),
  op({
    id: 'PostTaxIds',
    method: 'POST',
    path: '/v1/tax_ids',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const customer = ownerCustomer(c.ctx, params.owner);
      if (customer) return addCustomerTaxId(c, customer, params.type, params.value);
      checkTaxId(params.type, params.value);
      return put(c.ctx, 'tax_ids', taxIdObject(c.ctx, params.type, params.value, null));
    },
  }),
  op({
    id: 'GetTaxIds',
    method: 'GET',
    path: '/v1/tax_ids',
    params: listTaxIdsParams,
    run(c, params: OpParams<typeof listTaxIdsParams>) {
      const customer = ownerCustomer(c.ctx, params.owner);
      return listPage(c.ctx, 'tax_ids', params, {
        url: '/v1/tax_ids',
        what: 'tax_id',
        where: customer ? [['customer = ?', customer]] : [["owner_type = 'self'"]],
      });
    },
  }),
  op({
    id: 'GetTaxIdsId',
    method: 'GET',
    path: '/v1/tax_ids/{id}',
    params: {},
    run: (c, _params: OpParams, path) => mustTaxId(c.ctx, path.id),
  }),
  op({
    id: 'DeleteTaxIdsId',
    method: 'DELETE',
    path: '/v1/tax_ids/{id}',
    params: {},
    run: (c, _params: OpParams, path) => deleteTaxId(c, mustTaxId(c.ctx, path.id)),
  }),
];
