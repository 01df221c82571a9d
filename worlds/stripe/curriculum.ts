/**
 * Stripe World's curriculum, `stripe-basics`: its tasks in three stages by measured difficulty.
 *
 * The measure is the kit's (`measureDifficulty`, printed by `seahaven curriculum measure stripe`): each task's gold
 * solution is replayed on a fresh `small_startup`, and its score is
 * `calls + 0.5 · rowsChanged + tablesTouched + distinctTools + log2(1 + fixtureBytes / 256 KiB)`: every call an agent
 * must get right, every row it must change (events and balance transactions included), every table and tool it must
 * know. All tasks share the fixture, so its term shifts every score alike. The stages cut the sorted scores where they
 * jump, and test/curriculum.test.ts holds the order to the measure: every task of a stage scores below every task of
 * the next, and a task's declared difficulty is its stage's number. Adding two calls for each operation only reachable
 * through `stripe_api_read`/`stripe_api_write` (finding it and reading its parameters) gives the same stages.
 */
import { defineCurriculum } from 'seahaven/curricula';

export const stripeBasics = defineCurriculum({
  name: 'stripe-basics',
  description:
    "Support-queue requests that name what to create or change first; then a customer, payment or invoice to find and one detail to get right; then multi-step billing work on the account's stories (a retired price, a failing card, a customer leaving).",
  stages: [
    {
      name: 'easy',
      tasks: [
        'create_customer_with_metadata',
        'update_customer_email',
        'coupon_with_promotion_code',
        'payment_link_for_price',
        'product_with_monthly_price',
      ],
    },
    {
      name: 'medium',
      tasks: [
        'respond_to_dispute',
        'apply_coupon_next_invoice',
        'partial_refund_with_reason',
        'refund_duplicate_charge',
        'void_churned_invoices',
      ],
    },
    {
      name: 'hard',
      tasks: [
        'invoice_finalize_and_send',
        'migrate_retired_price',
        'churn_at_period_end',
        'fix_failing_card',
      ],
    },
  ],
  promote: { successRate: 0.8, window: 20 },
  review: 0.2,
  seed: 0,
});
