/** Every operation of Stripe World's REST face, by resource. */
import type { StripeOp } from './lib/op.ts';
import { accountOps } from './resources/account.ts';
import { customerOps } from './resources/customers.ts';
import { customerBalanceOps } from './resources/customer-balance.ts';
import { productsOps } from './resources/products.ts';
import { pricesOps } from './resources/prices.ts';
import { couponsOps } from './resources/coupons.ts';
import { promotionCodesOps } from './resources/promotion-codes.ts';
import { taxRatesOps } from './resources/tax-rates.ts';
import { taxIdsOps } from './resources/tax-ids.ts';
import { paymentMethodsOps } from './resources/payment-methods.ts';
import { tokensOps } from './resources/tokens.ts';
import { sourcesOps } from './resources/sources.ts';
import { setupIntentsOps } from './resources/setup-intents.ts';
import { paymentIntentsOps } from './resources/payment-intents.ts';
import { chargesOps } from './resources/charges.ts';
import { refundsOps } from './resources/refunds.ts';
import { disputesOps } from './resources/disputes.ts';
import { balanceOps } from './resources/balance.ts';
import { payoutsOps } from './resources/payouts.ts';
import { eventsOps } from './resources/events.ts';
import { invoicesOps } from './billing/invoices.ts';
import { invoiceActionsOps } from './billing/invoice-actions.ts';
import { invoiceLinesOps } from './billing/invoice-lines.ts';
import { invoiceItemsOps } from './billing/invoice-items.ts';
import { subscriptionsOps } from './billing/subscriptions.ts';
import { subscriptionItemsOps } from './billing/subscription-items.ts';
import { creditNotesOps } from './billing/credit-notes.ts';
import { paymentLinksOps } from './resources/payment-links.ts';
import { checkoutSessionsOps } from './resources/checkout-sessions.ts';
import { webhookEndpointsOps } from './resources/webhook-endpoints.ts';
import { testClocksOps } from './billing/test-clocks.ts';

export const operations: StripeOp[] = [
  ...accountOps,
  ...customerOps,
  ...customerBalanceOps,
  ...productsOps,
  ...pricesOps,
  ...couponsOps,
  ...promotionCodesOps,
  ...taxRatesOps,
  ...taxIdsOps,
  ...paymentMethodsOps,
  ...tokensOps,
  ...sourcesOps,
  ...setupIntentsOps,
  ...paymentIntentsOps,
  ...chargesOps,
  ...refundsOps,
  ...disputesOps,
  ...balanceOps,
  ...payoutsOps,
  ...eventsOps,
  ...invoicesOps,
  ...invoiceActionsOps,
  ...invoiceLinesOps,
  ...invoiceItemsOps,
  ...subscriptionsOps,
  ...subscriptionItemsOps,
  ...creditNotesOps,
  ...paymentLinksOps,
  ...checkoutSessionsOps,
  ...webhookEndpointsOps,
  ...testClocksOps,
];
