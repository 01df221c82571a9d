-- Stripe World. Each resource table: id, seq (a global counter that orders objects created in the same second),
-- created (unix seconds), the object's JSON in data, and the columns lists and searches filter on (lib/store.ts keeps
-- them in step with data). A searchable table also holds one search_<field> column per searchable field, as search
-- compares it (lib/search-fields.ts); its order index carries them, so a search that walks it reads only the rows it
-- shows, and the fields usually looked up lead indexes of their own (lib/search-sql.ts picks which a page reads).

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  email TEXT,
  name TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  -- The test clock the customer lives on (billing/test-clocks.ts); null: the world clock.
  test_clock TEXT,
  search_email TEXT,
  search_metadata TEXT,
  search_name TEXT,
  search_phone TEXT
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX customers_order ON customers (created DESC, seq DESC, deleted, search_email, search_metadata, search_name, search_phone);
-- A search whose clause on one of these fields has few candidates reads them from the field's index (lib/search-sql.ts).
CREATE INDEX customers_search_email ON customers (search_email, created DESC, seq DESC);
CREATE INDEX customers_search_name ON customers (search_name, created DESC, seq DESC);
CREATE INDEX customers_search_phone ON customers (search_phone, created DESC, seq DESC);
CREATE UNIQUE INDEX customers_seq ON customers (seq);
CREATE INDEX customers_email ON customers (email);
CREATE INDEX customers_test_clock ON customers (test_clock) WHERE test_clock IS NOT NULL;

CREATE TABLE customer_balance_transactions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT
) STRICT;
CREATE INDEX customer_balance_transactions_order ON customer_balance_transactions (created DESC, seq DESC);
CREATE UNIQUE INDEX customer_balance_transactions_seq ON customer_balance_transactions (seq);
CREATE INDEX customer_balance_transactions_customer ON customer_balance_transactions (customer);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  deleted INTEGER NOT NULL DEFAULT 0,
  shippable INTEGER,
  url TEXT,
  type TEXT,
  search_active INTEGER,
  search_description TEXT,
  search_metadata TEXT,
  search_name TEXT,
  search_shippable INTEGER,
  search_url TEXT
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX products_order ON products (created DESC, seq DESC, deleted, search_active, search_description, search_metadata, search_name, search_shippable, search_url);
CREATE UNIQUE INDEX products_seq ON products (seq);

CREATE TABLE prices (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  product TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  type TEXT,
  lookup_key TEXT,
  currency TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  interval TEXT,
  usage_type TEXT,
  search_active INTEGER,
  search_currency TEXT,
  search_lookup_key TEXT,
  search_metadata TEXT,
  search_product TEXT,
  search_type TEXT
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX prices_order ON prices (created DESC, seq DESC, deleted, search_active, search_currency, search_lookup_key, search_metadata, search_product, search_type);
CREATE UNIQUE INDEX prices_seq ON prices (seq);
CREATE INDEX prices_product ON prices (product);
CREATE INDEX prices_lookup_key ON prices (lookup_key);

CREATE TABLE coupons (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX coupons_order ON coupons (created DESC, seq DESC);
CREATE UNIQUE INDEX coupons_seq ON coupons (seq);

CREATE TABLE promotion_codes (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  code TEXT,
  coupon TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  customer TEXT
) STRICT;
CREATE INDEX promotion_codes_order ON promotion_codes (created DESC, seq DESC);
CREATE UNIQUE INDEX promotion_codes_seq ON promotion_codes (seq);
CREATE INDEX promotion_codes_code ON promotion_codes (code);
CREATE INDEX promotion_codes_coupon ON promotion_codes (coupon);

CREATE TABLE tax_rates (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  inclusive INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX tax_rates_order ON tax_rates (created DESC, seq DESC);
CREATE UNIQUE INDEX tax_rates_seq ON tax_rates (seq);

CREATE TABLE tax_ids (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  owner_type TEXT NOT NULL,
  verification_status TEXT
) STRICT;
CREATE INDEX tax_ids_order ON tax_ids (created DESC, seq DESC);
CREATE UNIQUE INDEX tax_ids_seq ON tax_ids (seq);
CREATE INDEX tax_ids_customer ON tax_ids (customer, created DESC, seq DESC);
CREATE INDEX tax_ids_pending ON tax_ids (verification_status);

CREATE TABLE payment_methods (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  type TEXT
) STRICT;
CREATE INDEX payment_methods_order ON payment_methods (created DESC, seq DESC);
CREATE UNIQUE INDEX payment_methods_seq ON payment_methods (seq);
CREATE INDEX payment_methods_customer ON payment_methods (customer);

-- Payment methods set up for future use (a succeeded setup intent): cards that need 3D Secure "unless set up" stop
-- asking. Beside the object, not in it, so the payment method stays the object Stripe returns.
CREATE TABLE payment_method_setups (
  payment_method TEXT PRIMARY KEY,
  created INTEGER NOT NULL
) STRICT;

-- Card tokens (`tok_…`, POST /v1/tokens): single use, so `used` turns true when one becomes a customer's source.
CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  created INTEGER NOT NULL,
  data TEXT NOT NULL
) STRICT;

CREATE TABLE setup_intents (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  payment_method TEXT,
  status TEXT
) STRICT;
CREATE INDEX setup_intents_order ON setup_intents (created DESC, seq DESC);
CREATE UNIQUE INDEX setup_intents_seq ON setup_intents (seq);
CREATE INDEX setup_intents_customer ON setup_intents (customer);

CREATE TABLE payment_intents (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  status TEXT,
  search_amount REAL,
  search_currency TEXT,
  search_customer TEXT,
  search_metadata TEXT,
  search_status TEXT
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX payment_intents_order ON payment_intents (created DESC, seq DESC, search_amount, search_currency, search_customer, search_metadata, search_status);
-- A search whose clause on one of these fields has few candidates reads them from the field's index (lib/search-sql.ts).
CREATE INDEX payment_intents_search_amount ON payment_intents (search_amount, created DESC, seq DESC);
CREATE INDEX payment_intents_search_customer ON payment_intents (search_customer, created DESC, seq DESC);
CREATE INDEX payment_intents_search_status ON payment_intents (search_status, created DESC, seq DESC);
CREATE UNIQUE INDEX payment_intents_seq ON payment_intents (seq);
CREATE INDEX payment_intents_customer ON payment_intents (customer);

CREATE TABLE charges (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  payment_intent TEXT,
  status TEXT,
  search_amount REAL,
  search_address_postal_code TEXT,
  search_currency TEXT,
  search_customer TEXT,
  search_disputed INTEGER,
  search_metadata TEXT,
  search_payment_intent TEXT,
  search_card_last4 TEXT,
  search_card_brand TEXT,
  search_card_exp_month REAL,
  search_card_exp_year REAL,
  search_card_fingerprint TEXT,
  search_refunded INTEGER,
  search_status TEXT
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX charges_order ON charges (created DESC, seq DESC, search_amount, search_address_postal_code, search_currency, search_customer, search_disputed, search_metadata, search_payment_intent, search_card_last4, search_card_brand, search_card_exp_month, search_card_exp_year, search_card_fingerprint, search_refunded, search_status);
-- A search whose clause on one of these fields has few candidates reads them from the field's index (lib/search-sql.ts).
CREATE INDEX charges_search_amount ON charges (search_amount, created DESC, seq DESC);
CREATE INDEX charges_search_customer ON charges (search_customer, created DESC, seq DESC);
CREATE INDEX charges_search_disputed ON charges (search_disputed, created DESC, seq DESC);
CREATE INDEX charges_search_payment_intent ON charges (search_payment_intent, created DESC, seq DESC);
CREATE INDEX charges_search_refunded ON charges (search_refunded, created DESC, seq DESC);
CREATE INDEX charges_search_status ON charges (search_status, created DESC, seq DESC);
CREATE UNIQUE INDEX charges_seq ON charges (seq);
CREATE INDEX charges_customer ON charges (customer);
CREATE INDEX charges_payment_intent ON charges (payment_intent);

CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  charge TEXT,
  payment_intent TEXT,
  status TEXT,
  -- When a test card's refund takes its second step (pending → succeeded, succeeded → failed); null once final.
  -- Not part of the object, so put() leaves it alone.
  settles_at INTEGER
) STRICT;
CREATE INDEX refunds_order ON refunds (created DESC, seq DESC);
CREATE UNIQUE INDEX refunds_seq ON refunds (seq);
CREATE INDEX refunds_charge ON refunds (charge);
CREATE INDEX refunds_payment_intent ON refunds (payment_intent);
-- Refunds still to take their second step, in order.
CREATE INDEX refunds_settling ON refunds (seq) WHERE settles_at IS NOT NULL;

CREATE TABLE disputes (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  charge TEXT,
  payment_intent TEXT,
  status TEXT
) STRICT;
CREATE INDEX disputes_order ON disputes (created DESC, seq DESC);
CREATE UNIQUE INDEX disputes_seq ON disputes (seq);
CREATE INDEX disputes_charge ON disputes (charge);

CREATE TABLE balance_transactions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  type TEXT,
  source TEXT,
  status TEXT,
  available_on INTEGER,
  payout TEXT
) STRICT;
CREATE INDEX balance_transactions_order ON balance_transactions (created DESC, seq DESC);
CREATE UNIQUE INDEX balance_transactions_seq ON balance_transactions (seq);
CREATE INDEX balance_transactions_source ON balance_transactions (source);
CREATE INDEX balance_transactions_type ON balance_transactions (type);
-- The balance is summed per currency from every row on each balance and payout read; this index answers the sum
-- without reading the rows' JSON.
CREATE INDEX balance_transactions_sums ON balance_transactions (json_extract(data, '$.currency'), available_on, json_extract(data, '$.net'));
-- Settling funds that became available visits only the pending rows, oldest first.
CREATE INDEX balance_transactions_pending ON balance_transactions (created, seq) WHERE status = 'pending';

CREATE TABLE payouts (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  status TEXT,
  arrival_date INTEGER
) STRICT;
CREATE INDEX payouts_order ON payouts (created DESC, seq DESC);
CREATE UNIQUE INDEX payouts_seq ON payouts (seq);

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  type TEXT,
  object_id TEXT
) STRICT;
CREATE INDEX events_order ON events (created DESC, seq DESC);
CREATE UNIQUE INDEX events_seq ON events (seq);
CREATE INDEX events_type ON events (type);
CREATE INDEX events_object_id ON events (object_id);

-- The account this world is: one row (GET /v1/account).
CREATE TABLE account (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL
) STRICT;

-- Responses stored under the Idempotency-Key of the POST that produced them, replayed for the same key and parameters.
CREATE TABLE idempotency_keys (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  request_id TEXT NOT NULL,
  created INTEGER NOT NULL
) STRICT;

-- Billing (invoices, subscriptions, credit notes, payment links, checkout).
CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  status TEXT,
  subscription TEXT,
  number TEXT,
  collection_method TEXT,
  due_date INTEGER,
  search_currency TEXT,
  search_customer TEXT,
  search_last_finalization_error_code TEXT,
  search_last_finalization_error_type TEXT,
  search_metadata TEXT,
  search_number TEXT,
  search_receipt_number TEXT,
  search_status TEXT,
  search_subscription TEXT,
  search_total REAL
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX invoices_order ON invoices (created DESC, seq DESC, search_currency, search_customer, search_last_finalization_error_code, search_last_finalization_error_type, search_metadata, search_number, search_receipt_number, search_status, search_subscription, search_total);
-- A search whose clause on one of these fields has few candidates reads them from the field's index (lib/search-sql.ts).
CREATE INDEX invoices_search_customer ON invoices (search_customer, created DESC, seq DESC);
CREATE INDEX invoices_search_number ON invoices (search_number, created DESC, seq DESC);
CREATE INDEX invoices_search_status ON invoices (search_status, created DESC, seq DESC);
CREATE INDEX invoices_search_subscription ON invoices (search_subscription, created DESC, seq DESC);
CREATE UNIQUE INDEX invoices_seq ON invoices (seq);
CREATE INDEX invoices_customer ON invoices (customer);
CREATE INDEX invoices_subscription ON invoices (subscription);
-- Billing collects drafts and open invoices by status, oldest first, on every tick.
CREATE INDEX invoices_status ON invoices (status, created, seq);

CREATE TABLE invoice_line_items (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  invoice TEXT
) STRICT;
CREATE INDEX invoice_line_items_order ON invoice_line_items (created DESC, seq DESC);
CREATE UNIQUE INDEX invoice_line_items_seq ON invoice_line_items (seq);
CREATE INDEX invoice_line_items_invoice ON invoice_line_items (invoice);

CREATE TABLE invoiceitems (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  invoice TEXT
) STRICT;
CREATE INDEX invoiceitems_order ON invoiceitems (created DESC, seq DESC);
CREATE UNIQUE INDEX invoiceitems_seq ON invoiceitems (seq);
CREATE INDEX invoiceitems_customer ON invoiceitems (customer);
CREATE INDEX invoiceitems_invoice ON invoiceitems (invoice);

CREATE TABLE invoice_payments (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  invoice TEXT,
  status TEXT,
  payment_intent TEXT
) STRICT;
CREATE INDEX invoice_payments_order ON invoice_payments (created DESC, seq DESC);
CREATE UNIQUE INDEX invoice_payments_seq ON invoice_payments (seq);
CREATE INDEX invoice_payments_invoice ON invoice_payments (invoice);

CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  status TEXT,
  -- When the clock next owes the subscription something (lib/billing.ts keeps it; null: nothing until someone acts).
  billing_due INTEGER,
  -- The customer's test clock, whose advance bills it; null: the world clock's advance does.
  test_clock TEXT,
  search_canceled_at REAL,
  search_metadata TEXT,
  search_status TEXT
) STRICT;
-- Search walks this index in its order and tests clauses on its entries (lib/search-fields.ts).
CREATE INDEX subscriptions_order ON subscriptions (created DESC, seq DESC, search_canceled_at, search_metadata, search_status);
-- A search whose clause on one of these fields has few candidates reads them from the field's index (lib/search-sql.ts).
CREATE INDEX subscriptions_search_status ON subscriptions (search_status, created DESC, seq DESC);
CREATE INDEX subscriptions_billing_due ON subscriptions (billing_due, seq) WHERE billing_due IS NOT NULL;
CREATE UNIQUE INDEX subscriptions_seq ON subscriptions (seq);
CREATE INDEX subscriptions_customer ON subscriptions (customer);
CREATE INDEX subscriptions_status ON subscriptions (status);
CREATE INDEX subscriptions_test_clock ON subscriptions (test_clock, billing_due) WHERE test_clock IS NOT NULL;

CREATE TABLE subscription_items (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  subscription TEXT
) STRICT;
CREATE INDEX subscription_items_order ON subscription_items (created DESC, seq DESC);
CREATE UNIQUE INDEX subscription_items_seq ON subscription_items (seq);
CREATE INDEX subscription_items_subscription ON subscription_items (subscription);

CREATE TABLE credit_notes (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  invoice TEXT,
  customer TEXT,
  status TEXT
) STRICT;
CREATE INDEX credit_notes_order ON credit_notes (created DESC, seq DESC);
CREATE UNIQUE INDEX credit_notes_seq ON credit_notes (seq);
CREATE INDEX credit_notes_invoice ON credit_notes (invoice);

CREATE TABLE payment_links (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE INDEX payment_links_order ON payment_links (created DESC, seq DESC);
CREATE UNIQUE INDEX payment_links_seq ON payment_links (seq);

CREATE TABLE checkout_sessions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  status TEXT,
  customer TEXT,
  payment_intent TEXT,
  subscription TEXT,
  payment_link TEXT
) STRICT;
CREATE INDEX checkout_sessions_order ON checkout_sessions (created DESC, seq DESC);
CREATE UNIQUE INDEX checkout_sessions_seq ON checkout_sessions (seq);
CREATE INDEX checkout_sessions_payment_link ON checkout_sessions (payment_link);

-- Webhooks (lib/webhooks.ts). An endpoint's signing secret sits beside its object, not in it: Stripe shows it only
-- in the create reply.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  status TEXT,
  secret TEXT
) STRICT;
CREATE INDEX webhook_endpoints_order ON webhook_endpoints (created DESC, seq DESC);
CREATE UNIQUE INDEX webhook_endpoints_seq ON webhook_endpoints (seq);

-- One row per event and endpoint it is sent to: its attempts so far (in data), where it goes (target: host, an
-- in-process handler of the composed world; network, an HTTP URL a forwarder posts to) and when the next attempt is
-- due (next_attempt, unix seconds; null once delivered or given up).
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  event TEXT,
  webhook_endpoint TEXT,
  status TEXT,
  target TEXT,
  next_attempt INTEGER
) STRICT;
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (created DESC, seq DESC);
CREATE UNIQUE INDEX webhook_deliveries_seq ON webhook_deliveries (seq);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (target, next_attempt, seq);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event);

-- Test clocks (billing/test-clocks.ts): a frozen time that customers and their subscriptions live on.
CREATE TABLE test_clocks (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX test_clocks_order ON test_clocks (created DESC, seq DESC);
CREATE UNIQUE INDEX test_clocks_seq ON test_clocks (seq);
