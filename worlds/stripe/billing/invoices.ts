/**
 * Invoices: create (a draft), retrieve, update, delete (drafts only), list and search; the state machine's actions
 * (finalize, pay, send, void, mark uncollectible, `attach_payment`, the invoice payments view) are invoice-actions.ts
 * and `create_preview` is invoice-preview.ts. The model (numbers, totals, the customer balance, collection, auto-advance) is invoicing.ts; this module
 * reads parameters and answers as Stripe does. Once finalized, an invoice keeps its amounts and collection method;
 * what may still change on it is listed in `AFTER_DRAFT`.
 */
import { applyTaxes, taxRatesFor } from './invoice-taxes.ts';
import type { SqlParam } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { applyLines, createDraftInvoice, linesOf, mustInvoice } from './invoicing.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { listPage } from '../lib/list.ts';
import { DAY } from '../lib/money.ts';
import { op, type OpContext } from '../lib/op.ts';
import type { InvoicePaymentSettings } from '../lib/objects.ts';
import {
  listParams,
  mergeMetadata,
  p,
  searchParams,
  type OpParams,
  type ParamValue,
} from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, put, remove, rows, type Stored } from '../lib/store.ts';
import { copyJson } from '../lib/clone.ts';

const customField = p.obj({ name: p.string(40).req(), value: p.string(140).req() });
const rendering = p.obj({
  amount_tax_display: p.enum('exclude_tax', 'include_inclusive_tax'),
  pdf: p.obj({ page_size: p.enum('a4', 'auto', 'letter') }),
  template: p.string(),
  template_version: p.int(),
});
const paymentSettings = p.obj({
  default_mandate: p.string(),
  payment_method_options: p.any(),
  payment_method_types: p.arr(p.string()),
});
export const discountsParam = p.arr(
  p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() }),
);

/** What create and update share. */
const writable = {
  account_tax_ids: p.arr(p.string()),
  application_fee_amount: p.int(0),
  auto_advance: p.bool(),
  automatic_tax: p.obj({ enabled: p.bool().req(), liability: p.any() }),
  automatically_finalizes_at: p.int(),
  collection_method: p.enum('charge_automatically', 'send_invoice'),
  custom_fields: p.arr(customField),
  days_until_due: p.int(0),
  default_payment_method: p.string(),
  default_source: p.string(),
  default_tax_rates: p.arr(p.string()),
  description: p.string(1500),
  discounts: discountsParam,
  due_date: p.int(),
  effective_at: p.int(),
  footer: p.string(5000),
  issuer: p.obj({ account: p.string(), type: p.enum('account', 'self').req() }),
  metadata: p.metadata(),
  number: p.string(26),
  on_behalf_of: p.string(),
  payment_settings: paymentSettings,
  rendering,
  shipping_cost: p.any(),
  shipping_details: p.any(),
  statement_descriptor: p.string(22),
  transfer_data: p.any(),
};

type WritableParams = OpParams<typeof writable>;

const createParams = {
  ...writable,
  currency: p.string(3),
  customer: p.string(),
  customer_account: p.string(),
  from_invoice: p.obj({ action: p.enum('revision').req(), invoice: p.string().req() }),
  pending_invoice_items_behavior: p.enum('exclude', 'include'),
  subscription: p.string(),
};

const listInvoicesParams = {
  ...listParams,
  collection_method: p.enum('charge_automatically', 'send_invoice'),
  customer: p.string(),
  customer_account: p.string(),
  due_date: p.range(),
  status: p.enum('draft', 'open', 'paid', 'uncollectible', 'void'),
  subscription: p.string(),
};

/** Parameters this account cannot honour (no Connect, no tax, no shipping rates): accepted only when empty. */
const UNSUPPORTED = [
  'account_tax_ids',
  'application_fee_amount',
  'discounts',
  'on_behalf_of',
  'shipping_cost',
  'transfer_data',
] as const;

/** What `refuseUnsupported` reads of a request. */
type MaybeUnsupported = { [K in (typeof UNSUPPORTED)[number]]?: unknown } & {
  automatic_tax?: { enabled?: boolean } | null;
  issuer?: { type?: string } | null;
};

export function refuseUnsupported(params: MaybeUnsupported): void {
  for (const k of UNSUPPORTED) {
    const v = params[k];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    throw invalidRequest(
      `${k} is not supported by this account (test mode, without Connect, tax or shipping rates).`,
      k,
    );
  }
  if (params.automatic_tax?.enabled)
    throw invalidRequest(
      'Automatic tax is not enabled for this account.',
      'automatic_tax[enabled]',
    );
  if (params.issuer && params.issuer.type !== 'self')
    throw invalidRequest('Only issuer[type]=self is supported by this account.', 'issuer[type]');
}

/** What may change once an invoice is no longer a draft; `metadata` may change whatever the status. */
const AFTER_DRAFT = new Set([
  'auto_advance',
  'custom_fields',
  'default_payment_method',
  'description',
  'footer',
  'metadata',
  'rendering',
  'statement_descriptor',
  'expand',
]);

function checkPaymentMethod(c: OpContext, customer: string, id: string | null | undefined): void {
  if (!id) return;
  const pm = get(c.ctx, 'payment_methods', id);
  if (!pm || pm.customer !== customer)
    throw invalidRequest(
      `No such PaymentMethod: '${id}'; it must be attached to customer ${customer} first.`,
      'default_payment_method',
      'resource_missing',
    );
}

/** Apply update parameters to a stored invoice. */
function applyUpdate(c: OpContext, invoice: Stored<'invoices'>, params: WritableParams): void {
  if (invoice.status !== 'draft') {
    const frozen = Object.keys(params).filter((k) => !AFTER_DRAFT.has(k));
    const allowed =
      invoice.status === 'open' || invoice.status === 'uncollectible'
        ? frozen
        : Object.keys(params).filter((k) => k !== 'metadata' && k !== 'expand');
    if (allowed.length > 0) {
      throw invalidRequest(
        invoice.status === 'open' || invoice.status === 'uncollectible'
          ? `Finalized invoices can't be updated in this way: ${allowed[0]} can only be changed while the invoice is a draft.`
          : `Only metadata can be updated on a ${invoice.status} invoice.`,
        allowed[0],
        'invoice_not_editable',
      );
    }
  }
  refuseUnsupported(params);
  if (params.description !== undefined) invoice.description = params.description;
  if (params.footer !== undefined) invoice.footer = params.footer;
  if (params.statement_descriptor !== undefined)
    invoice.statement_descriptor = params.statement_descriptor;
  if (params.number !== undefined) invoice.number = params.number;
  if (params.effective_at !== undefined) invoice.effective_at = params.effective_at;
  if (params.auto_advance !== undefined && params.auto_advance !== null) {
    invoice.auto_advance = params.auto_advance;
    if (invoice.status === 'draft')
      invoice.automatically_finalizes_at = params.auto_advance
        ? (params.automatically_finalizes_at ?? invoice.created + 3600)
        : null;
  }
  if (params.automatically_finalizes_at != null) {
    if (!invoice.auto_advance)
      throw invalidRequest(
        'automatically_finalizes_at can only be set when auto_advance is true.',
        'automatically_finalizes_at',
      );
    invoice.automatically_finalizes_at = params.automatically_finalizes_at;
  }
  if (params.default_tax_rates !== undefined)
    invoice.default_tax_rates = taxRatesFor(c.ctx, params.default_tax_rates, 'default_tax_rates');
  if (params.custom_fields !== undefined)
    invoice.custom_fields = params.custom_fields?.length ? params.custom_fields : null;
  if (params.default_payment_method !== undefined) {
    checkPaymentMethod(c, invoice.customer, params.default_payment_method);
    invoice.default_payment_method = params.default_payment_method;
  }
  if (params.metadata !== undefined)
    invoice.metadata = mergeMetadata(invoice.metadata ?? {}, params.metadata);
  if (params.rendering) invoice.rendering = renderingOf(params.rendering, invoice.rendering);
  if (params.payment_settings)
    invoice.payment_settings = paymentSettingsOf(params.payment_settings);
  if (params.collection_method !== undefined && params.collection_method !== null)
    invoice.collection_method = params.collection_method;
  if (
    params.due_date !== undefined ||
    params.days_until_due !== undefined ||
    params.collection_method !== undefined
  ) {
    if (invoice.collection_method === 'charge_automatically') {
      if (params.due_date != null || params.days_until_due != null) {
        throw invalidRequest(
          'days_until_due and due_date can only be set when collection_method is send_invoice.',
          params.due_date != null ? 'due_date' : 'days_until_due',
        );
      }
      invoice.due_date = null;
    } else if (params.due_date != null) {
      invoice.due_date = params.due_date;
    } else if (params.days_until_due != null) {
      invoice.due_date = invoice.created + params.days_until_due * DAY;
    } else if (invoice.due_date === null) {
      throw invalidRequest(
        'Invoices with collection_method send_invoice need days_until_due or due_date.',
        'days_until_due',
      );
    }
  }
}

function renderingOf(
  given: ParamValue<typeof rendering>,
  current: Stored<'invoices'>['rendering'],
): NonNullable<Stored<'invoices'>['rendering']> {
  return {
    amount_tax_display: given.amount_tax_display ?? current?.amount_tax_display ?? null,
    pdf: { page_size: given.pdf?.page_size ?? current?.pdf?.page_size ?? 'auto' },
    template: given.template ?? current?.template ?? null,
    template_version: given.template_version ?? current?.template_version ?? null,
  };
}

function paymentSettingsOf(given: ParamValue<typeof paymentSettings>): InvoicePaymentSettings {
  return {
    default_mandate: given.default_mandate ?? null,
    // Taken as given: params.ts checks no more than that it is JSON.
    payment_method_options: (given.payment_method_options ??
      null) as InvoicePaymentSettings['payment_method_options'],
    // Kept as given: params.ts checks that each is a string, not that Stripe knows it.
    payment_method_types: (given.payment_method_types ??
      null) as InvoicePaymentSettings['payment_method_types'],
  };
}

/** Announce an invoice change as `invoice.updated`, when something changed. */
export function announceUpdate(
  c: OpContext,
  before: Stored<'invoices'>,
  after: Stored<'invoices'>,
): void {
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length > 0) emit(c, 'invoice.updated', after, changed);
}

export const invoicesOps = [
  op({
    id: 'PostInvoices',
    method: 'POST',
    path: '/v1/invoices',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      if (params.from_invoice)
        throw invalidRequest(
          'Invoice revisions are not supported by this account.',
          'from_invoice',
        );
      if (!params.customer)
        throw invalidRequest('Missing required param: customer.', 'customer', 'parameter_missing');
      refuseUnsupported(params);
      const customer = liveCustomer(c.ctx, params.customer);
      if (params.subscription) {
        const sub = get(c.ctx, 'subscriptions', params.subscription);
        if (!sub) throw resourceMissing('subscription', params.subscription, 'subscription');
        if (sub.customer !== customer.id)
          throw invalidRequest(
            `The subscription ${sub.id} belongs to another customer.`,
            'subscription',
          );
      }
      checkPaymentMethod(c, customer.id, params.default_payment_method);
      if (params.automatically_finalizes_at != null && params.auto_advance === false) {
        throw invalidRequest(
          'automatically_finalizes_at can only be set when auto_advance is true.',
          'automatically_finalizes_at',
        );
      }
      // Since API version 2022-08-01 pending items stay out unless asked for.
      const invoice = createDraftInvoice(c, {
        customer: customer.id,
        subscription: params.subscription,
        collection_method: params.collection_method,
        days_until_due: params.days_until_due,
        due_date: params.due_date,
        description: params.description,
        metadata: params.metadata,
        auto_advance:
          params.auto_advance ?? (params.automatically_finalizes_at != null ? true : false),
        currency: params.currency,
        pending_invoice_items: params.pending_invoice_items_behavior === 'include',
        default_payment_method: params.default_payment_method,
        footer: params.footer,
        custom_fields: params.custom_fields?.length ? params.custom_fields : null,
        statement_descriptor: params.statement_descriptor,
        number: params.number,
        billing_reason: 'manual',
        subscription_metadata: params.subscription
          ? (get(c.ctx, 'subscriptions', params.subscription)?.metadata ?? {})
          : null,
        automatically_finalizes_at: params.automatically_finalizes_at,
        effective_at: params.effective_at,
        default_tax_rates: taxRatesFor(c.ctx, params.default_tax_rates, 'default_tax_rates'),
        rendering: params.rendering ? renderingOf(params.rendering, null) : null,
        payment_settings: params.payment_settings
          ? paymentSettingsOf(params.payment_settings)
          : null,
      });
      return invoice;
    },
  }),
  op({
    id: 'GetInvoicesInvoice',
    method: 'GET',
    path: '/v1/invoices/{invoice}',
    params: {},
    run: (c, _params: OpParams, path) => mustInvoice(c.ctx, path.invoice),
    readsClock: false,
  }),
  op({
    id: 'PostInvoicesInvoice',
    method: 'POST',
    path: '/v1/invoices/{invoice}',
    params: writable,
    run(c, params: WritableParams, path) {
      const before = mustInvoice(c.ctx, path.invoice);
      const after = copyJson(before);
      applyUpdate(c, after, params);
      // New default tax rates re-tax the lines without their own.
      if (params.default_tax_rates !== undefined)
        applyLines(after, applyTaxes(c.ctx, after, linesOf(c.ctx, after.id)));
      put(c.ctx, 'invoices', after);
      announceUpdate(c, before, after);
      return after;
    },
  }),
  op({
    id: 'DeleteInvoicesInvoice',
    method: 'DELETE',
    path: '/v1/invoices/{invoice}',
    params: {},
    run(c, _params: OpParams, path) {
      const ctx = c.ctx;
      const invoice = mustInvoice(ctx, path.invoice);
      if (invoice.status !== 'draft')
        throw invalidRequest(
          'You can only delete draft invoices.',
          undefined,
          'invoice_not_editable',
        );
      if (invoice.parent?.subscription_details)
        throw invalidRequest(
          "You can't delete invoices created by subscriptions.",
          undefined,
          'invoice_not_editable',
        );
      // Its invoice items go back to pending, to be billed on a later invoice (or deleted on their own).
      for (const item of rows(ctx, 'invoiceitems', 'invoice = ?', [invoice.id]))
        put(ctx, 'invoiceitems', { ...item, invoice: null });
      for (const line of linesOf(ctx, invoice.id)) remove(ctx, 'invoice_line_items', line.id);
      remove(ctx, 'invoices', invoice.id);
      emit(c, 'invoice.deleted', invoice);
      return { id: invoice.id, object: 'invoice', deleted: true };
    },
  }),
  op({
    id: 'GetInvoices',
    method: 'GET',
    path: '/v1/invoices',
    params: listInvoicesParams,
    run(c, params: OpParams<typeof listInvoicesParams>) {
      const where: [string, ...SqlParam[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      if (params.status) where.push(['status = ?', params.status]);
      if (params.subscription) where.push(['subscription = ?', params.subscription]);
      if (params.collection_method) where.push(['collection_method = ?', params.collection_method]);
      const ops: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
      for (const [k, v] of Object.entries(
        (params.due_date ?? {}) as Record<string, number | null>,
      )) {
        if (v !== null && v !== undefined) where.push([`due_date ${ops[k]} ?`, v]);
      }
      return listPage(c.ctx, 'invoices', params, { url: '/v1/invoices', what: 'invoice', where });
    },
  }),
  op({
    id: 'GetInvoicesSearch',
    method: 'GET',
    path: '/v1/invoices/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'invoices', params, '/v1/invoices/search'),
  }),
];
