-- Stripe World. Each resource table: id, seq (a global counter that orders objects created in the same second),
-- created (unix seconds), the object's JSON in data, and the columns lists and searches filter on (lib/store.ts keeps
-- them in step with data).

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  email TEXT,
  name TEXT,
  deleted INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX customers_order ON customers (created DESC, seq DESC);
CREATE INDEX customers_email ON customers (email);

CREATE TABLE customer_balance_transactions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT
) STRICT;
CREATE INDEX customer_balance_transactions_order ON customer_balance_transactions (created DESC, seq DESC);
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
  type TEXT
) STRICT;
CREATE INDEX products_order ON products (created DESC, seq DESC);

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
  usage_type TEXT
) STRICT;
CREATE INDEX prices_order ON prices (created DESC, seq DESC);
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

CREATE TABLE payment_methods (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  type TEXT
) STRICT;
CREATE INDEX payment_methods_order ON payment_methods (created DESC, seq DESC);
CREATE INDEX payment_methods_customer ON payment_methods (customer);

-- Payment methods set up for future use (a succeeded setup intent): cards that need 3D Secure "unless set up" stop
-- asking. Beside the object, not in it, so the payment method stays the object Stripe returns.
CREATE TABLE payment_method_setups (
  payment_method TEXT PRIMARY KEY,
  created INTEGER NOT NULL
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
CREATE INDEX setup_intents_customer ON setup_intents (customer);

CREATE TABLE payment_intents (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  status TEXT
) STRICT;
CREATE INDEX payment_intents_order ON payment_intents (created DESC, seq DESC);
CREATE INDEX payment_intents_customer ON payment_intents (customer);

CREATE TABLE charges (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  customer TEXT,
  payment_intent TEXT,
  status TEXT
) STRICT;
CREATE INDEX charges_order ON charges (created DESC, seq DESC);
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
CREATE INDEX refunds_charge ON refunds (charge);
CREATE INDEX refunds_payment_intent ON refunds (payment_intent);

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
CREATE INDEX balance_transactions_source ON balance_transactions (source);
CREATE INDEX balance_transactions_type ON balance_transactions (type);

CREATE TABLE payouts (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  status TEXT,
  arrival_date INTEGER
) STRICT;
CREATE INDEX payouts_order ON payouts (created DESC, seq DESC);

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  data TEXT NOT NULL,
  type TEXT,
  object_id TEXT
) STRICT;
CREATE INDEX events_order ON events (created DESC, seq DESC);
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
