/**
 * The subscription's state machine, in one place: the statuses a subscription moves between
 * (`SUBSCRIPTION_TRANSITIONS`, as data) and the move itself (`moveSubscription`), which refuses a transition the table
 * does not list. Staying in a status is always allowed (a renewal of an `active` subscription that stays `active`).
 */

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'paused'
  | 'canceled';

/**
 * Where each status may go. An `incomplete` subscription becomes `active` when its first invoice is paid, or expires
 * after 23 hours. A trial ends `active` (or `paused`, with no payment method to bill). A failed payment makes an active
 * subscription `past_due` until a retry succeeds. Pausing and resuming move between `paused` and `active` (or
 * `past_due`, when the resumption's invoice is declined). Any live subscription can be canceled; `canceled` and
 * `incomplete_expired` are final.
 */
export const SUBSCRIPTION_TRANSITIONS: Readonly<
  Record<SubscriptionStatus, readonly SubscriptionStatus[]>
> = {
  incomplete: ['active', 'incomplete_expired', 'canceled'],
  trialing: ['active', 'past_due', 'paused', 'canceled'],
  active: ['trialing', 'past_due', 'paused', 'canceled'],
  past_due: ['active', 'trialing', 'unpaid', 'paused', 'canceled'],
  unpaid: ['active', 'canceled'],
  paused: ['active', 'past_due', 'canceled'],
  canceled: [],
  incomplete_expired: [],
};

/** Whether a subscription in `from` may move to `to` (staying put included). */
export function canMoveSubscription(from: string, to: SubscriptionStatus): boolean {
  return from === to || (SUBSCRIPTION_TRANSITIONS[from as SubscriptionStatus] ?? []).includes(to);
}

/** Set a subscription's status; a move the table does not allow is a bug in the caller. */
export function moveSubscription(
  sub: { id: string; status: string },
  to: SubscriptionStatus,
): void {
  if (!canMoveSubscription(sub.status, to))
    throw new Error(
      `subscription ${sub.id}: ${sub.status} → ${to} is not a transition of SUBSCRIPTION_TRANSITIONS`,
    );
  sub.status = to;
}
