/** The account this world is (`GET /v1/account`, `GET /v1/accounts/{account}`). */
import type { Ctx } from 'seahaven';
import { resourceMissing } from '../lib/errors.ts';
import type { Account } from '../lib/objects.ts';
import { op } from '../lib/op.ts';
import type { OpParams } from '../lib/params.ts';

export const ACCOUNT_ID = 'acct_1SeahavenWorld01';

/** The account object; created with the world (schema seeds no rows, so it is made on first read). */
export function accountOf(ctx: Ctx): Account {
  const row = ctx.db.one<{ data: string }>('SELECT data FROM account WHERE id = ?', ACCOUNT_ID);
  if (row) return JSON.parse(row.data) as Account;
  return defaultAccount();
}

export function defaultAccount(): Account {
  const address = {
    city: 'San Francisco',
    country: 'US',
    line1: '510 Townsend Street',
    line2: null,
    postal_code: '94103',
    state: 'CA',
  };
  return {
    id: ACCOUNT_ID,
    object: 'account',
    business_profile: {
      annual_revenue: null,
      estimated_worker_count: null,
      mcc: '5734',
      name: 'Seahaven Test Co',
      product_description: 'Software for teams',
      specified_commercial_transactions_act_url: null,
      support_address: address,
      support_email: 'support@example.com',
      support_phone: '+14155550100',
      support_url: 'https://example.com/support',
      url: 'https://example.com',
      minority_owned_business_designation: null,
    },
    business_type: 'company',
    capabilities: { card_payments: 'active', transfers: 'active' },
    charges_enabled: true,
    controller: { type: 'account' },
    country: 'US',
    created: 1735689600,
    default_currency: 'usd',
    details_submitted: true,
    email: 'owner@example.com',
    external_accounts: {
      object: 'list',
      data: [],
      has_more: false,
      url: `/v1/accounts/${ACCOUNT_ID}/external_accounts`,
    },
    future_requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    },
    metadata: {},
    payouts_enabled: true,
    requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    },
    settings: {
      bacs_debit_payments: { display_name: null, service_user_number: null },
      card_issuing: { tos_acceptance: { date: null, ip: null } },
      invoices: { default_account_tax_ids: null, hosted_payment_method_save: null },
      sepa_debit_payments: {},
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_payments: {
        decline_on: { avs_failure: false, cvc_failure: false },
        statement_descriptor_prefix: 'SEAHAVEN',
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      dashboard: { display_name: 'Seahaven Test Co', timezone: 'Etc/UTC' },
      payments: {
        statement_descriptor: 'SEAHAVEN TEST CO',
        statement_descriptor_kana: null,
        statement_descriptor_kanji: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      payouts: {
        debit_negative_balances: true,
        schedule: { delay_days: 2, interval: 'daily' },
        statement_descriptor: null,
      },
    },
    tos_acceptance: { date: 1735689600, ip: '127.0.0.1', user_agent: null },
    type: 'standard',
  };
}

export const accountOps = [
  op({
    id: 'GetAccount',
    method: 'GET',
    path: '/v1/account',
    params: {},
    run: (c) => accountOf(c.ctx),
  }),
  op({
    id: 'GetAccountsAccount',
    method: 'GET',
    path: '/v1/accounts/{account}',
    params: {},
    run(c, _params: OpParams, path) {
      if (path.account !== ACCOUNT_ID) throw resourceMissing('account', path.account, 'account');
      return accountOf(c.ctx);
    },
  }),
];
