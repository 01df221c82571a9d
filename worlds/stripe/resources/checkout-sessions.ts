/**
 * Checkout sessions: Stripe's hosted payment page, in three modes. `payment` takes one payment for its line items,
 * `subscription` starts a subscription on recurring prices, `setup` saves a card. A session is `open` until the
 * buyer completes it (`complete`) or it expires (`expired`: by `POST …/expire`, or when the world clock passes
 * `expires_at`, 24 hours after creation unless set; a lapsed session is expired at the next checkout call, with its
 * `checkout.session.expired` event).
 *
 * There is no browser, so no buyer: the world adds two test routes that do what the buyer would on the page.
 * `POST /v1/test_helpers/checkout/sessions/{session}/complete` (`payment_method`, a `pm_…` or a test token, default
 * `pm_card_visa`; optional `customer_details`) creates the customer when the session has none, then the payment
 * intent (a decline is the usual 402 and the session stays open), the subscription or the setup intent, and marks the
 * session complete with `checkout.session.completed`. A card that asks for 3D Secure is authenticated, as the buyer
 * would pass the challenge on the page. `POST /v1/test_helpers/payment_links/{payment_link}/complete` takes the same
 * parameters: it opens a checkout session from the link, as a visit to its URL does, and completes that.
 */
import { invalidRequest } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { put } from '../lib/store.ts';
import { lineItemsOf, mustPaymentLink, nestedPage, storedItems } from './payment-links.ts';
import { completeParams, createParams } from './checkout-session-params.ts';
import { completeSession, reply, sessionFromLink } from './checkout-session-complete.ts';
import {
  createSession,
  expire,
  expireDueSessions,
  lineItemsUrl,
  mustSession,
  shown,
} from './checkout-session-create.ts';
import { copyJson } from '../lib/clone.ts';

const updateParams = {
  metadata: p.metadata(),
  collected_information: p.any(),
  shipping_options: p.any(),
  line_items: p.any(),
};

const listSessionsParams = {
  ...listParams,
  status: p.enum('complete', 'expired', 'open'),
  customer: p.string(),
  customer_account: p.string(),
  customer_details: p.obj({ email: p.string().req() }),
  payment_intent: p.string(),
  payment_link: p.string(),
  subscription: p.string(),
};

export const checkoutSessionsOps = [
  op({
    id: 'PostCheckoutSessions',
    method: 'POST',
    path: '/v1/checkout/sessions',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      expireDueSessions(c);
      const items = params.line_items?.length ? lineItemsOf(c, params.line_items) : [];
      const session = createSession(c, { ...params, items });
      return shown(c.ctx, session, params.expand);
    },
  }),
  op({
    id: 'GetCheckoutSessionsSession',
    method: 'GET',
    path: '/v1/checkout/sessions/{session}',
    params: {},
    run(c, params: OpParams, path) {
      expireDueSessions(c);
      return shown(c.ctx, mustSession(c.ctx, path.session), params.expand);
    },
  }),
  op({
    id: 'PostCheckoutSessionsSession',
    method: 'POST',
    path: '/v1/checkout/sessions/{session}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      expireDueSessions(c);
      const before = mustSession(c.ctx, path.session);
      if (params.line_items !== undefined)
        throw invalidRequest(
          'line_items can only be updated on sessions with ui_mode=elements and adjustable line items.',
          'line_items',
        );
      const after = copyJson(before);
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      put(c.ctx, 'checkout_sessions', after);
      // Stripe has no `checkout.session.updated` event.
      return shown(c.ctx, after, params.expand);
    },
  }),
  op({
    id: 'GetCheckoutSessions',
    method: 'GET',
    path: '/v1/checkout/sessions',
    params: listSessionsParams,
    run(c, params: OpParams<typeof listSessionsParams>) {
      expireDueSessions(c);
      const where: [string, ...string[]][] = [];
      for (const k of [
        'status',
        'customer',
        'payment_intent',
        'payment_link',
        'subscription',
      ] as const) {
        if (params[k]) where.push([`${k} = ?`, params[k]]);
      }
      if (params.customer_details?.email)
        where.push([
          "json_extract(data, '$.customer_details.email') = ?",
          params.customer_details.email,
        ]);
      return listPage(c.ctx, 'checkout_sessions', params, {
        url: '/v1/checkout/sessions',
        what: 'checkout.session',
        where,
        map: (o) => shown(c.ctx, o),
      });
    },
  }),
  op({
    id: 'PostCheckoutSessionsSessionExpire',
    method: 'POST',
    path: '/v1/checkout/sessions/{session}/expire',
    params: {},
    run(c, params: OpParams, path) {
      expireDueSessions(c);
      const session = mustSession(c.ctx, path.session);
      if (session.status !== 'open')
        throw invalidRequest(
          `Only Checkout Sessions with a status in ["open"] can be expired. This session has a status of ${session.status}.`,
          'session',
        );
      return shown(c.ctx, expire(c, session), params.expand);
    },
  }),
  op({
    id: 'GetCheckoutSessionsSessionLineItems',
    method: 'GET',
    path: '/v1/checkout/sessions/{session}/line_items',
    params: listParams,
    run(c, params: OpParams<typeof listParams>, path) {
      const session = mustSession(c.ctx, path.session);
      return nestedPage(storedItems(c.ctx, session), params, lineItemsUrl(session.id), 'line item');
    },
  }),
  op({
    id: 'PostTestHelpersCheckoutSessionsSessionComplete',
    method: 'POST',
    path: '/v1/test_helpers/checkout/sessions/{session}/complete',
    params: completeParams,
    run(c, params: OpParams<typeof completeParams>, path) {
      expireDueSessions(c);
      const session = mustSession(c.ctx, path.session);
      return reply(c.ctx, completeSession(c, session, params), params.expand);
    },
  }),
  op({
    id: 'PostTestHelpersPaymentLinksPaymentLinkComplete',
    method: 'POST',
    path: '/v1/test_helpers/payment_links/{payment_link}/complete',
    params: completeParams,
    run(c, params: OpParams<typeof completeParams>, path) {
      expireDueSessions(c);
      const session = sessionFromLink(c, mustPaymentLink(c.ctx, path.payment_link));
      return reply(c.ctx, completeSession(c, session, params), params.expand);
    },
  }),
];
