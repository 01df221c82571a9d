/**
 * Disputes. The dispute test cards open one as soon as their charge succeeds (Stripe takes seconds; the world does it
 * at once, so an episode sees it without waiting). A chargeback withdraws the amount and a 15.00 fee from the balance;
 * an inquiry (`warning_needs_response`) moves no money until it escalates. Evidence is decided by Stripe's magic
 * strings in `evidence[uncategorized_text]` (or any text field): `winning_evidence` wins, `losing_evidence` loses,
 * `escalate_inquiry_evidence` turns an inquiry into a chargeback. Submitted evidence goes `under_review` and, with a
 * magic string, is decided in the same call (the review step shows in the events); without one it stays under review,
 * as in Stripe's test mode.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing, unexpectedState } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { addBalanceTransaction, DAY } from '../lib/money.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import { copyJson } from '../lib/clone.ts';

type Dispute = Stored<'disputes'>;

/** Stripe's dispute fee in the US, in cents. */
export const DISPUTE_FEE = 1500;

/** Days the merchant has to respond, as Stripe's test disputes give. */
const RESPONSE_DAYS = 7;

const EVIDENCE_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
] as const;

const NETWORK_REASON: Record<string, string> = {
  fraudulent: '10.4',
  product_not_received: '13.1',
  general: '10.4',
};

/** A stored dispute, or Stripe's 404. */
export function mustDispute(ctx: Ctx, id: string, param = 'dispute'): Dispute {
  const d = get(ctx, 'disputes', id);
  if (d === undefined) throw resourceMissing('dispute', id, param);
  return d;
}

function isInquiry(d: Dispute): boolean {
  return d.status.startsWith('warning_');
}

/** Withdraw the disputed amount and the fee: one balance transaction, as Stripe writes it. */
function withdraw(c: OpContext, d: Dispute): void {
  const txn = addBalanceTransaction(c.ctx, {
    amount: -d.amount,
    currency: d.currency,
    type: 'adjustment',
    source: d.id,
    description: `Chargeback withdrawal for ${d.charge}`,
    fee: DISPUTE_FEE,
    feeDescription: 'Dispute fee',
    availableNow: true,
    reportingCategory: 'dispute',
  });
  d.balance_transactions = [...d.balance_transactions, txn];
  d.is_charge_refundable = false;
}

/** Give back the amount and the fee of a won chargeback. */
function reinstate(c: OpContext, d: Dispute): void {
  const txn = addBalanceTransaction(c.ctx, {
    amount: d.amount,
    currency: d.currency,
    type: 'adjustment',
    source: d.id,
    description: `Chargeback reversal for ${d.charge}`,
    fee: -DISPUTE_FEE,
    feeDescription: 'Dispute fee refund',
    availableNow: true,
    reportingCategory: 'dispute_reversal',
  });
  d.balance_transactions = [...d.balance_transactions, txn];
}

/**
 * Open the dispute a dispute test card asks for on a captured charge: stores it, marks the charge `disputed`, withdraws
 * the funds for a chargeback, and writes `charge.dispute.created` (and `charge.dispute.funds_withdrawn`). Returns the
 * updated charge.
 */
export function openDisputeFor(
  c: OpContext,
  charge: Stored<'charges'>,
  kind: 'fraudulent' | 'product_not_received' | 'inquiry',
): Stored<'charges'> {
  const ctx = c.ctx;
  const inquiry = kind === 'inquiry';
  const reason = inquiry ? 'general' : kind;
  const created = nowSeconds(ctx);
  const card: { brand?: string | null; network?: string | null } =
    charge.payment_method_details?.card ?? {};
  const d: Stored<'disputes'> = {
    id: newId(ctx, 'du_'),
    object: 'dispute',
    amount: charge.amount_captured || charge.amount,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: {
      // Every evidence field, none given yet.
      ...(Object.fromEntries(EVIDENCE_FIELDS.map((f) => [f, null])) as Omit<
        Stored<'disputes'>['evidence'],
        'enhanced_evidence'
      >),
      enhanced_evidence: {},
    },
    evidence_details: {
      due_by: created + RESPONSE_DAYS * DAY,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: inquiry,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent ?? null,
    payment_method_details: {
      card: {
        brand: card.brand ?? 'visa',
        case_type: inquiry ? 'inquiry' : 'chargeback',
        network_reason_code: NETWORK_REASON[reason],
        network: card.network ?? card.brand ?? 'visa',
      },
      type: 'card',
    },
    reason,
    status: inquiry ? 'warning_needs_response' : 'needs_response',
  };
  if (!inquiry) withdraw(c, d);
  put(ctx, 'disputes', d);
  const before = copyJson(charge);
  const after = { ...charge, disputed: true };
  put(ctx, 'charges', after);
  emit(c, 'charge.dispute.created', d);
  if (!inquiry) emit(c, 'charge.dispute.funds_withdrawn', d);
  emit(c, 'charge.updated', after, changedAttributes(before, after));
  return after;
}

/** The magic string in submitted evidence that decides a test dispute, if any. */
function verdictOf(evidence: Dispute['evidence']): 'won' | 'lost' | 'escalate' | undefined {
  const texts = Object.values(evidence).filter((v): v is string => typeof v === 'string');
  if (texts.some((t) => t.includes('escalate_inquiry_evidence'))) return 'escalate';
  if (texts.some((t) => t.includes('losing_evidence'))) return 'lost';
  if (texts.some((t) => t.includes('winning_evidence'))) return 'won';
  return undefined;
}

/** Close a dispute with `status`, giving the money back when a chargeback is won. */
function decide(c: OpContext, d: Dispute, outcome: 'won' | 'lost'): void {
  const before = copyJson(d);
  if (isInquiry(d)) {
    d.status = 'warning_closed';
  } else {
    d.status = outcome;
    if (outcome === 'won') reinstate(c, d);
  }
  put(c.ctx, 'disputes', d);
  emit(c, 'charge.dispute.closed', d, changedAttributes(before, d));
  if (d.status === 'won') emit(c, 'charge.dispute.funds_reinstated', d);
}

const evidenceParam = p.obj({
  ...(Object.fromEntries(EVIDENCE_FIELDS.map((f) => [f, p.string(150_000)])) as Record<
    (typeof EVIDENCE_FIELDS)[number],
    ReturnType<typeof p.string>
  >),
  enhanced_evidence: p.any(),
});

const updateParams = {
  evidence: evidenceParam,
  metadata: p.metadata(),
  submit: p.bool(),
  intended_submission_method: p.string(),
};
const listDisputesParams = { ...listParams, charge: p.string(), payment_intent: p.string() };

export const disputesOps = [
  op({
    id: 'GetDisputesDispute',
    method: 'GET',
    path: '/v1/disputes/{dispute}',
    params: {},
    run: (c, _params: OpParams, path) => mustDispute(c.ctx, path.dispute),
  }),
  op({
    id: 'PostDisputesDispute',
    method: 'POST',
    path: '/v1/disputes/{dispute}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const start = mustDispute(c.ctx, path.dispute);
      const open = start.status === 'needs_response' || start.status === 'warning_needs_response';
      if (params.evidence && !open) {
        throw unexpectedState(
          'dispute_already_closed',
          `This dispute is ${start.status}; evidence can only be added while it needs a response.`,
          'evidence',
        );
      }
      const d = copyJson(start);
      if (params.metadata !== undefined)
        d.metadata = mergeMetadata(d.metadata ?? {}, params.metadata);
      if (params.evidence) {
        const given = params.evidence;
        for (const f of EVIDENCE_FIELDS) {
          const value = given[f];
          if (value !== undefined) d.evidence[f] = value;
        }
        // Taken as given (p.any).
        if (given.enhanced_evidence !== undefined && given.enhanced_evidence !== null)
          d.evidence.enhanced_evidence =
            given.enhanced_evidence as Dispute['evidence']['enhanced_evidence'];
        d.evidence_details.has_evidence = EVIDENCE_FIELDS.some((f) => d.evidence[f] !== null);
      }
      // Stripe submits by default; `submit=false` only stages the evidence.
      const submit =
        open &&
        params.submit !== false &&
        (params.evidence !== undefined || params.submit === true);
      if (!submit) {
        put(c.ctx, 'disputes', d);
        const changed = changedAttributes(start, d);
        if (Object.keys(changed).length > 0) emit(c, 'charge.dispute.updated', d, changed);
        return d;
      }
      if (!d.evidence_details.has_evidence)
        throw invalidRequest(
          'You must provide evidence before submitting it to the bank.',
          'evidence',
        );
      const verdict = verdictOf(d.evidence);
      if (verdict === 'escalate') {
        if (!isInquiry(d))
          throw invalidRequest(
            'Only an inquiry can be escalated to a chargeback.',
            'evidence[uncategorized_text]',
          );
        // The issuer turns the inquiry into a chargeback: the funds go now, and the merchant responds afresh.
        d.status = 'needs_response';
        // A dispute the world opens is a card's (openDisputeFor).
        if (d.payment_method_details?.card) d.payment_method_details.card.case_type = 'chargeback';
        d.evidence_details.submission_count += 1;
        d.evidence_details.submission_method = 'manual';
        withdraw(c, d);
        put(c.ctx, 'disputes', d);
        emit(c, 'charge.dispute.updated', d, changedAttributes(start, d));
        emit(c, 'charge.dispute.funds_withdrawn', d);
        return d;
      }
      d.status = isInquiry(d) ? 'warning_under_review' : 'under_review';
      d.evidence_details.submission_count += 1;
      d.evidence_details.submission_method = 'manual';
      put(c.ctx, 'disputes', d);
      emit(c, 'charge.dispute.updated', d, changedAttributes(start, d));
      if (verdict) decide(c, d, verdict);
      return d;
    },
  }),
  op({
    id: 'GetDisputes',
    method: 'GET',
    path: '/v1/disputes',
    params: listDisputesParams,
    run(c, params: OpParams<typeof listDisputesParams>) {
      const where: [string, ...string[]][] = [];
      if (params.charge) where.push(['charge = ?', params.charge]);
      if (params.payment_intent) where.push(['payment_intent = ?', params.payment_intent]);
      return listPage(c.ctx, 'disputes', params, { url: '/v1/disputes', what: 'dispute', where });
    },
  }),
  op({
    id: 'PostDisputesDisputeClose',
    method: 'POST',
    path: '/v1/disputes/{dispute}/close',
    params: {},
    run(c, _params: OpParams, path) {
      const d = mustDispute(c.ctx, path.dispute);
      if (
        ![
          'needs_response',
          'warning_needs_response',
          'under_review',
          'warning_under_review',
        ].includes(d.status)
      ) {
        throw unexpectedState(
          'dispute_already_closed',
          `This dispute is already closed (${d.status}).`,
        );
      }
      // Closing accepts the dispute: a chargeback is lost, an inquiry simply ends.
      decide(c, d, 'lost');
      return d;
    },
  }),
];
