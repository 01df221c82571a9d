/**
 * The objects Stripe World stores, as TypeScript interfaces: generated from the type declarations of the stripe
 * package (23.1.0) by test/objects-build.ts; do not edit by hand. References are stored as ids, so an
 * expandable field is its id type. `Tables` says which object each resource table holds.
 */

/** A list envelope (`object: "list"`) holding some of a collection. */
export interface ApiList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** A search result envelope. */
export interface ApiSearchResult<T> {
  object: 'search_result';
  data: T[];
  has_more: boolean;
  next_page: string | null;
  url: string;
  total_count?: number;
}

export interface Customer {
  id: string;
  object: 'customer';
  address?: null | Address;
  balance: number;
  business_name?: string;
  cash_balance?: null | CashBalance;
  created: number;
  currency?: null | string;
  customer_account?: null | string;
  default_source: null | string;
  delinquent?: null | boolean;
  description: null | string;
  discount?: null | Discount;
  email: null | string;
  individual_name?: string;
  invoice_credit_balance?: Record<string, number>;
  invoice_prefix?: null | string;
  invoice_settings: CustomerInvoiceSettings;
  livemode: boolean;
  metadata: Metadata;
  name?: null | string;
  next_invoice_sequence?: number;
  phone?: null | string;
  preferred_locales?: null | string[];
  shipping: null | CustomerShipping;
  sources?: ApiList<BankAccount | Card | Account | Source>;
  subscriptions?: ApiList<Subscription>;
  tax?: CustomerTax;
  tax_exempt?: 'exempt' | 'none' | 'reverse' | null;
  tax_ids?: ApiList<TaxId>;
  test_clock?: null | string;
}

export interface CustomerBalanceTransaction {
  id: string;
  object: 'customer_balance_transaction';
  amount: number;
  checkout_session: null | string;
  created: number;
  credit_note: null | string;
  currency: string;
  customer: string;
  customer_account: null | string;
  description: null | string;
  ending_balance: number;
  invoice: null | string;
  livemode: boolean;
  metadata: null | Metadata;
  type:
    | 'adjustment'
    | 'applied_to_invoice'
    | 'checkout_session_subscription_payment'
    | 'checkout_session_subscription_payment_canceled'
    | 'credit_note'
    | 'initial'
    | 'invoice_overpaid'
    | 'invoice_too_large'
    | 'invoice_too_small'
    | 'migration'
    | 'unapplied_from_invoice'
    | 'unspent_receiver_credit';
}

export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  default_price?: null | string;
  description: null | string;
  images: string[];
  livemode: boolean;
  marketing_features: ProductMarketingFeature[];
  metadata: Metadata;
  name: string;
  package_dimensions: null | ProductPackageDimensions;
  shippable: null | boolean;
  statement_descriptor?: null | string;
  tax_code?: null | string;
  tax_details: null | ProductTaxDetails;
  type: 'good' | 'service';
  unit_label?: null | string;
  updated: number;
  url: null | string;
}

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit' | 'tiered';
  created: number;
  currency: string;
  currency_options?: Record<string, PriceCurrencyOptions>;
  custom_unit_amount: null | PriceCustomUnitAmount;
  livemode: boolean;
  lookup_key: null | string;
  metadata: Metadata;
  nickname: null | string;
  product: string;
  recurring: null | PriceRecurring;
  tax_behavior: 'exclusive' | 'inclusive' | 'unspecified' | null;
  tiers?: PriceTier[];
  tiers_mode: 'graduated' | 'volume' | null;
  transform_quantity: null | PriceTransformQuantity;
  type: 'one_time' | 'recurring';
  unit_amount: null | number;
  unit_amount_decimal: null | string;
}

export interface Coupon {
  id: string;
  object: 'coupon';
  amount_off: null | number;
  applies_to?: CouponAppliesTo;
  created: number;
  currency: null | string;
  currency_options?: Record<string, CouponCurrencyOptions>;
  duration: 'forever' | 'once' | 'repeating';
  duration_in_months: null | number;
  livemode: boolean;
  max_redemptions: null | number;
  metadata: null | Metadata;
  name: null | string;
  percent_off: null | number;
  redeem_by: null | number;
  times_redeemed: number;
  valid: boolean;
}

export interface PromotionCode {
  id: string;
  object: 'promotion_code';
  active: boolean;
  code: string;
  created: number;
  customer: null | string;
  customer_account: null | string;
  expires_at: null | number;
  livemode: boolean;
  max_redemptions: null | number;
  metadata: null | Metadata;
  promotion: PromotionCodePromotion;
  restrictions: PromotionCodeRestrictions;
  times_redeemed: number;
}

export interface TaxRate {
  id: string;
  object: 'tax_rate';
  active: boolean;
  country: null | string;
  created: number;
  description: null | string;
  display_name: string;
  effective_percentage: null | number;
  flat_amount: null | TaxRateFlatAmount;
  inclusive: boolean;
  jurisdiction: null | string;
  jurisdiction_level: 'city' | 'country' | 'county' | 'district' | 'multiple' | 'state' | null;
  livemode: boolean;
  metadata: null | Metadata;
  percentage: number;
  rate_type: 'flat_amount' | 'percentage' | null;
  state: null | string;
  tax_type:
    | 'admissions_tax'
    | 'amusement_tax'
    | 'attendance_tax'
    | 'communications_tax'
    | 'digital_excise_tax'
    | 'entertainment_tax'
    | 'get_fund'
    | 'gross_receipts_tax'
    | 'gst'
    | 'hospitality_tax'
    | 'hst'
    | 'igst'
    | 'jct'
    | 'lease_tax'
    | 'luxury_tax'
    | 'mass_transit_parking_tax'
    | 'nhil'
    | 'parking_tax'
    | 'pst'
    | 'qst'
    | 'resort_tax'
    | 'retail_delivery_fee'
    | 'rst'
    | 'sales_tax'
    | 'service_tax'
    | 'tourism_tax'
    | 'utility_users_tax'
    | 'vat'
    | null;
}

export interface TaxId {
  id: string;
  object: 'tax_id';
  country: null | string;
  created: number;
  customer: null | string;
  customer_account: null | string;
  livemode: boolean;
  owner: null | TaxIdOwner;
  type:
    | 'ad_nrt'
    | 'ae_trn'
    | 'al_tin'
    | 'am_tin'
    | 'ao_tin'
    | 'ar_cuit'
    | 'au_abn'
    | 'au_acn'
    | 'au_arn'
    | 'au_wpn'
    | 'aw_tin'
    | 'az_tin'
    | 'ba_tin'
    | 'bb_tin'
    | 'bd_bin'
    | 'bf_ifu'
    | 'bg_uic'
    | 'bh_vat'
    | 'bj_ifu'
    | 'bo_tin'
    | 'br_cnpj'
    | 'br_cpf'
    | 'bs_tin'
    | 'bw_vat'
    | 'by_tin'
    | 'ca_bn'
    | 'ca_gst_hst'
    | 'ca_pst_bc'
    | 'ca_pst_mb'
    | 'ca_pst_sk'
    | 'ca_qst'
    | 'cd_nif'
    | 'ch_uid'
    | 'ch_vat'
    | 'ci_vat'
    | 'cl_tin'
    | 'cm_niu'
    | 'cn_tin'
    | 'co_nit'
    | 'cr_tin'
    | 'cv_nif'
    | 'cz_dic'
    | 'de_stn'
    | 'do_rcn'
    | 'ec_ruc'
    | 'eg_tin'
    | 'es_cif'
    | 'et_tin'
    | 'eu_oss_vat'
    | 'eu_vat'
    | 'fo_vat'
    | 'fr_siren'
    | 'fr_siret'
    | 'fr_spi'
    | 'gb_vat'
    | 'ge_vat'
    | 'gh_tin'
    | 'gi_tin'
    | 'gn_nif'
    | 'hk_br'
    | 'hr_oib'
    | 'hu_tin'
    | 'ic_nif'
    | 'id_npwp'
    | 'il_vat'
    | 'in_gst'
    | 'is_kt'
    | 'is_vat'
    | 'it_cf'
    | 'jp_cn'
    | 'jp_rn'
    | 'jp_trn'
    | 'ke_pin'
    | 'kg_tin'
    | 'kh_tin'
    | 'kr_brn'
    | 'kz_bin'
    | 'la_tin'
    | 'li_uid'
    | 'li_vat'
    | 'lk_vat'
    | 'ma_vat'
    | 'md_cf'
    | 'md_vat'
    | 'me_pib'
    | 'mk_vat'
    | 'mr_nif'
    | 'mu_vat'
    | 'mx_rfc'
    | 'my_frp'
    | 'my_itn'
    | 'my_sst'
    | 'mz_nuit'
    | 'ng_tin'
    | 'no_vat'
    | 'no_voec'
    | 'np_pan'
    | 'nz_bn'
    | 'nz_gst'
    | 'om_vat'
    | 'pe_ruc'
    | 'ph_tin'
    | 'pl_nip'
    | 'pt_nif'
    | 'py_ruc'
    | 'ro_tin'
    | 'rs_pib'
    | 'ru_inn'
    | 'ru_kpp'
    | 'sa_vat'
    | 'sg_gst'
    | 'sg_uen'
    | 'si_tin'
    | 'sm_coe'
    | 'sn_ninea'
    | 'sr_fin'
    | 'sv_nit'
    | 'th_vat'
    | 'tj_tin'
    | 'tr_tin'
    | 'tt_bir'
    | 'tt_vat'
    | 'tw_vat'
    | 'tz_vat'
    | 'ua_vat'
    | 'ug_tin'
    | 'unknown'
    | 'us_ein'
    | 'uy_ruc'
    | 'uz_tin'
    | 'uz_vat'
    | 've_rif'
    | 'vn_tin'
    | 'za_vat'
    | 'zm_tin'
    | 'zw_tin';
  value: string;
  verification: null | TaxIdVerification;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  acss_debit?: PaymentMethodAcssDebit;
  affirm?: PaymentMethodAffirm;
  afterpay_clearpay?: PaymentMethodAfterpayClearpay;
  alipay?: PaymentMethodAlipay;
  allow_redisplay?: 'always' | 'limited' | 'unspecified';
  alma?: PaymentMethodAlma;
  amazon_pay?: PaymentMethodAmazonPay;
  au_becs_debit?: PaymentMethodAuBecsDebit;
  bacs_debit?: PaymentMethodBacsDebit;
  bancontact?: PaymentMethodBancontact;
  billie?: PaymentMethodBillie;
  billing_details: PaymentMethodBillingDetails;
  bizum?: PaymentMethodBizum;
  blik?: PaymentMethodBlik;
  boleto?: PaymentMethodBoleto;
  card?: PaymentMethodCard;
  card_present?: PaymentMethodCardPresent;
  cashapp?: PaymentMethodCashapp;
  created: number;
  crypto?: PaymentMethodCrypto;
  custom?: PaymentMethodCustom;
  customer: null | string;
  customer_account: null | string;
  customer_balance?: PaymentMethodCustomerBalance;
  eps?: PaymentMethodEps;
  fpx?: PaymentMethodFpx;
  giropay?: PaymentMethodGiropay;
  grabpay?: PaymentMethodGrabpay;
  ideal?: PaymentMethodIdeal;
  interac_present?: PaymentMethodInteracPresent;
  kakao_pay?: PaymentMethodKakaoPay;
  klarna?: PaymentMethodKlarna;
  konbini?: PaymentMethodKonbini;
  kr_card?: PaymentMethodKrCard;
  link?: PaymentMethodLink;
  livemode: boolean;
  mb_way?: PaymentMethodMbWay;
  metadata: null | Metadata;
  mobilepay?: PaymentMethodMobilepay;
  multibanco?: PaymentMethodMultibanco;
  naver_pay?: PaymentMethodNaverPay;
  nz_bank_account?: PaymentMethodNzBankAccount;
  oxxo?: PaymentMethodOxxo;
  p24?: PaymentMethodP24;
  pay_by_bank?: PaymentMethodPayByBank;
  payco?: PaymentMethodPayco;
  paynow?: PaymentMethodPaynow;
  paypal?: PaymentMethodPaypal;
  paypay?: PaymentMethodPaypay;
  payto?: PaymentMethodPayto;
  pix?: PaymentMethodPix;
  promptpay?: PaymentMethodPromptpay;
  radar_options?: PaymentMethodRadarOptions;
  revolut_pay?: PaymentMethodRevolutPay;
  samsung_pay?: PaymentMethodSamsungPay;
  satispay?: PaymentMethodSatispay;
  scalapay?: PaymentMethodScalapay;
  sepa_debit?: PaymentMethodSepaDebit;
  sequra?: PaymentMethodSequra;
  sofort?: PaymentMethodSofort;
  sunbit?: PaymentMethodSunbit;
  swish?: PaymentMethodSwish;
  twint?: PaymentMethodTwint;
  type:
    | 'acss_debit'
    | 'affirm'
    | 'afterpay_clearpay'
    | 'alipay'
    | 'alma'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'bizum'
    | 'blik'
    | 'boleto'
    | 'card'
    | 'card_present'
    | 'cashapp'
    | 'crypto'
    | 'custom'
    | 'customer_balance'
    | 'eps'
    | 'fpx'
    | 'giropay'
    | 'grabpay'
    | 'ideal'
    | 'interac_present'
    | 'kakao_pay'
    | 'klarna'
    | 'konbini'
    | 'kr_card'
    | 'link'
    | 'mb_way'
    | 'mobilepay'
    | 'multibanco'
    | 'naver_pay'
    | 'nz_bank_account'
    | 'oxxo'
    | 'p24'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'paypay'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'revolut_pay'
    | 'samsung_pay'
    | 'satispay'
    | 'scalapay'
    | 'sepa_debit'
    | 'sequra'
    | 'sofort'
    | 'sunbit'
    | 'swish'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'wechat_pay'
    | 'zip';
  upi?: PaymentMethodUpi;
  us_bank_account?: PaymentMethodUsBankAccount;
  wechat_pay?: PaymentMethodWechatPay;
  zip?: PaymentMethodZip;
}

export interface SetupIntent {
  id: string;
  object: 'setup_intent';
  allowed_payment_method_types: null | Array<
    | 'acss_debit'
    | 'affirm'
    | 'afterpay_clearpay'
    | 'alipay'
    | 'alma'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'bizum'
    | 'blik'
    | 'boku_promptpay'
    | 'boleto'
    | 'capchase_pay'
    | 'card'
    | 'card_present'
    | 'cashapp'
    | 'check_scan'
    | 'click_to_pay'
    | 'crypto'
    | 'customer_balance'
    | 'demo_pay'
    | 'duitnow'
    | 'dummy_auth_push'
    | 'dummy_passthrough_card'
    | 'edenred'
    | 'eps'
    | 'fpx'
    | 'gcash'
    | 'getbalance'
    | 'gift_card'
    | 'giropay'
    | 'gopay'
    | 'grabpay'
    | 'id_bank_transfer'
    | 'ideal'
    | 'interac_present'
    | 'kakao_pay'
    | 'klarna'
    | 'knet'
    | 'konbini'
    | 'kr_card'
    | 'kr_market'
    | 'kriya'
    | 'link'
    | 'mb_way'
    | 'mobilepay'
    | 'momo'
    | 'mondu'
    | 'multibanco'
    | 'naver_pay'
    | 'netbanking'
    | 'ng_bank'
    | 'ng_bank_transfer'
    | 'ng_card'
    | 'ng_market'
    | 'ng_ussd'
    | 'ng_wallet'
    | 'nz_bank_account'
    | 'octopus'
    | 'oxxo'
    | 'p24'
    | 'paper_check'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'paypay'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'qris'
    | 'rechnung'
    | 'revolut_pay'
    | 'samsung_pay'
    | 'satispay'
    | 'scalapay'
    | 'sepa_debit'
    | 'sequra'
    | 'shop_pay'
    | 'shopeepay'
    | 'sofort'
    | 'south_korea_market'
    | 'stripe_balance'
    | 'sunbit'
    | 'swish'
    | 'tamara'
    | 'test_pay'
    | 'touch_n_go'
    | 'truemoney'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'us_cash_voucher'
    | 'vipps'
    | 'wechat_pay'
    | 'wero'
    | 'zip'
  >;
  application: null | string;
  attach_to_self?: boolean;
  automatic_payment_methods: null | SetupIntentAutomaticPaymentMethods;
  cancellation_reason: 'abandoned' | 'duplicate' | 'requested_by_customer' | null;
  client_secret: null | string;
  created: number;
  customer: null | string;
  customer_account?: null | string;
  description: null | string;
  excluded_payment_method_types: null | Array<
    | 'acss_debit'
    | 'affirm'
    | 'afterpay_clearpay'
    | 'alipay'
    | 'alma'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'bizum'
    | 'blik'
    | 'boleto'
    | 'card'
    | 'cashapp'
    | 'crypto'
    | 'customer_balance'
    | 'eps'
    | 'fpx'
    | 'giropay'
    | 'grabpay'
    | 'ideal'
    | 'kakao_pay'
    | 'klarna'
    | 'konbini'
    | 'kr_card'
    | 'mb_way'
    | 'mobilepay'
    | 'multibanco'
    | 'naver_pay'
    | 'nz_bank_account'
    | 'oxxo'
    | 'p24'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'paypay'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'revolut_pay'
    | 'samsung_pay'
    | 'satispay'
    | 'scalapay'
    | 'sepa_debit'
    | 'sequra'
    | 'sofort'
    | 'sunbit'
    | 'swish'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'wechat_pay'
    | 'zip'
  >;
  flow_directions?: null | Array<'inbound' | 'outbound'>;
  last_setup_error: null | SetupIntentLastSetupError;
  latest_attempt: null | string;
  livemode: boolean;
  managed_payments?: null | SetupIntentManagedPayments;
  mandate: null | string;
  metadata: null | Metadata;
  next_action: null | SetupIntentNextAction;
  on_behalf_of: null | string;
  payment_method: null | string;
  payment_method_configuration_details: null | SetupIntentPaymentMethodConfigurationDetails;
  payment_method_options: null | SetupIntentPaymentMethodOptions;
  payment_method_types: string[];
  single_use_mandate: null | string;
  status:
    | 'canceled'
    | 'processing'
    | 'requires_action'
    | 'requires_confirmation'
    | 'requires_payment_method'
    | 'succeeded';
  usage: string;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  allowed_payment_method_types: null | Array<
    | 'acss_debit'
    | 'affirm'
    | 'afterpay_clearpay'
    | 'alipay'
    | 'alma'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'bizum'
    | 'blik'
    | 'boku_promptpay'
    | 'boleto'
    | 'capchase_pay'
    | 'card'
    | 'card_present'
    | 'cashapp'
    | 'check_scan'
    | 'click_to_pay'
    | 'crypto'
    | 'customer_balance'
    | 'demo_pay'
    | 'duitnow'
    | 'dummy_auth_push'
    | 'dummy_passthrough_card'
    | 'edenred'
    | 'eps'
    | 'fpx'
    | 'gcash'
    | 'getbalance'
    | 'gift_card'
    | 'giropay'
    | 'gopay'
    | 'grabpay'
    | 'id_bank_transfer'
    | 'ideal'
    | 'interac_present'
    | 'kakao_pay'
    | 'klarna'
    | 'knet'
    | 'konbini'
    | 'kr_card'
    | 'kr_market'
    | 'kriya'
    | 'link'
    | 'mb_way'
    | 'mobilepay'
    | 'momo'
    | 'mondu'
    | 'multibanco'
    | 'naver_pay'
    | 'netbanking'
    | 'ng_bank'
    | 'ng_bank_transfer'
    | 'ng_card'
    | 'ng_market'
    | 'ng_ussd'
    | 'ng_wallet'
    | 'nz_bank_account'
    | 'octopus'
    | 'oxxo'
    | 'p24'
    | 'paper_check'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'paypay'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'qris'
    | 'rechnung'
    | 'revolut_pay'
    | 'samsung_pay'
    | 'satispay'
    | 'scalapay'
    | 'sepa_debit'
    | 'sequra'
    | 'shop_pay'
    | 'shopeepay'
    | 'sofort'
    | 'south_korea_market'
    | 'stripe_balance'
    | 'sunbit'
    | 'swish'
    | 'tamara'
    | 'test_pay'
    | 'touch_n_go'
    | 'truemoney'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'us_cash_voucher'
    | 'vipps'
    | 'wechat_pay'
    | 'wero'
    | 'zip'
  >;
  amount: number;
  amount_capturable: number;
  amount_details?: PaymentIntentAmountDetails;
  amount_received: number;
  application: null | string;
  application_fee_amount: null | number;
  automatic_payment_methods: null | PaymentIntentAutomaticPaymentMethods;
  canceled_at: null | number;
  cancellation_reason:
    | 'abandoned'
    | 'automatic'
    | 'duplicate'
    | 'expired'
    | 'failed_invoice'
    | 'fraudulent'
    | 'requested_by_customer'
    | 'void_invoice'
    | null;
  capture_method: 'automatic' | 'automatic_async' | 'manual';
  client_secret: null | string;
  confirmation_method: 'automatic' | 'manual';
  created: number;
  currency: string;
  customer: null | string;
  customer_account: null | string;
  description: null | string;
  excluded_payment_method_types: null | Array<
    | 'acss_debit'
    | 'affirm'
    | 'afterpay_clearpay'
    | 'alipay'
    | 'alma'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'bizum'
    | 'blik'
    | 'boleto'
    | 'card'
    | 'cashapp'
    | 'crypto'
    | 'customer_balance'
    | 'eps'
    | 'fpx'
    | 'giropay'
    | 'grabpay'
    | 'ideal'
    | 'kakao_pay'
    | 'klarna'
    | 'konbini'
    | 'kr_card'
    | 'mb_way'
    | 'mobilepay'
    | 'multibanco'
    | 'naver_pay'
    | 'nz_bank_account'
    | 'oxxo'
    | 'p24'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'paypay'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'revolut_pay'
    | 'samsung_pay'
    | 'satispay'
    | 'scalapay'
    | 'sepa_debit'
    | 'sequra'
    | 'sofort'
    | 'sunbit'
    | 'swish'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'wechat_pay'
    | 'zip'
  >;
  hooks?: PaymentIntentHooks;
  last_payment_error: null | PaymentIntentLastPaymentError;
  latest_charge: null | string;
  livemode: boolean;
  managed_payments: null | PaymentIntentManagedPayments;
  metadata: Metadata;
  next_action: null | PaymentIntentNextAction;
  on_behalf_of: null | string;
  payment_details?: PaymentIntentPaymentDetails;
  payment_method: null | string;
  payment_method_configuration_details: null | PaymentIntentPaymentMethodConfigurationDetails;
  payment_method_options: null | PaymentIntentPaymentMethodOptions;
  payment_method_types: string[];
  payment_record: null | string;
  presentment_details?: PaymentIntentPresentmentDetails;
  processing: null | PaymentIntentProcessing;
  receipt_email: null | string;
  review: null | string;
  setup_future_usage: 'off_session' | 'on_session' | null;
  shipping: null | PaymentIntentShipping;
  source: null | string;
  statement_descriptor: null | string;
  statement_descriptor_suffix: null | string;
  status:
    | 'canceled'
    | 'processing'
    | 'requires_action'
    | 'requires_capture'
    | 'requires_confirmation'
    | 'requires_payment_method'
    | 'succeeded';
  transfer_data?: null | PaymentIntentTransferData;
  transfer_group: null | string;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  application: null | string;
  application_fee: null | string;
  application_fee_amount: null | number;
  authorization_code?: string;
  balance_transaction: null | string;
  billing_details: ChargeBillingDetails;
  calculated_statement_descriptor: null | string;
  captured: boolean;
  created: number;
  currency: string;
  customer: null | string;
  description: null | string;
  disputed: boolean;
  failure_balance_transaction: null | string;
  failure_code: null | string;
  failure_message: null | string;
  fraud_details: null | ChargeFraudDetails;
  level3?: ChargeLevel3;
  livemode: boolean;
  metadata: Metadata;
  on_behalf_of: null | string;
  outcome: null | ChargeOutcome;
  paid: boolean;
  payment_intent: null | string;
  payment_method: null | string;
  payment_method_details: null | ChargePaymentMethodDetails;
  presentment_details?: ChargePresentmentDetails;
  radar_options?: ChargeRadarOptions;
  receipt_email: null | string;
  receipt_number: null | string;
  receipt_url: null | string;
  refunded: boolean;
  refunds?: null | ApiList<Refund>;
  review: null | string;
  shipping: null | ChargeShipping;
  source: null | BankAccount | Card | Account | Source;
  source_transfer: null | string;
  statement_descriptor: null | string;
  statement_descriptor_suffix: null | string;
  status: 'failed' | 'pending' | 'succeeded';
  transfer?: string;
  transfer_data: null | ChargeTransferData;
  transfer_group: null | string;
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: null | string;
  charge: null | string;
  created: number;
  currency: string;
  customer: null | string;
  customer_account: null | string;
  description?: string;
  destination_details?: RefundDestinationDetails;
  failure_balance_transaction?: string;
  failure_reason?: string;
  instructions_email?: string;
  metadata: null | Metadata;
  next_action?: RefundNextAction;
  payment_intent: null | string;
  payment_method: null | string;
  pending_reason?: 'charge_pending' | 'insufficient_funds' | 'processing';
  presentment_details?: RefundPresentmentDetails;
  reason: 'duplicate' | 'expired_uncaptured_charge' | 'fraudulent' | 'requested_by_customer' | null;
  receipt_number: null | string;
  source_transfer_reversal: null | string;
  status: null | string;
  transfer_reversal: null | string;
}

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  balance_transactions: BalanceTransaction[];
  charge: string;
  created: number;
  currency: string;
  enhanced_eligibility_types: Array<
    'mastercard_compliance' | 'visa_compelling_evidence_3' | 'visa_compliance'
  >;
  evidence: DisputeEvidence;
  evidence_details: DisputeEvidenceDetails;
  intended_submission_method:
    'manual' | 'prefer_manual' | 'prefer_smart_disputes' | 'smart_disputes' | null;
  is_charge_refundable: boolean;
  livemode: boolean;
  metadata: Metadata;
  network_reason_code?: null | string;
  payment_intent: null | string;
  payment_method_details?: DisputePaymentMethodDetails;
  reason: string;
  status:
    | 'appeal_needs_response'
    | 'appeal_under_review'
    | 'lost'
    | 'needs_response'
    | 'prevented'
    | 'under_review'
    | 'warning_closed'
    | 'warning_needs_response'
    | 'warning_under_review'
    | 'won';
}

export interface BalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  available_on: number;
  balance_type: 'issuing' | 'payments' | 'refund_and_dispute_prefunding' | 'risk_reserved';
  created: number;
  currency: string;
  description: null | string;
  exchange_rate: null | number;
  fee: number;
  fee_details: BalanceTransactionFeeDetail[];
  net: number;
  reporting_category: string;
  source: null | string;
  status: string;
  type:
    | 'adjustment'
    | 'advance'
    | 'advance_funding'
    | 'anticipation_repayment'
    | 'application_fee'
    | 'application_fee_refund'
    | 'charge'
    | 'climate_order_purchase'
    | 'climate_order_refund'
    | 'connect_collection_transfer'
    | 'contribution'
    | 'fee_credit_funding'
    | 'inbound_transfer'
    | 'inbound_transfer_reversal'
    | 'issuing_authorization_hold'
    | 'issuing_authorization_release'
    | 'issuing_dispute'
    | 'issuing_dispute_provisional_credit'
    | 'issuing_dispute_provisional_credit_reversal'
    | 'issuing_transaction'
    | 'obligation_outbound'
    | 'obligation_reversal_inbound'
    | 'payment'
    | 'payment_failure_refund'
    | 'payment_network_reserve_hold'
    | 'payment_network_reserve_release'
    | 'payment_refund'
    | 'payment_reversal'
    | 'payment_unreconciled'
    | 'payout'
    | 'payout_cancel'
    | 'payout_failure'
    | 'payout_minimum_balance_hold'
    | 'payout_minimum_balance_release'
    | 'refund'
    | 'refund_failure'
    | 'reserve_hold'
    | 'reserve_release'
    | 'reserve_transaction'
    | 'reserved_funds'
    | 'stripe_balance_payment_debit'
    | 'stripe_balance_payment_debit_reversal'
    | 'stripe_fee'
    | 'stripe_fx_fee'
    | 'tax_fee'
    | 'tax_fund'
    | 'topup'
    | 'topup_reversal'
    | 'transfer'
    | 'transfer_cancel'
    | 'transfer_failure'
    | 'transfer_refund';
}

export interface Payout {
  id: string;
  object: 'payout';
  amount: number;
  application_fee: null | string;
  application_fee_amount: null | number;
  arrival_date: number;
  automatic: boolean;
  balance_transaction: null | string;
  created: number;
  currency: string;
  description: null | string;
  destination: null | string;
  failure_balance_transaction: null | string;
  failure_code: null | string;
  failure_message: null | string;
  livemode: boolean;
  metadata: null | Metadata;
  method: string;
  original_payout: null | string;
  payout_method: null | string;
  reconciliation_status: 'completed' | 'in_progress' | 'not_applicable';
  reversed_by: null | string;
  source_type: string;
  statement_descriptor: null | string;
  status: string;
  trace_id: null | PayoutTraceId;
  type: 'bank_account' | 'card';
}

export interface Event {
  id: string;
  object: 'event';
  account?: string;
  api_version: null | string;
  context?: string;
  created: number;
  data: EventData;
  livemode: boolean;
  pending_webhooks: number;
  request: null | EventRequest;
  type:
    | 'account.application.authorized'
    | 'account.application.deauthorized'
    | 'account.external_account.created'
    | 'account.external_account.deleted'
    | 'account.external_account.updated'
    | 'account.updated'
    | 'application_fee.created'
    | 'application_fee.refund.updated'
    | 'application_fee.refunded'
    | 'apps.install.created'
    | 'apps.install.deleted'
    | 'apps.install.updated'
    | 'balance.available'
    | 'balance_settings.updated'
    | 'billing.alert.triggered'
    | 'billing.credit_balance_transaction.created'
    | 'billing.credit_grant.created'
    | 'billing.credit_grant.updated'
    | 'billing.meter.created'
    | 'billing.meter.deactivated'
    | 'billing.meter.reactivated'
    | 'billing.meter.updated'
    | 'billing_portal.configuration.created'
    | 'billing_portal.configuration.updated'
    | 'billing_portal.session.created'
    | 'capability.updated'
    | 'cash_balance.funds_available'
    | 'charge.captured'
    | 'charge.dispute.closed'
    | 'charge.dispute.created'
    | 'charge.dispute.funds_reinstated'
    | 'charge.dispute.funds_withdrawn'
    | 'charge.dispute.updated'
    | 'charge.expired'
    | 'charge.failed'
    | 'charge.pending'
    | 'charge.refund.updated'
    | 'charge.refunded'
    | 'charge.succeeded'
    | 'charge.updated'
    | 'checkout.session.async_payment_failed'
    | 'checkout.session.async_payment_succeeded'
    | 'checkout.session.completed'
    | 'checkout.session.expired'
    | 'climate.order.canceled'
    | 'climate.order.created'
    | 'climate.order.delayed'
    | 'climate.order.delivered'
    | 'climate.order.product_substituted'
    | 'climate.product.created'
    | 'climate.product.pricing_updated'
    | 'coupon.created'
    | 'coupon.deleted'
    | 'coupon.updated'
    | 'credit_note.created'
    | 'credit_note.updated'
    | 'credit_note.voided'
    | 'customer.created'
    | 'customer.deleted'
    | 'customer.discount.created'
    | 'customer.discount.deleted'
    | 'customer.discount.updated'
    | 'customer.source.created'
    | 'customer.source.deleted'
    | 'customer.source.expiring'
    | 'customer.source.updated'
    | 'customer.subscription.created'
    | 'customer.subscription.deleted'
    | 'customer.subscription.paused'
    | 'customer.subscription.pending_update_applied'
    | 'customer.subscription.pending_update_expired'
    | 'customer.subscription.resumed'
    | 'customer.subscription.trial_will_end'
    | 'customer.subscription.updated'
    | 'customer.tax_id.created'
    | 'customer.tax_id.deleted'
    | 'customer.tax_id.updated'
    | 'customer.updated'
    | 'customer_cash_balance_transaction.created'
    | 'entitlements.active_entitlement_summary.updated'
    | 'file.created'
    | 'financial_connections.account.account_numbers_updated'
    | 'financial_connections.account.created'
    | 'financial_connections.account.deactivated'
    | 'financial_connections.account.disconnected'
    | 'financial_connections.account.expected_deactivation_date_updated'
    | 'financial_connections.account.reactivated'
    | 'financial_connections.account.refreshed_balance'
    | 'financial_connections.account.refreshed_ownership'
    | 'financial_connections.account.refreshed_transactions'
    | 'financial_connections.account.supported_payment_method_types_updated'
    | 'financial_connections.account.upcoming_account_number_expiry'
    | 'financial_connections.account.upcoming_deactivation'
    | 'financial_connections.authorization.expected_deactivation_date_updated'
    | 'financial_connections.authorization.upcoming_deactivation'
    | 'identity.verification_session.canceled'
    | 'identity.verification_session.created'
    | 'identity.verification_session.processing'
    | 'identity.verification_session.redacted'
    | 'identity.verification_session.requires_input'
    | 'identity.verification_session.verified'
    | 'invoice.created'
    | 'invoice.deleted'
    | 'invoice.finalization_failed'
    | 'invoice.finalized'
    | 'invoice.marked_uncollectible'
    | 'invoice.overdue'
    | 'invoice.overpaid'
    | 'invoice.paid'
    | 'invoice.payment_action_required'
    | 'invoice.payment_attempt_required'
    | 'invoice.payment_failed'
    | 'invoice.payment_succeeded'
    | 'invoice.sent'
    | 'invoice.upcoming'
    | 'invoice.updated'
    | 'invoice.voided'
    | 'invoice.will_be_due'
    | 'invoice_payment.paid'
    | 'invoiceitem.created'
    | 'invoiceitem.deleted'
    | 'issuing_authorization.created'
    | 'issuing_authorization.request'
    | 'issuing_authorization.updated'
    | 'issuing_card.created'
    | 'issuing_card.updated'
    | 'issuing_cardholder.created'
    | 'issuing_cardholder.updated'
    | 'issuing_dispute.closed'
    | 'issuing_dispute.created'
    | 'issuing_dispute.funds_reinstated'
    | 'issuing_dispute.funds_rescinded'
    | 'issuing_dispute.submitted'
    | 'issuing_dispute.updated'
    | 'issuing_personalization_design.activated'
    | 'issuing_personalization_design.deactivated'
    | 'issuing_personalization_design.rejected'
    | 'issuing_personalization_design.updated'
    | 'issuing_token.created'
    | 'issuing_token.updated'
    | 'issuing_transaction.created'
    | 'issuing_transaction.purchase_details_receipt_updated'
    | 'issuing_transaction.updated'
    | 'mandate.updated'
    | 'payment_intent.amount_capturable_updated'
    | 'payment_intent.canceled'
    | 'payment_intent.created'
    | 'payment_intent.partially_funded'
    | 'payment_intent.payment_failed'
    | 'payment_intent.processing'
    | 'payment_intent.requires_action'
    | 'payment_intent.succeeded'
    | 'payment_link.created'
    | 'payment_link.updated'
    | 'payment_method.attached'
    | 'payment_method.automatically_updated'
    | 'payment_method.detached'
    | 'payment_method.updated'
    | 'payout.canceled'
    | 'payout.created'
    | 'payout.failed'
    | 'payout.paid'
    | 'payout.reconciliation_completed'
    | 'payout.updated'
    | 'person.created'
    | 'person.deleted'
    | 'person.updated'
    | 'plan.created'
    | 'plan.deleted'
    | 'plan.updated'
    | 'price.created'
    | 'price.deleted'
    | 'price.updated'
    | 'product.created'
    | 'product.deleted'
    | 'product.updated'
    | 'promotion_code.created'
    | 'promotion_code.updated'
    | 'quote.accepted'
    | 'quote.canceled'
    | 'quote.created'
    | 'quote.finalized'
    | 'radar.early_fraud_warning.created'
    | 'radar.early_fraud_warning.updated'
    | 'refund.created'
    | 'refund.failed'
    | 'refund.updated'
    | 'reporting.report_run.failed'
    | 'reporting.report_run.succeeded'
    | 'reporting.report_type.updated'
    | 'reserve.hold.created'
    | 'reserve.hold.updated'
    | 'reserve.plan.created'
    | 'reserve.plan.disabled'
    | 'reserve.plan.expired'
    | 'reserve.plan.updated'
    | 'reserve.release.created'
    | 'review.closed'
    | 'review.opened'
    | 'setup_intent.canceled'
    | 'setup_intent.created'
    | 'setup_intent.requires_action'
    | 'setup_intent.setup_failed'
    | 'setup_intent.succeeded'
    | 'sigma.scheduled_query_run.created'
    | 'source.canceled'
    | 'source.chargeable'
    | 'source.failed'
    | 'source.mandate_notification'
    | 'source.refund_attributes_required'
    | 'source.transaction.created'
    | 'source.transaction.updated'
    | 'subscription_schedule.aborted'
    | 'subscription_schedule.canceled'
    | 'subscription_schedule.completed'
    | 'subscription_schedule.created'
    | 'subscription_schedule.expiring'
    | 'subscription_schedule.released'
    | 'subscription_schedule.updated'
    | 'tax.settings.updated'
    | 'tax_rate.created'
    | 'tax_rate.updated'
    | 'terminal.reader.action_failed'
    | 'terminal.reader.action_succeeded'
    | 'terminal.reader.action_updated'
    | 'test_helpers.test_clock.advancing'
    | 'test_helpers.test_clock.created'
    | 'test_helpers.test_clock.deleted'
    | 'test_helpers.test_clock.internal_failure'
    | 'test_helpers.test_clock.ready'
    | 'three_d_secure.authentication.canceled'
    | 'three_d_secure.authentication.challenge_started'
    | 'three_d_secure.authentication.errored'
    | 'three_d_secure.authentication.failed'
    | 'three_d_secure.authentication.requires_challenge'
    | 'three_d_secure.authentication.requires_submission'
    | 'three_d_secure.authentication.succeeded'
    | 'topup.canceled'
    | 'topup.created'
    | 'topup.failed'
    | 'topup.reversed'
    | 'topup.succeeded'
    | 'transfer.created'
    | 'transfer.reversed'
    | 'transfer.updated'
    | 'treasury.credit_reversal.created'
    | 'treasury.credit_reversal.posted'
    | 'treasury.debit_reversal.completed'
    | 'treasury.debit_reversal.created'
    | 'treasury.debit_reversal.initial_credit_granted'
    | 'treasury.financial_account.closed'
    | 'treasury.financial_account.created'
    | 'treasury.financial_account.features_status_updated'
    | 'treasury.inbound_transfer.canceled'
    | 'treasury.inbound_transfer.created'
    | 'treasury.inbound_transfer.failed'
    | 'treasury.inbound_transfer.succeeded'
    | 'treasury.outbound_payment.canceled'
    | 'treasury.outbound_payment.created'
    | 'treasury.outbound_payment.expected_arrival_date_updated'
    | 'treasury.outbound_payment.failed'
    | 'treasury.outbound_payment.posted'
    | 'treasury.outbound_payment.returned'
    | 'treasury.outbound_payment.tracking_details_updated'
    | 'treasury.outbound_transfer.canceled'
    | 'treasury.outbound_transfer.created'
    | 'treasury.outbound_transfer.expected_arrival_date_updated'
    | 'treasury.outbound_transfer.failed'
    | 'treasury.outbound_transfer.posted'
    | 'treasury.outbound_transfer.returned'
    | 'treasury.outbound_transfer.tracking_details_updated'
    | 'treasury.received_credit.created'
    | 'treasury.received_credit.failed'
    | 'treasury.received_credit.succeeded'
    | 'treasury.received_debit.created';
}

export interface Invoice {
  id: string;
  object: 'invoice';
  account_country: null | string;
  account_name: null | string;
  account_tax_ids: null | string[];
  amount_due: number;
  amount_overpaid: number;
  amount_paid: number;
  amount_paid_off_stripe?: number;
  amount_remaining: number;
  amount_shipping: number;
  application: null | string;
  attempt_count: number;
  attempted: boolean;
  auto_advance?: boolean;
  automatic_tax: InvoiceAutomaticTax;
  automatically_finalizes_at: null | number;
  billing_reason:
    | 'automatic_pending_invoice_item_invoice'
    | 'manual'
    | 'quote_accept'
    | 'subscription'
    | 'subscription_create'
    | 'subscription_cycle'
    | 'subscription_threshold'
    | 'subscription_update'
    | 'upcoming'
    | null;
  collection_method: 'charge_automatically' | 'send_invoice';
  confirmation_secret?: null | InvoiceConfirmationSecret;
  created: number;
  currency: string;
  custom_fields: null | InvoiceCustomField[];
  customer: null | string;
  customer_account: null | string;
  customer_address: null | Address;
  customer_email: null | string;
  customer_name: null | string;
  customer_phone: null | string;
  customer_shipping: null | InvoiceCustomerShipping;
  customer_tax_exempt: 'exempt' | 'none' | 'reverse' | null;
  customer_tax_ids?: null | InvoiceCustomerTaxId[];
  default_payment_method: null | string;
  default_source: null | string;
  default_tax_rates: TaxRate[];
  description: null | string;
  discounts: string[];
  due_date: null | number;
  effective_at: null | number;
  ending_balance: null | number;
  footer: null | string;
  from_invoice: null | InvoiceFromInvoice;
  hosted_invoice_url?: null | string;
  invoice_pdf?: null | string;
  issuer: InvoiceIssuer;
  last_finalization_error: null | InvoiceLastFinalizationError;
  latest_revision: null | string;
  lines: ApiList<LineItem>;
  livemode: boolean;
  metadata: null | Metadata;
  next_payment_attempt: null | number;
  number: null | string;
  on_behalf_of: null | string;
  parent: null | InvoiceParent;
  payment_settings: InvoicePaymentSettings;
  payments?: ApiList<InvoicePayment>;
  period_end: number;
  period_start: number;
  post_payment_credit_notes_amount: number;
  pre_payment_credit_notes_amount: number;
  receipt_number: null | string;
  rendering: null | InvoiceRendering;
  shipping_cost: null | InvoiceShippingCost;
  shipping_details: null | InvoiceShippingDetails;
  starting_balance: number;
  statement_descriptor: null | string;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void' | null;
  status_details?: InvoiceStatusDetails;
  status_transitions: InvoiceStatusTransitions;
  subtotal: number;
  subtotal_excluding_tax: null | number;
  test_clock: null | string;
  threshold_reason?: InvoiceThresholdReason;
  total: number;
  total_discount_amounts: null | InvoiceTotalDiscountAmount[];
  total_excluding_tax: null | number;
  total_pretax_credit_amounts: null | InvoiceTotalPretaxCreditAmount[];
  total_taxes: null | InvoiceTotalTax[];
  webhooks_delivered_at: null | number;
}

export interface LineItem {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: null | string;
  discount_amounts: null | LineItemDiscountAmount[];
  discountable: boolean;
  discounts: string[];
  invoice: null | string;
  livemode: boolean;
  metadata: Metadata;
  parent: null | LineItemParent;
  period: LineItemPeriod;
  pretax_credit_amounts: null | LineItemPretaxCreditAmount[];
  pricing: null | LineItemPricing;
  quantity: null | number;
  quantity_decimal: null | string;
  subscription: null | string;
  subtotal: number;
  taxes: null | LineItemTax[];
}

export interface Invoiceitem {
  id: string;
  object: 'invoiceitem';
  amount: number;
  currency: string;
  customer: string;
  customer_account: null | string;
  date: number;
  description: null | string;
  discountable: boolean;
  discounts: null | string[];
  frozen_fields?: Array<'discounts' | 'pricing' | 'quantity'>;
  invoice: null | string;
  invoicing_rules?: InvoiceitemInvoicingRule[];
  livemode: boolean;
  metadata: null | Metadata;
  net_amount?: number;
  parent: null | InvoiceitemParent;
  period: InvoiceitemPeriod;
  pricing: null | InvoiceitemPricing;
  proration: boolean;
  proration_details?: InvoiceitemProrationDetails;
  quantity: number;
  quantity_decimal: string;
  tax_rates: null | TaxRate[];
  test_clock: null | string;
}

export interface Subscription {
  id: string;
  object: 'subscription';
  application: null | string;
  application_fee_percent: null | number;
  automatic_tax: SubscriptionAutomaticTax;
  billing_cycle_anchor: number;
  billing_cycle_anchor_config: null | SubscriptionBillingCycleAnchorConfig;
  billing_mode: SubscriptionBillingMode;
  billing_schedules: SubscriptionBillingSchedule[];
  billing_thresholds: null | SubscriptionBillingThresholds;
  cancel_at: null | number;
  cancel_at_period_end: boolean;
  canceled_at: null | number;
  cancellation_details: null | SubscriptionCancellationDetails;
  collection_method: 'charge_automatically' | 'send_invoice';
  created: number;
  currency: string;
  customer: string;
  customer_account: null | string;
  days_until_due: null | number;
  default_payment_method: null | string;
  default_source: null | string;
  default_tax_rates?: null | TaxRate[];
  description: null | string;
  discounts: string[];
  ended_at: null | number;
  invoice_settings: SubscriptionInvoiceSettings;
  items: ApiList<SubscriptionItem>;
  latest_invoice: null | string;
  livemode: boolean;
  managed_payments: null | SubscriptionManagedPayments;
  metadata: Metadata;
  next_pending_invoice_item_invoice: null | number;
  on_behalf_of: null | string;
  pause_collection: null | SubscriptionPauseCollection;
  payment_settings: null | SubscriptionPaymentSettings;
  pending_invoice_item_interval: null | SubscriptionPendingInvoiceItemInterval;
  pending_setup_intent: null | string;
  pending_update: null | SubscriptionPendingUpdate;
  presentment_details?: SubscriptionPresentmentDetails;
  schedule: null | string;
  start_date: number;
  status:
    | 'active'
    | 'canceled'
    | 'incomplete'
    | 'incomplete_expired'
    | 'past_due'
    | 'paused'
    | 'trialing'
    | 'unpaid';
  status_details?: SubscriptionStatusDetails;
  test_clock: null | string;
  transfer_data: null | SubscriptionTransferData;
  trial_end: null | number;
  trial_settings: null | SubscriptionTrialSettings;
  trial_start: null | number;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  billed_until?: number;
  billing_thresholds: null | SubscriptionItemBillingThresholds;
  created: number;
  current_period_end: number;
  current_period_start: number;
  current_trial: null | SubscriptionItemCurrentTrial;
  discounts: string[];
  metadata: Metadata;
  plan: Plan;
  price: Price;
  quantity?: number;
  subscription: string;
  tax_rates: null | TaxRate[];
}

export interface CreditNote {
  id: string;
  object: 'credit_note';
  amount: number;
  amount_shipping: number;
  created: number;
  currency: string;
  customer: string;
  customer_account: null | string;
  customer_balance_transaction: null | string;
  discount_amount: number;
  discount_amounts: CreditNoteDiscountAmount[];
  effective_at: null | number;
  invoice: string;
  lines: ApiList<CreditNoteLineItem>;
  livemode: boolean;
  memo: null | string;
  metadata: null | Metadata;
  number: string;
  out_of_band_amount: null | number;
  pdf: string;
  post_payment_amount: number;
  pre_payment_amount: number;
  pretax_credit_amounts: CreditNotePretaxCreditAmount[];
  reason: 'duplicate' | 'fraudulent' | 'order_change' | 'product_unsatisfactory' | null;
  refunds: CreditNoteRefund[];
  shipping_cost: null | CreditNoteShippingCost;
  status: 'issued' | 'void';
  subtotal: number;
  subtotal_excluding_tax: null | number;
  total: number;
  total_excluding_tax: null | number;
  total_taxes: null | CreditNoteTotalTax[];
  type: 'mixed' | 'post_payment' | 'pre_payment';
  voided_at: null | number;
}

export interface PaymentLink {
  id: string;
  object: 'payment_link';
  active: boolean;
  after_completion: PaymentLinkAfterCompletion;
  allow_promotion_codes: boolean;
  application: null | string;
  application_fee_amount: null | number;
  application_fee_percent: null | number;
  automatic_tax: PaymentLinkAutomaticTax;
  billing_address_collection: 'auto' | 'required';
  consent_collection: null | PaymentLinkConsentCollection;
  currency: string;
  custom_fields: PaymentLinkCustomField[];
  custom_text: PaymentLinkCustomText;
  customer_creation: 'always' | 'if_required';
  inactive_message: null | string;
  invoice_creation: null | PaymentLinkInvoiceCreation;
  line_items?: ApiList<LineitemsLineItem>;
  livemode: boolean;
  managed_payments: null | PaymentLinkManagedPayments;
  metadata: Metadata;
  name_collection?: PaymentLinkNameCollection;
  on_behalf_of: null | string;
  optional_items?: null | PaymentLinkOptionalItem[];
  payment_intent_data: null | PaymentLinkPaymentIntentData;
  payment_method_collection: 'always' | 'if_required';
  payment_method_options: null | PaymentLinkPaymentMethodOptions;
  payment_method_types: null | Array<
    | 'affirm'
    | 'afterpay_clearpay'
    | 'alipay'
    | 'alma'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'bizum'
    | 'blik'
    | 'boleto'
    | 'card'
    | 'cashapp'
    | 'eps'
    | 'fpx'
    | 'giropay'
    | 'grabpay'
    | 'ideal'
    | 'klarna'
    | 'konbini'
    | 'link'
    | 'mb_way'
    | 'mobilepay'
    | 'multibanco'
    | 'oxxo'
    | 'p24'
    | 'pay_by_bank'
    | 'paynow'
    | 'paypal'
    | 'paypay'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'satispay'
    | 'scalapay'
    | 'sepa_debit'
    | 'sequra'
    | 'sofort'
    | 'sunbit'
    | 'swish'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'wechat_pay'
    | 'zip'
  >;
  phone_number_collection: PaymentLinkPhoneNumberCollection;
  restrictions: null | PaymentLinkRestrictions;
  shipping_address_collection: null | PaymentLinkShippingAddressCollection;
  shipping_options: PaymentLinkShippingOption[];
  submit_type: 'auto' | 'book' | 'donate' | 'pay' | 'subscribe';
  subscription_data: null | PaymentLinkSubscriptionData;
  tax_id_collection: PaymentLinkTaxIdCollection;
  transfer_data: null | PaymentLinkTransferData;
  url: string;
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  adaptive_pricing: null | CheckoutSessionAdaptivePricing;
  after_expiration: null | CheckoutSessionAfterExpiration;
  allow_promotion_codes: null | boolean;
  allowed_payment_method_types: null | string[];
  amount_subtotal: null | number;
  amount_total: null | number;
  automatic_tax: CheckoutSessionAutomaticTax;
  billing_address_collection: 'auto' | 'required' | null;
  branding_settings?: CheckoutSessionBrandingSettings;
  cancel_url: null | string;
  client_reference_id: null | string;
  client_secret: null | string;
  collected_information: null | CheckoutSessionCollectedInformation;
  consent: null | CheckoutSessionConsent;
  consent_collection: null | CheckoutSessionConsentCollection;
  created: number;
  currency: null | string;
  currency_conversion: null | CheckoutSessionCurrencyConversion;
  custom_fields: CheckoutSessionCustomField[];
  custom_text: CheckoutSessionCustomText;
  customer: null | string;
  customer_account: null | string;
  customer_creation: 'always' | 'if_required' | null;
  customer_details: null | CheckoutSessionCustomerDetails;
  customer_email: null | string;
  discounts: null | CheckoutSessionDiscount[];
  excluded_payment_method_types?: string[];
  expires_at: number;
  integration_identifier: null | string;
  invoice: null | string;
  invoice_creation: null | CheckoutSessionInvoiceCreation;
  line_items?: ApiList<LineitemsLineItem>;
  livemode: boolean;
  locale:
    | 'auto'
    | 'bg'
    | 'cs'
    | 'da'
    | 'de'
    | 'el'
    | 'en'
    | 'en-GB'
    | 'es'
    | 'es-419'
    | 'et'
    | 'fi'
    | 'fil'
    | 'fr'
    | 'fr-CA'
    | 'hi-IN'
    | 'hr'
    | 'hu'
    | 'id'
    | 'it'
    | 'ja'
    | 'ko'
    | 'lt'
    | 'lv'
    | 'ms'
    | 'mt'
    | 'nb'
    | 'nl'
    | 'pl'
    | 'pt'
    | 'pt-BR'
    | 'ro'
    | 'ru'
    | 'sk'
    | 'sl'
    | 'sv'
    | 'th'
    | 'tr'
    | 'vi'
    | 'zh'
    | 'zh-HK'
    | 'zh-TW'
    | null;
  managed_payments: null | CheckoutSessionManagedPayments;
  metadata: null | Metadata;
  mode: 'payment' | 'setup' | 'subscription';
  name_collection?: CheckoutSessionNameCollection;
  optional_items?: null | CheckoutSessionOptionalItem[];
  origin_context: 'mobile_app' | 'web' | null;
  payment_intent: null | string;
  payment_link: null | string;
  payment_method_collection: 'always' | 'if_required' | null;
  payment_method_configuration_details: null | CheckoutSessionPaymentMethodConfigurationDetails;
  payment_method_options: null | CheckoutSessionPaymentMethodOptions;
  payment_method_types: string[];
  payment_status: 'no_payment_required' | 'paid' | 'unpaid';
  permissions: null | CheckoutSessionPermissions;
  phone_number_collection?: CheckoutSessionPhoneNumberCollection;
  presentment_details?: CheckoutSessionPresentmentDetails;
  recovered_from: null | string;
  redirect_on_completion?: 'always' | 'if_required' | 'never';
  return_url?: string;
  saved_payment_method_options: null | CheckoutSessionSavedPaymentMethodOptions;
  setup_intent: null | string;
  shipping_address_collection: null | CheckoutSessionShippingAddressCollection;
  shipping_cost: null | CheckoutSessionShippingCost;
  shipping_options: CheckoutSessionShippingOption[];
  status: 'complete' | 'expired' | 'open' | null;
  submit_type: 'auto' | 'book' | 'donate' | 'pay' | 'subscribe' | null;
  subscription: null | string;
  success_url: null | string;
  tax_id_collection?: CheckoutSessionTaxIdCollection;
  total_details: null | CheckoutSessionTotalDetails;
  ui_mode: 'elements' | 'embedded_page' | 'form' | 'hosted_page' | null;
  url: null | string;
  wallet_options: null | CheckoutSessionWalletOptions;
}

export interface InvoicePayment {
  id: string;
  object: 'invoice_payment';
  amount_paid: null | number;
  amount_requested: number;
  created: number;
  currency: string;
  invoice: string;
  is_default: boolean;
  livemode: boolean;
  payment: InvoicePaymentPayment;
  status: string;
  status_transitions: InvoicePaymentStatusTransitions;
}

export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  api_version: null | string;
  application: null | string;
  created: number;
  description: null | string;
  enabled_events: string[];
  livemode: boolean;
  metadata: Metadata;
  secret?: string;
  status: string;
  url: string;
}

export interface TestHelpersTestClock {
  id: string;
  object: 'test_helpers.test_clock';
  created: number;
  deletes_after: number;
  frozen_time: number;
  livemode: boolean;
  name: null | string;
  status: 'advancing' | 'internal_failure' | 'ready';
  status_details: TestHelpersTestClockStatusDetails;
}

export interface Address {
  city: null | string;
  country: null | string;
  line1: null | string;
  line2: null | string;
  postal_code: null | string;
  state: null | string;
}

export interface CashBalance {
  object: 'cash_balance';
  available: null | Record<string, number>;
  customer: string;
  customer_account: null | string;
  livemode: boolean;
  settings: CashBalanceSettings;
}

export interface Discount {
  id: string;
  object: 'discount';
  checkout_session: null | string;
  customer: null | string;
  customer_account: null | string;
  end: null | number;
  invoice: null | string;
  invoice_item: null | string;
  promotion_code: null | string;
  source: DiscountSource;
  start: number;
  subscription: null | string;
  subscription_item: null | string;
}

export interface CustomerInvoiceSettings {
  custom_fields: null | CustomerInvoiceSettingsCustomField[];
  default_payment_method: null | string;
  footer: null | string;
  rendering_options: null | CustomerInvoiceSettingsRenderingOptions;
}

export type Metadata = Record<string, string>;

export interface CustomerShipping {
  address?: Address;
  carrier?: null | string;
  name?: string;
  phone?: null | string;
  tracking_number?: null | string;
}

export interface BankAccount {
  id: string;
  object: 'bank_account';
  account?: null | string;
  account_holder_name: null | string;
  account_holder_type: null | string;
  account_type: null | string;
  available_payout_methods?: null | Array<'instant' | 'standard'>;
  bank_name: null | string;
  country: string;
  currency: string;
  customer?: null | string;
  default_for_currency?: null | boolean;
  fingerprint: null | string;
  future_requirements?: null | BankAccountFutureRequirements;
  last4: string;
  metadata?: null | Metadata;
  requirements?: null | BankAccountRequirements;
  routing_number: null | string;
  status: string;
}

export interface Card {
  id: string;
  object: 'card';
  account?: null | string;
  address_city: null | string;
  address_country: null | string;
  address_line1: null | string;
  address_line1_check: null | string;
  address_line2: null | string;
  address_state: null | string;
  address_zip: null | string;
  address_zip_check: null | string;
  allow_redisplay?: 'always' | 'limited' | 'unspecified' | null;
  available_payout_methods?: null | Array<'instant' | 'standard'>;
  brand: string;
  country: null | string;
  currency?: null | string;
  customer?: null | string;
  cvc_check: null | string;
  default_for_currency?: null | boolean;
  description?: string;
  dynamic_last4: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint?: null | string;
  funding: string;
  iin?: string;
  issuer?: string;
  last4: string;
  metadata: null | Metadata;
  name: null | string;
  networks?: CardNetworks;
  regulated_status: 'regulated' | 'unregulated' | null;
  status?: null | string;
  tokenization_method: null | string;
}

export interface Account {
  id: string;
  object: 'account';
  business_profile?: null | AccountBusinessProfile;
  business_type?: 'company' | 'government_entity' | 'individual' | 'non_profit' | null;
  capabilities?: AccountCapabilities;
  charges_enabled: boolean;
  company?: AccountCompany;
  controller?: AccountController;
  country?: string;
  created?: number;
  default_currency?: string;
  details_submitted: boolean;
  email: null | string;
  external_accounts?: ApiList<BankAccount | Card>;
  future_requirements?: AccountFutureRequirements;
  groups?: null | AccountGroups;
  individual?: Person;
  metadata?: Metadata;
  payouts_enabled: boolean;
  requirements?: AccountRequirements;
  settings?: null | AccountSettings;
  tos_acceptance?: AccountTosAcceptance;
  type: 'custom' | 'express' | 'none' | 'standard';
}

export interface Source {
  id: string;
  object: 'source';
  ach_credit_transfer?: SourceAchCreditTransfer;
  ach_debit?: SourceAchDebit;
  acss_debit?: SourceAcssDebit;
  alipay?: SourceAlipay;
  allow_redisplay: 'always' | 'limited' | 'unspecified' | null;
  amount: null | number;
  au_becs_debit?: SourceAuBecsDebit;
  bancontact?: SourceBancontact;
  card?: SourceCard;
  card_present?: SourceCardPresent;
  client_secret: string;
  code_verification?: SourceCodeVerification;
  created: number;
  currency: null | string;
  customer?: string;
  eps?: SourceEps;
  flow: string;
  giropay?: SourceGiropay;
  ideal?: SourceIdeal;
  klarna?: SourceKlarna;
  livemode: boolean;
  metadata: null | Metadata;
  multibanco?: SourceMultibanco;
  owner: null | SourceOwner;
  p24?: SourceP24;
  receiver?: SourceReceiver;
  redirect?: SourceRedirect;
  sepa_credit_transfer?: SourceSepaCreditTransfer;
  sepa_debit?: SourceSepaDebit;
  sofort?: SourceSofort;
  source_order?: SourceSourceOrder;
  statement_descriptor: null | string;
  status: string;
  three_d_secure?: SourceThreeDSecure;
  type:
    | 'ach_credit_transfer'
    | 'ach_debit'
    | 'acss_debit'
    | 'alipay'
    | 'au_becs_debit'
    | 'bancontact'
    | 'card'
    | 'card_present'
    | 'eps'
    | 'giropay'
    | 'ideal'
    | 'klarna'
    | 'multibanco'
    | 'p24'
    | 'sepa_credit_transfer'
    | 'sepa_debit'
    | 'sofort'
    | 'three_d_secure'
    | 'wechat';
  usage: null | string;
  wechat?: SourceWechat;
}

export interface CustomerTax {
  automatic_tax: 'failed' | 'not_collecting' | 'supported' | 'unrecognized_location';
  ip_address: null | string;
  location: null | CustomerTaxLocation;
  provider: 'anrok' | 'avalara' | 'sphere' | 'stripe';
}

export interface ProductMarketingFeature {
  name?: string;
}

export interface ProductPackageDimensions {
  height: number;
  length: number;
  weight: number;
  width: number;
}

export interface ProductTaxDetails {
  performance_location: null | string;
  tax_code: null | string;
}

export interface PriceCurrencyOptions {
  custom_unit_amount: null | PriceCurrencyOptionsCustomUnitAmount;
  tax_behavior: 'exclusive' | 'inclusive' | 'unspecified' | null;
  tiers?: PriceCurrencyOptionsTier[];
  unit_amount: null | number;
  unit_amount_decimal: null | string;
}

export interface PriceCustomUnitAmount {
  maximum: null | number;
  minimum: null | number;
  preset: null | number;
}

export interface PriceRecurring {
  interval: 'day' | 'month' | 'week' | 'year';
  interval_count: number;
  meter: null | string;
  trial_period_days: null | number;
  usage_type: 'licensed' | 'metered';
}

export interface PriceTier {
  flat_amount: null | number;
  flat_amount_decimal: null | string;
  unit_amount: null | number;
  unit_amount_decimal: null | string;
  up_to: null | number;
}

export interface PriceTransformQuantity {
  divide_by: number;
  round: 'down' | 'up';
}

export interface CouponAppliesTo {
  products: string[];
}

export interface CouponCurrencyOptions {
  amount_off: number;
}

export interface PromotionCodePromotion {
  coupon: null | string;
  type: 'coupon';
}

export interface PromotionCodeRestrictions {
  currency_options?: Record<string, PromotionCodeRestrictionsCurrencyOptions>;
  first_time_transaction: boolean;
  minimum_amount: null | number;
  minimum_amount_currency: null | string;
}

export interface TaxRateFlatAmount {
  amount: number;
  currency: string;
}

export interface TaxIdOwner {
  account?: string;
  application?: string;
  customer?: string;
  customer_account: null | string;
  type: 'account' | 'application' | 'customer' | 'self';
}

export interface TaxIdVerification {
  status: 'pending' | 'unavailable' | 'unverified' | 'verified';
  verified_address: null | string;
  verified_name: null | string;
}

export interface PaymentMethodAcssDebit {
  bank_name: null | string;
  fingerprint: null | string;
  institution_number: null | string;
  last4: null | string;
  transit_number: null | string;
}

export type PaymentMethodAffirm = Record<string, unknown>;

export type PaymentMethodAfterpayClearpay = Record<string, unknown>;

export type PaymentMethodAlipay = Record<string, unknown>;

export type PaymentMethodAlma = Record<string, unknown>;

export type PaymentMethodAmazonPay = Record<string, unknown>;

export interface PaymentMethodAuBecsDebit {
  bsb_number: null | string;
  fingerprint: null | string;
  last4: null | string;
}

export interface PaymentMethodBacsDebit {
  fingerprint: null | string;
  last4: null | string;
  sort_code: null | string;
}

export type PaymentMethodBancontact = Record<string, unknown>;

export type PaymentMethodBillie = Record<string, unknown>;

export interface PaymentMethodBillingDetails {
  address: null | Address;
  email: null | string;
  name: null | string;
  phone: null | string;
  tax_id: null | string;
}

export interface PaymentMethodBizum {
  buyer_id?: null | string;
}

export interface PaymentMethodBlik {
  buyer_id?: null | string;
}

export interface PaymentMethodBoleto {
  tax_id: string;
}

export interface PaymentMethodCard {
  brand: string;
  checks: null | PaymentMethodCardChecks;
  country: null | string;
  description?: null | string;
  display_brand: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint?: null | string;
  funding: string;
  generated_from: null | PaymentMethodCardGeneratedFrom;
  iin?: null | string;
  issuer?: null | string;
  last4: string;
  networks: null | PaymentMethodCardNetworks;
  regulated_status: 'regulated' | 'unregulated' | null;
  three_d_secure_usage: null | PaymentMethodCardThreeDSecureUsage;
  wallet: null | PaymentMethodCardWallet;
}

export interface PaymentMethodCardPresent {
  brand: null | string;
  brand_product: null | string;
  cardholder_name: null | string;
  country: null | string;
  description?: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint: null | string;
  funding: null | string;
  iin?: null | string;
  issuer?: null | string;
  last4: null | string;
  networks: null | PaymentMethodCardPresentNetworks;
  offline: null | PaymentMethodCardPresentOffline;
  preferred_locales: null | string[];
  read_method:
    | 'contact_emv'
    | 'contactless_emv'
    | 'contactless_magstripe_mode'
    | 'magnetic_stripe_fallback'
    | 'magnetic_stripe_track2'
    | null;
  wallet?: PaymentMethodCardPresentWallet;
}

export interface PaymentMethodCashapp {
  buyer_id: null | string;
  cashtag: null | string;
}

export type PaymentMethodCrypto = Record<string, unknown>;

export interface PaymentMethodCustom {
  display_name: null | string;
  logo: null | PaymentMethodCustomLogo;
  type: string;
}

export type PaymentMethodCustomerBalance = Record<string, unknown>;

export interface PaymentMethodEps {
  bank:
    | 'arzte_und_apotheker_bank'
    | 'austrian_anadi_bank_ag'
    | 'bank_austria'
    | 'bankhaus_carl_spangler'
    | 'bankhaus_schelhammer_und_schattera_ag'
    | 'bawag_psk_ag'
    | 'bks_bank_ag'
    | 'brull_kallmus_bank_ag'
    | 'btv_vier_lander_bank'
    | 'capital_bank_grawe_gruppe_ag'
    | 'deutsche_bank_ag'
    | 'dolomitenbank'
    | 'easybank_ag'
    | 'erste_bank_und_sparkassen'
    | 'hypo_alpeadriabank_international_ag'
    | 'hypo_bank_burgenland_aktiengesellschaft'
    | 'hypo_noe_lb_fur_niederosterreich_u_wien'
    | 'hypo_oberosterreich_salzburg_steiermark'
    | 'hypo_tirol_bank_ag'
    | 'hypo_vorarlberg_bank_ag'
    | 'marchfelder_bank'
    | 'oberbank_ag'
    | 'raiffeisen_bankengruppe_osterreich'
    | 'schoellerbank_ag'
    | 'sparda_bank_wien'
    | 'volksbank_gruppe'
    | 'volkskreditbank_ag'
    | 'vr_bank_braunau'
    | null;
}

export interface PaymentMethodFpx {
  account_holder_type: 'company' | 'individual' | null;
  bank:
    | 'affin_bank'
    | 'agrobank'
    | 'alliance_bank'
    | 'ambank'
    | 'bank_islam'
    | 'bank_muamalat'
    | 'bank_of_china'
    | 'bank_rakyat'
    | 'bnp_paribas'
    | 'bsn'
    | 'cimb'
    | 'citibank'
    | 'deutsche_bank'
    | 'hong_leong_bank'
    | 'hsbc'
    | 'kfh'
    | 'maybank2e'
    | 'maybank2u'
    | 'mbsb_bank'
    | 'ocbc'
    | 'pb_enterprise'
    | 'public_bank'
    | 'rhb'
    | 'standard_chartered'
    | 'uob';
}

export type PaymentMethodGiropay = Record<string, unknown>;

export type PaymentMethodGrabpay = Record<string, unknown>;

export interface PaymentMethodIdeal {
  bank:
    | 'abn_amro'
    | 'adyen'
    | 'asn_bank'
    | 'bunq'
    | 'buut'
    | 'finom'
    | 'handelsbanken'
    | 'ing'
    | 'knab'
    | 'mollie'
    | 'moneyou'
    | 'n26'
    | 'nn'
    | 'rabobank'
    | 'regiobank'
    | 'revolut'
    | 'sns_bank'
    | 'triodos_bank'
    | 'van_lanschot'
    | 'yoursafe'
    | null;
  bic:
    | 'ABNANL2A'
    | 'ADYBNL2A'
    | 'ASNBNL21'
    | 'BITSNL2A'
    | 'BUNQNL2A'
    | 'BUUTNL2A'
    | 'FNOMNL22'
    | 'FVLBNL22'
    | 'HANDNL2A'
    | 'INGBNL2A'
    | 'KNABNL2H'
    | 'MLLENL2A'
    | 'MOYONL21'
    | 'NNBANL2G'
    | 'NTSBDEB1'
    | 'RABONL2U'
    | 'RBRBNL21'
    | 'REVOIE23'
    | 'REVOLT21'
    | 'SNSBNL2A'
    | 'TRIONL2U'
    | null;
}

export interface PaymentMethodInteracPresent {
  brand: null | string;
  cardholder_name: null | string;
  country: null | string;
  description?: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint: null | string;
  funding: null | string;
  iin?: null | string;
  issuer?: null | string;
  last4: null | string;
  networks: null | PaymentMethodInteracPresentNetworks;
  preferred_locales: null | string[];
  read_method:
    | 'contact_emv'
    | 'contactless_emv'
    | 'contactless_magstripe_mode'
    | 'magnetic_stripe_fallback'
    | 'magnetic_stripe_track2'
    | null;
}

export type PaymentMethodKakaoPay = Record<string, unknown>;

export interface PaymentMethodKlarna {
  dob?: null | PaymentMethodKlarnaDob;
}

export type PaymentMethodKonbini = Record<string, unknown>;

export interface PaymentMethodKrCard {
  brand:
    | 'bc'
    | 'citi'
    | 'hana'
    | 'hyundai'
    | 'jeju'
    | 'jeonbuk'
    | 'kakaobank'
    | 'kbank'
    | 'kdbbank'
    | 'kookmin'
    | 'kwangju'
    | 'lotte'
    | 'mg'
    | 'nh'
    | 'post'
    | 'samsung'
    | 'savingsbank'
    | 'shinhan'
    | 'shinhyup'
    | 'suhyup'
    | 'tossbank'
    | 'woori'
    | null;
  last4: null | string;
}

export interface PaymentMethodLink {
  email: null | string;
  persistent_token?: string;
}

export type PaymentMethodMbWay = Record<string, unknown>;

export type PaymentMethodMobilepay = Record<string, unknown>;

export type PaymentMethodMultibanco = Record<string, unknown>;

export interface PaymentMethodNaverPay {
  buyer_id: null | string;
  funding: 'card' | 'points';
}

export interface PaymentMethodNzBankAccount {
  account_holder_name: null | string;
  bank_code: string;
  bank_name: string;
  branch_code: string;
  last4: string;
  suffix: null | string;
}

export type PaymentMethodOxxo = Record<string, unknown>;

export interface PaymentMethodP24 {
  bank:
    | 'alior_bank'
    | 'bank_millennium'
    | 'bank_nowy_bfg_sa'
    | 'bank_pekao_sa'
    | 'banki_spbdzielcze'
    | 'blik'
    | 'bnp_paribas'
    | 'boz'
    | 'citi_handlowy'
    | 'credit_agricole'
    | 'envelobank'
    | 'etransfer_pocztowy24'
    | 'getin_bank'
    | 'ideabank'
    | 'ing'
    | 'inteligo'
    | 'mbank_mtransfer'
    | 'nest_przelew'
    | 'noble_pay'
    | 'pbac_z_ipko'
    | 'plus_bank'
    | 'santander_przelew24'
    | 'tmobile_usbugi_bankowe'
    | 'toyota_bank'
    | 'velobank'
    | 'volkswagen_bank'
    | null;
}

export type PaymentMethodPayByBank = Record<string, unknown>;

export type PaymentMethodPayco = Record<string, unknown>;

export type PaymentMethodPaynow = Record<string, unknown>;

export interface PaymentMethodPaypal {
  country: null | string;
  payer_email: null | string;
  payer_id: null | string;
}

export type PaymentMethodPaypay = Record<string, unknown>;

export interface PaymentMethodPayto {
  bsb_number: null | string;
  last4: null | string;
  pay_id: null | string;
}

export interface PaymentMethodPix {
  fingerprint?: null | string;
}

export type PaymentMethodPromptpay = Record<string, unknown>;

export interface PaymentMethodRadarOptions {
  session?: string;
}

export type PaymentMethodRevolutPay = Record<string, unknown>;

export type PaymentMethodSamsungPay = Record<string, unknown>;

export type PaymentMethodSatispay = Record<string, unknown>;

export type PaymentMethodScalapay = Record<string, unknown>;

export interface PaymentMethodSepaDebit {
  bank_code: null | string;
  branch_code: null | string;
  country: null | string;
  fingerprint: null | string;
  generated_from: null | PaymentMethodSepaDebitGeneratedFrom;
  last4: null | string;
}

export type PaymentMethodSequra = Record<string, unknown>;

export interface PaymentMethodSofort {
  country: null | string;
}

export type PaymentMethodSunbit = Record<string, unknown>;

export type PaymentMethodSwish = Record<string, unknown>;

export type PaymentMethodTwint = Record<string, unknown>;

export interface PaymentMethodUpi {
  vpa: null | string;
}

export interface PaymentMethodUsBankAccount {
  account_holder_type: 'company' | 'individual' | null;
  account_type: 'checking' | 'savings' | null;
  bank_name: null | string;
  financial_connections_account: null | string;
  fingerprint: null | string;
  last4: null | string;
  networks: null | PaymentMethodUsBankAccountNetworks;
  routing_number: null | string;
  status_details: null | PaymentMethodUsBankAccountStatusDetails;
}

export type PaymentMethodWechatPay = Record<string, unknown>;

export type PaymentMethodZip = Record<string, unknown>;

export interface SetupIntentAutomaticPaymentMethods {
  allow_redirects?: 'always' | 'never';
  enabled: null | boolean;
}

export interface SetupIntentLastSetupError {
  advice_code?: string;
  charge?: string;
  code?:
    | 'account_closed'
    | 'account_country_invalid_address'
    | 'account_error_country_change_requires_additional_steps'
    | 'account_information_mismatch'
    | 'account_invalid'
    | 'account_number_invalid'
    | 'account_token_required_for_v2_account'
    | 'acss_debit_session_incomplete'
    | 'action_blocked'
    | 'alipay_upgrade_required'
    | 'amount_too_large'
    | 'amount_too_small'
    | 'anomalous_money_movement_request'
    | 'api_key_expired'
    | 'application_fees_not_allowed'
    | 'approval_required'
    | 'authentication_failure'
    | 'authentication_required'
    | 'balance_insufficient'
    | 'balance_invalid_parameter'
    | 'bank_account_bad_routing_numbers'
    | 'bank_account_declined'
    | 'bank_account_exists'
    | 'bank_account_restricted'
    | 'bank_account_unusable'
    | 'bank_account_unverified'
    | 'bank_account_verification_failed'
    | 'billing_invalid_mandate'
    | 'bitcoin_upgrade_required'
    | 'capability_not_active'
    | 'capture_charge_authorization_expired'
    | 'capture_unauthorized_payment'
    | 'card_decline_rate_limit_exceeded'
    | 'card_declined'
    | 'cardholder_phone_number_required'
    | 'charge_already_captured'
    | 'charge_already_refunded'
    | 'charge_disputed'
    | 'charge_exceeds_source_limit'
    | 'charge_exceeds_transaction_limit'
    | 'charge_expired_for_capture'
    | 'charge_invalid_parameter'
    | 'charge_not_refundable'
    | 'clearing_code_unsupported'
    | 'country_code_invalid'
    | 'country_unsupported'
    | 'coupon_expired'
    | 'customer_max_payment_methods'
    | 'customer_max_subscriptions'
    | 'customer_session_expired'
    | 'customer_tax_location_invalid'
    | 'debit_not_authorized'
    | 'dispute_evidence_page_limit_exceeded'
    | 'email_invalid'
    | 'expired_card'
    | 'expired_payment_method'
    | 'failed_tax_calculation'
    | 'financial_account_balance_does_not_support_currency'
    | 'financial_account_capability_not_enabled'
    | 'financial_account_capability_restricted'
    | 'financial_connections_account_inactive'
    | 'financial_connections_account_pending_account_numbers'
    | 'financial_connections_account_unavailable_account_numbers'
    | 'financial_connections_consent_locale_invalid'
    | 'financial_connections_consent_locale_unsupported'
    | 'financial_connections_no_successful_transaction_refresh'
    | 'forwarding_api_inactive'
    | 'forwarding_api_invalid_parameter'
    | 'forwarding_api_retryable_upstream_error'
    | 'forwarding_api_upstream_connection_error'
    | 'forwarding_api_upstream_connection_timeout'
    | 'forwarding_api_upstream_error'
    | 'idempotency_key_in_use'
    | 'incorrect_address'
    | 'incorrect_cvc'
    | 'incorrect_number'
    | 'incorrect_postal_code'
    | 'incorrect_zip'
    | 'india_recurring_payment_mandate_canceled'
    | 'instant_payouts_config_disabled'
    | 'instant_payouts_currency_disabled'
    | 'instant_payouts_limit_exceeded'
    | 'instant_payouts_unsupported'
    | 'insufficient_funds'
    | 'intent_invalid_state'
    | 'intent_verification_method_missing'
    | 'invalid_canceled_subscription_fields'
    | 'invalid_card_type'
    | 'invalid_characters'
    | 'invalid_charge_amount'
    | 'invalid_cvc'
    | 'invalid_expiry_month'
    | 'invalid_expiry_year'
    | 'invalid_mandate_reference_prefix_format'
    | 'invalid_number'
    | 'invalid_source_usage'
    | 'invalid_tax_location'
    | 'invoice_no_customer_line_items'
    | 'invoice_no_payment_method_types'
    | 'invoice_no_subscription_line_items'
    | 'invoice_not_editable'
    | 'invoice_on_behalf_of_not_editable'
    | 'invoice_payment_intent_requires_action'
    | 'invoice_upcoming_none'
    | 'livemode_mismatch'
    | 'lock_timeout'
    | 'missing'
    | 'no_account'
    | 'not_allowed_on_standard_account'
    | 'out_of_inventory'
    | 'ownership_declaration_not_allowed'
    | 'parameter_invalid_empty'
    | 'parameter_invalid_integer'
    | 'parameter_invalid_string_blank'
    | 'parameter_invalid_string_empty'
    | 'parameter_missing'
    | 'parameter_unknown'
    | 'parameters_exclusive'
    | 'payment_evaluation_on_api_version_not_supported'
    | 'payment_intent_action_required'
    | 'payment_intent_authentication_failure'
    | 'payment_intent_incompatible_payment_method'
    | 'payment_intent_invalid_parameter'
    | 'payment_intent_konbini_rejected_confirmation_number'
    | 'payment_intent_mandate_invalid'
    | 'payment_intent_payment_attempt_expired'
    | 'payment_intent_payment_attempt_failed'
    | 'payment_intent_rate_limit_exceeded'
    | 'payment_intent_unexpected_state'
    | 'payment_method_bank_account_already_verified'
    | 'payment_method_bank_account_blocked'
    | 'payment_method_billing_details_address_missing'
    | 'payment_method_configuration_failures'
    | 'payment_method_currency_mismatch'
    | 'payment_method_customer_decline'
    | 'payment_method_invalid_parameter'
    | 'payment_method_invalid_parameter_testmode'
    | 'payment_method_microdeposit_failed'
    | 'payment_method_microdeposit_processing_error'
    | 'payment_method_microdeposit_verification_amounts_invalid'
    | 'payment_method_microdeposit_verification_amounts_mismatch'
    | 'payment_method_microdeposit_verification_attempts_exceeded'
    | 'payment_method_microdeposit_verification_descriptor_code_mismatch'
    | 'payment_method_microdeposit_verification_timeout'
    | 'payment_method_not_available'
    | 'payment_method_provider_decline'
    | 'payment_method_provider_timeout'
    | 'payment_method_restricted'
    | 'payment_method_unactivated'
    | 'payment_method_unexpected_state'
    | 'payment_method_unsupported_type'
    | 'payout_reconciliation_not_ready'
    | 'payouts_limit_exceeded'
    | 'payouts_not_allowed'
    | 'platform_account_required'
    | 'platform_api_key_expired'
    | 'postal_code_invalid'
    | 'processing_error'
    | 'product_inactive'
    | 'progressive_onboarding_limit_exceeded'
    | 'rate_limit'
    | 'refer_to_customer'
    | 'refund_disputed_payment'
    | 'request_blocked'
    | 'resource_already_exists'
    | 'resource_missing'
    | 'return_intent_already_processed'
    | 'routing_number_invalid'
    | 'secret_key_required'
    | 'sepa_unsupported_account'
    | 'service_period_coupon_with_metered_tiered_item_unsupported'
    | 'setup_attempt_failed'
    | 'setup_intent_authentication_failure'
    | 'setup_intent_invalid_parameter'
    | 'setup_intent_mandate_invalid'
    | 'setup_intent_mobile_wallet_unsupported'
    | 'setup_intent_setup_attempt_expired'
    | 'setup_intent_unexpected_state'
    | 'shipping_address_invalid'
    | 'shipping_calculation_failed'
    | 'siret_invalid'
    | 'sku_inactive'
    | 'smart_disputes_not_available'
    | 'state_unsupported'
    | 'status_transition_invalid'
    | 'storer_capability_missing'
    | 'storer_capability_not_active'
    | 'stripe_tax_inactive'
    | 'subscription_update_trial_after_billing_cycle_anchor'
    | 'tax_id_invalid'
    | 'tax_id_prohibited'
    | 'taxes_calculation_failed'
    | 'terminal_location_country_unsupported'
    | 'terminal_reader_busy'
    | 'terminal_reader_hardware_fault'
    | 'terminal_reader_invalid_location_for_activation'
    | 'terminal_reader_invalid_location_for_payment'
    | 'terminal_reader_offline'
    | 'terminal_reader_timeout'
    | 'testmode_charges_only'
    | 'three_d_secure_authentication_not_supported'
    | 'three_d_secure_authentication_upstream_error'
    | 'tls_version_unsupported'
    | 'token_already_used'
    | 'token_card_network_invalid'
    | 'token_in_use'
    | 'transfer_source_balance_parameters_mismatch'
    | 'transfers_not_allowed'
    | 'url_invalid';
  decline_code?: string;
  doc_url?: string;
  message?: string;
  network_advice_code?: string;
  network_decline_code?: string;
  param?: string;
  payment_intent?: PaymentIntent;
  payment_method?: PaymentMethod;
  payment_method_type?: string;
  request_log_url?: string;
  setup_intent?: SetupIntent;
  source?: BankAccount | Card | Account | Source;
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
}

export interface SetupIntentManagedPayments {
  enabled: boolean;
}

export interface SetupIntentNextAction {
  blik_authorize?: SetupIntentNextActionBlikAuthorize;
  cashapp_handle_redirect_or_display_qr_code?: SetupIntentNextActionCashappHandleRedirectOrDisplayQrCode;
  pix_display_qr_code?: SetupIntentNextActionPixDisplayQrCode;
  redirect_to_url?: SetupIntentNextActionRedirectToUrl;
  type: string;
  upi_handle_redirect_or_display_qr_code?: SetupIntentNextActionUpiHandleRedirectOrDisplayQrCode;
  use_stripe_sdk?: SetupIntentNextActionUseStripeSdk;
  verify_with_microdeposits?: SetupIntentNextActionVerifyWithMicrodeposits;
}

export interface SetupIntentPaymentMethodConfigurationDetails {
  id: string;
  parent: null | string;
}

export interface SetupIntentPaymentMethodOptions {
  acss_debit?: SetupIntentPaymentMethodOptionsAcssDebit;
  amazon_pay?: SetupIntentPaymentMethodOptionsAmazonPay;
  bacs_debit?: SetupIntentPaymentMethodOptionsBacsDebit;
  bizum?: SetupIntentPaymentMethodOptionsBizum;
  blik?: SetupIntentPaymentMethodOptionsBlik;
  card?: SetupIntentPaymentMethodOptionsCard;
  card_present?: SetupIntentPaymentMethodOptionsCardPresent;
  klarna?: SetupIntentPaymentMethodOptionsKlarna;
  link?: SetupIntentPaymentMethodOptionsLink;
  paypal?: SetupIntentPaymentMethodOptionsPaypal;
  payto?: SetupIntentPaymentMethodOptionsPayto;
  pix?: SetupIntentPaymentMethodOptionsPix;
  sepa_debit?: SetupIntentPaymentMethodOptionsSepaDebit;
  upi?: SetupIntentPaymentMethodOptionsUpi;
  us_bank_account?: SetupIntentPaymentMethodOptionsUsBankAccount;
}

export interface PaymentIntentAmountDetails {
  discount_amount?: number;
  error?: PaymentIntentAmountDetailsError;
  line_items?: ApiList<PaymentIntentAmountDetailsLineItem>;
  shipping?: PaymentIntentAmountDetailsShipping;
  tax?: PaymentIntentAmountDetailsTax;
  tip?: PaymentIntentAmountDetailsTip;
}

export interface PaymentIntentAutomaticPaymentMethods {
  allow_redirects?: 'always' | 'never';
  enabled: boolean;
}

export interface PaymentIntentHooks {
  inputs?: PaymentIntentHooksInputs;
}

export interface PaymentIntentLastPaymentError {
  advice_code?: string;
  charge?: string;
  code?:
    | 'account_closed'
    | 'account_country_invalid_address'
    | 'account_error_country_change_requires_additional_steps'
    | 'account_information_mismatch'
    | 'account_invalid'
    | 'account_number_invalid'
    | 'account_token_required_for_v2_account'
    | 'acss_debit_session_incomplete'
    | 'action_blocked'
    | 'alipay_upgrade_required'
    | 'amount_too_large'
    | 'amount_too_small'
    | 'anomalous_money_movement_request'
    | 'api_key_expired'
    | 'application_fees_not_allowed'
    | 'approval_required'
    | 'authentication_failure'
    | 'authentication_required'
    | 'balance_insufficient'
    | 'balance_invalid_parameter'
    | 'bank_account_bad_routing_numbers'
    | 'bank_account_declined'
    | 'bank_account_exists'
    | 'bank_account_restricted'
    | 'bank_account_unusable'
    | 'bank_account_unverified'
    | 'bank_account_verification_failed'
    | 'billing_invalid_mandate'
    | 'bitcoin_upgrade_required'
    | 'capability_not_active'
    | 'capture_charge_authorization_expired'
    | 'capture_unauthorized_payment'
    | 'card_decline_rate_limit_exceeded'
    | 'card_declined'
    | 'cardholder_phone_number_required'
    | 'charge_already_captured'
    | 'charge_already_refunded'
    | 'charge_disputed'
    | 'charge_exceeds_source_limit'
    | 'charge_exceeds_transaction_limit'
    | 'charge_expired_for_capture'
    | 'charge_invalid_parameter'
    | 'charge_not_refundable'
    | 'clearing_code_unsupported'
    | 'country_code_invalid'
    | 'country_unsupported'
    | 'coupon_expired'
    | 'customer_max_payment_methods'
    | 'customer_max_subscriptions'
    | 'customer_session_expired'
    | 'customer_tax_location_invalid'
    | 'debit_not_authorized'
    | 'dispute_evidence_page_limit_exceeded'
    | 'email_invalid'
    | 'expired_card'
    | 'expired_payment_method'
    | 'failed_tax_calculation'
    | 'financial_account_balance_does_not_support_currency'
    | 'financial_account_capability_not_enabled'
    | 'financial_account_capability_restricted'
    | 'financial_connections_account_inactive'
    | 'financial_connections_account_pending_account_numbers'
    | 'financial_connections_account_unavailable_account_numbers'
    | 'financial_connections_consent_locale_invalid'
    | 'financial_connections_consent_locale_unsupported'
    | 'financial_connections_no_successful_transaction_refresh'
    | 'forwarding_api_inactive'
    | 'forwarding_api_invalid_parameter'
    | 'forwarding_api_retryable_upstream_error'
    | 'forwarding_api_upstream_connection_error'
    | 'forwarding_api_upstream_connection_timeout'
    | 'forwarding_api_upstream_error'
    | 'idempotency_key_in_use'
    | 'incorrect_address'
    | 'incorrect_cvc'
    | 'incorrect_number'
    | 'incorrect_postal_code'
    | 'incorrect_zip'
    | 'india_recurring_payment_mandate_canceled'
    | 'instant_payouts_config_disabled'
    | 'instant_payouts_currency_disabled'
    | 'instant_payouts_limit_exceeded'
    | 'instant_payouts_unsupported'
    | 'insufficient_funds'
    | 'intent_invalid_state'
    | 'intent_verification_method_missing'
    | 'invalid_canceled_subscription_fields'
    | 'invalid_card_type'
    | 'invalid_characters'
    | 'invalid_charge_amount'
    | 'invalid_cvc'
    | 'invalid_expiry_month'
    | 'invalid_expiry_year'
    | 'invalid_mandate_reference_prefix_format'
    | 'invalid_number'
    | 'invalid_source_usage'
    | 'invalid_tax_location'
    | 'invoice_no_customer_line_items'
    | 'invoice_no_payment_method_types'
    | 'invoice_no_subscription_line_items'
    | 'invoice_not_editable'
    | 'invoice_on_behalf_of_not_editable'
    | 'invoice_payment_intent_requires_action'
    | 'invoice_upcoming_none'
    | 'livemode_mismatch'
    | 'lock_timeout'
    | 'missing'
    | 'no_account'
    | 'not_allowed_on_standard_account'
    | 'out_of_inventory'
    | 'ownership_declaration_not_allowed'
    | 'parameter_invalid_empty'
    | 'parameter_invalid_integer'
    | 'parameter_invalid_string_blank'
    | 'parameter_invalid_string_empty'
    | 'parameter_missing'
    | 'parameter_unknown'
    | 'parameters_exclusive'
    | 'payment_evaluation_on_api_version_not_supported'
    | 'payment_intent_action_required'
    | 'payment_intent_authentication_failure'
    | 'payment_intent_incompatible_payment_method'
    | 'payment_intent_invalid_parameter'
    | 'payment_intent_konbini_rejected_confirmation_number'
    | 'payment_intent_mandate_invalid'
    | 'payment_intent_payment_attempt_expired'
    | 'payment_intent_payment_attempt_failed'
    | 'payment_intent_rate_limit_exceeded'
    | 'payment_intent_unexpected_state'
    | 'payment_method_bank_account_already_verified'
    | 'payment_method_bank_account_blocked'
    | 'payment_method_billing_details_address_missing'
    | 'payment_method_configuration_failures'
    | 'payment_method_currency_mismatch'
    | 'payment_method_customer_decline'
    | 'payment_method_invalid_parameter'
    | 'payment_method_invalid_parameter_testmode'
    | 'payment_method_microdeposit_failed'
    | 'payment_method_microdeposit_processing_error'
    | 'payment_method_microdeposit_verification_amounts_invalid'
    | 'payment_method_microdeposit_verification_amounts_mismatch'
    | 'payment_method_microdeposit_verification_attempts_exceeded'
    | 'payment_method_microdeposit_verification_descriptor_code_mismatch'
    | 'payment_method_microdeposit_verification_timeout'
    | 'payment_method_not_available'
    | 'payment_method_provider_decline'
    | 'payment_method_provider_timeout'
    | 'payment_method_restricted'
    | 'payment_method_unactivated'
    | 'payment_method_unexpected_state'
    | 'payment_method_unsupported_type'
    | 'payout_reconciliation_not_ready'
    | 'payouts_limit_exceeded'
    | 'payouts_not_allowed'
    | 'platform_account_required'
    | 'platform_api_key_expired'
    | 'postal_code_invalid'
    | 'processing_error'
    | 'product_inactive'
    | 'progressive_onboarding_limit_exceeded'
    | 'rate_limit'
    | 'refer_to_customer'
    | 'refund_disputed_payment'
    | 'request_blocked'
    | 'resource_already_exists'
    | 'resource_missing'
    | 'return_intent_already_processed'
    | 'routing_number_invalid'
    | 'secret_key_required'
    | 'sepa_unsupported_account'
    | 'service_period_coupon_with_metered_tiered_item_unsupported'
    | 'setup_attempt_failed'
    | 'setup_intent_authentication_failure'
    | 'setup_intent_invalid_parameter'
    | 'setup_intent_mandate_invalid'
    | 'setup_intent_mobile_wallet_unsupported'
    | 'setup_intent_setup_attempt_expired'
    | 'setup_intent_unexpected_state'
    | 'shipping_address_invalid'
    | 'shipping_calculation_failed'
    | 'siret_invalid'
    | 'sku_inactive'
    | 'smart_disputes_not_available'
    | 'state_unsupported'
    | 'status_transition_invalid'
    | 'storer_capability_missing'
    | 'storer_capability_not_active'
    | 'stripe_tax_inactive'
    | 'subscription_update_trial_after_billing_cycle_anchor'
    | 'tax_id_invalid'
    | 'tax_id_prohibited'
    | 'taxes_calculation_failed'
    | 'terminal_location_country_unsupported'
    | 'terminal_reader_busy'
    | 'terminal_reader_hardware_fault'
    | 'terminal_reader_invalid_location_for_activation'
    | 'terminal_reader_invalid_location_for_payment'
    | 'terminal_reader_offline'
    | 'terminal_reader_timeout'
    | 'testmode_charges_only'
    | 'three_d_secure_authentication_not_supported'
    | 'three_d_secure_authentication_upstream_error'
    | 'tls_version_unsupported'
    | 'token_already_used'
    | 'token_card_network_invalid'
    | 'token_in_use'
    | 'transfer_source_balance_parameters_mismatch'
    | 'transfers_not_allowed'
    | 'url_invalid';
  decline_code?: string;
  doc_url?: string;
  message?: string;
  network_advice_code?: string;
  network_decline_code?: string;
  param?: string;
  payment_intent?: PaymentIntent;
  payment_method?: PaymentMethod;
  payment_method_type?: string;
  request_log_url?: string;
  setup_intent?: SetupIntent;
  source?: BankAccount | Card | Account | Source;
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
}

export interface PaymentIntentManagedPayments {
  enabled: boolean;
}

export interface PaymentIntentNextAction {
  alipay_handle_redirect?: PaymentIntentNextActionAlipayHandleRedirect;
  blik_authorize?: PaymentIntentNextActionBlikAuthorize;
  boleto_display_details?: PaymentIntentNextActionBoletoDisplayDetails;
  card_await_notification?: PaymentIntentNextActionCardAwaitNotification;
  cashapp_handle_redirect_or_display_qr_code?: PaymentIntentNextActionCashappHandleRedirectOrDisplayQrCode;
  display_bank_transfer_instructions?: PaymentIntentNextActionDisplayBankTransferInstructions;
  klarna_display_qr_code?: PaymentIntentNextActionKlarnaDisplayQrCode;
  konbini_display_details?: PaymentIntentNextActionKonbiniDisplayDetails;
  multibanco_display_details?: PaymentIntentNextActionMultibancoDisplayDetails;
  oxxo_display_details?: PaymentIntentNextActionOxxoDisplayDetails;
  paynow_display_qr_code?: PaymentIntentNextActionPaynowDisplayQrCode;
  pix_display_qr_code?: PaymentIntentNextActionPixDisplayQrCode;
  promptpay_display_qr_code?: PaymentIntentNextActionPromptpayDisplayQrCode;
  redirect_to_url?: PaymentIntentNextActionRedirectToUrl;
  swish_handle_redirect_or_display_qr_code?: PaymentIntentNextActionSwishHandleRedirectOrDisplayQrCode;
  type: string;
  upi_handle_redirect_or_display_qr_code?: PaymentIntentNextActionUpiHandleRedirectOrDisplayQrCode;
  use_stripe_sdk?: PaymentIntentNextActionUseStripeSdk;
  verify_with_microdeposits?: PaymentIntentNextActionVerifyWithMicrodeposits;
  wechat_pay_display_qr_code?: PaymentIntentNextActionWechatPayDisplayQrCode;
  wechat_pay_redirect_to_android_app?: PaymentIntentNextActionWechatPayRedirectToAndroidApp;
  wechat_pay_redirect_to_ios_app?: PaymentIntentNextActionWechatPayRedirectToIosApp;
}

export interface PaymentIntentPaymentDetails {
  customer_reference: null | string;
  order_reference: null | string;
}

export interface PaymentIntentPaymentMethodConfigurationDetails {
  id: string;
  parent: null | string;
}

export interface PaymentIntentPaymentMethodOptions {
  acss_debit?: PaymentIntentPaymentMethodOptionsAcssDebit;
  affirm?: PaymentIntentPaymentMethodOptionsAffirm;
  afterpay_clearpay?: PaymentIntentPaymentMethodOptionsAfterpayClearpay;
  alipay?: PaymentIntentPaymentMethodOptionsAlipay;
  alma?: PaymentIntentPaymentMethodOptionsAlma;
  amazon_pay?: PaymentIntentPaymentMethodOptionsAmazonPay;
  au_becs_debit?: PaymentIntentPaymentMethodOptionsAuBecsDebit;
  bacs_debit?: PaymentIntentPaymentMethodOptionsBacsDebit;
  bancontact?: PaymentIntentPaymentMethodOptionsBancontact;
  billie?: PaymentIntentPaymentMethodOptionsBillie;
  bizum?: PaymentIntentPaymentMethodOptionsBizum;
  blik?: PaymentIntentPaymentMethodOptionsBlik;
  boleto?: PaymentIntentPaymentMethodOptionsBoleto;
  card?: PaymentIntentPaymentMethodOptionsCard;
  card_present?: PaymentIntentPaymentMethodOptionsCardPresent;
  cashapp?: PaymentIntentPaymentMethodOptionsCashapp;
  crypto?: PaymentIntentPaymentMethodOptionsCrypto;
  customer_balance?: PaymentIntentPaymentMethodOptionsCustomerBalance;
  eps?: PaymentIntentPaymentMethodOptionsEps;
  fpx?: PaymentIntentPaymentMethodOptionsFpx;
  giropay?: PaymentIntentPaymentMethodOptionsGiropay;
  grabpay?: PaymentIntentPaymentMethodOptionsGrabpay;
  ideal?: PaymentIntentPaymentMethodOptionsIdeal;
  interac_present?: PaymentIntentPaymentMethodOptionsInteracPresent;
  kakao_pay?: PaymentIntentPaymentMethodOptionsKakaoPay;
  klarna?: PaymentIntentPaymentMethodOptionsKlarna;
  konbini?: PaymentIntentPaymentMethodOptionsKonbini;
  kr_card?: PaymentIntentPaymentMethodOptionsKrCard;
  link?: PaymentIntentPaymentMethodOptionsLink;
  mb_way?: PaymentIntentPaymentMethodOptionsMbWay;
  mobilepay?: PaymentIntentPaymentMethodOptionsMobilepay;
  multibanco?: PaymentIntentPaymentMethodOptionsMultibanco;
  naver_pay?: PaymentIntentPaymentMethodOptionsNaverPay;
  nz_bank_account?: PaymentIntentPaymentMethodOptionsNzBankAccount;
  oxxo?: PaymentIntentPaymentMethodOptionsOxxo;
  p24?: PaymentIntentPaymentMethodOptionsP24;
  pay_by_bank?: PaymentIntentPaymentMethodOptionsPayByBank;
  payco?: PaymentIntentPaymentMethodOptionsPayco;
  paynow?: PaymentIntentPaymentMethodOptionsPaynow;
  paypal?: PaymentIntentPaymentMethodOptionsPaypal;
  paypay?: PaymentIntentPaymentMethodOptionsPaypay;
  payto?: PaymentIntentPaymentMethodOptionsPayto;
  pix?: PaymentIntentPaymentMethodOptionsPix;
  promptpay?: PaymentIntentPaymentMethodOptionsPromptpay;
  revolut_pay?: PaymentIntentPaymentMethodOptionsRevolutPay;
  samsung_pay?: PaymentIntentPaymentMethodOptionsSamsungPay;
  satispay?: PaymentIntentPaymentMethodOptionsSatispay;
  scalapay?: PaymentIntentPaymentMethodOptionsScalapay;
  sepa_debit?: PaymentIntentPaymentMethodOptionsSepaDebit;
  sequra?: PaymentIntentPaymentMethodOptionsSequra;
  sofort?: PaymentIntentPaymentMethodOptionsSofort;
  sunbit?: PaymentIntentPaymentMethodOptionsSunbit;
  swish?: PaymentIntentPaymentMethodOptionsSwish;
  twint?: PaymentIntentPaymentMethodOptionsTwint;
  upi?: PaymentIntentPaymentMethodOptionsUpi;
  us_bank_account?: PaymentIntentPaymentMethodOptionsUsBankAccount;
  wechat_pay?: PaymentIntentPaymentMethodOptionsWechatPay;
  zip?: PaymentIntentPaymentMethodOptionsZip;
}

export interface PaymentIntentPresentmentDetails {
  presentment_amount: number;
  presentment_currency: string;
}

export interface PaymentIntentProcessing {
  card?: PaymentIntentProcessingCard;
  type: 'card';
}

export interface PaymentIntentShipping {
  address?: Address;
  carrier?: null | string;
  name?: string;
  phone?: null | string;
  tracking_number?: null | string;
}

export interface PaymentIntentTransferData {
  amount?: number;
  description?: string;
  destination: string;
  metadata?: Metadata;
  payment_data?: PaymentIntentTransferDataPaymentData;
}

export interface ChargeBillingDetails {
  address: null | Address;
  email: null | string;
  name: null | string;
  phone: null | string;
  tax_id: null | string;
}

export interface ChargeFraudDetails {
  stripe_report?: string;
  user_report?: string;
}

export interface ChargeLevel3 {
  customer_reference?: string;
  line_items: ChargeLevel3LineItem[];
  merchant_reference: string;
  shipping_address_zip?: string;
  shipping_amount?: number;
  shipping_from_zip?: string;
}

export interface ChargeOutcome {
  advice_code: 'confirm_card_data' | 'do_not_try_again' | 'try_again_later' | null;
  network_advice_code: null | string;
  network_decline_code: null | string;
  network_status: null | string;
  reason: null | string;
  risk_level?: string;
  risk_score?: number;
  rule?: string;
  seller_message: null | string;
  type: string;
}

export interface ChargePaymentMethodDetails {
  ach_credit_transfer?: ChargePaymentMethodDetailsAchCreditTransfer;
  ach_debit?: ChargePaymentMethodDetailsAchDebit;
  acss_debit?: ChargePaymentMethodDetailsAcssDebit;
  affirm?: ChargePaymentMethodDetailsAffirm;
  afterpay_clearpay?: ChargePaymentMethodDetailsAfterpayClearpay;
  alipay?: ChargePaymentMethodDetailsAlipay;
  alma?: ChargePaymentMethodDetailsAlma;
  amazon_pay?: ChargePaymentMethodDetailsAmazonPay;
  au_becs_debit?: ChargePaymentMethodDetailsAuBecsDebit;
  bacs_debit?: ChargePaymentMethodDetailsBacsDebit;
  bancontact?: ChargePaymentMethodDetailsBancontact;
  billie?: ChargePaymentMethodDetailsBillie;
  bizum?: ChargePaymentMethodDetailsBizum;
  blik?: ChargePaymentMethodDetailsBlik;
  boleto?: ChargePaymentMethodDetailsBoleto;
  card?: ChargePaymentMethodDetailsCard;
  card_present?: ChargePaymentMethodDetailsCardPresent;
  cashapp?: ChargePaymentMethodDetailsCashapp;
  crypto?: ChargePaymentMethodDetailsCrypto;
  customer_balance?: ChargePaymentMethodDetailsCustomerBalance;
  eps?: ChargePaymentMethodDetailsEps;
  fpx?: ChargePaymentMethodDetailsFpx;
  giropay?: ChargePaymentMethodDetailsGiropay;
  grabpay?: ChargePaymentMethodDetailsGrabpay;
  ideal?: ChargePaymentMethodDetailsIdeal;
  interac_present?: ChargePaymentMethodDetailsInteracPresent;
  kakao_pay?: ChargePaymentMethodDetailsKakaoPay;
  klarna?: ChargePaymentMethodDetailsKlarna;
  konbini?: ChargePaymentMethodDetailsKonbini;
  kr_card?: ChargePaymentMethodDetailsKrCard;
  link?: ChargePaymentMethodDetailsLink;
  mb_way?: ChargePaymentMethodDetailsMbWay;
  mobilepay?: ChargePaymentMethodDetailsMobilepay;
  multibanco?: ChargePaymentMethodDetailsMultibanco;
  naver_pay?: ChargePaymentMethodDetailsNaverPay;
  nz_bank_account?: ChargePaymentMethodDetailsNzBankAccount;
  oxxo?: ChargePaymentMethodDetailsOxxo;
  p24?: ChargePaymentMethodDetailsP24;
  pay_by_bank?: ChargePaymentMethodDetailsPayByBank;
  payco?: ChargePaymentMethodDetailsPayco;
  paynow?: ChargePaymentMethodDetailsPaynow;
  paypal?: ChargePaymentMethodDetailsPaypal;
  paypay?: ChargePaymentMethodDetailsPaypay;
  payto?: ChargePaymentMethodDetailsPayto;
  pix?: ChargePaymentMethodDetailsPix;
  promptpay?: ChargePaymentMethodDetailsPromptpay;
  revolut_pay?: ChargePaymentMethodDetailsRevolutPay;
  samsung_pay?: ChargePaymentMethodDetailsSamsungPay;
  satispay?: ChargePaymentMethodDetailsSatispay;
  scalapay?: ChargePaymentMethodDetailsScalapay;
  sepa_credit_transfer?: ChargePaymentMethodDetailsSepaCreditTransfer;
  sepa_debit?: ChargePaymentMethodDetailsSepaDebit;
  sequra?: ChargePaymentMethodDetailsSequra;
  sofort?: ChargePaymentMethodDetailsSofort;
  stripe_account?: ChargePaymentMethodDetailsStripeAccount;
  sunbit?: ChargePaymentMethodDetailsSunbit;
  swish?: ChargePaymentMethodDetailsSwish;
  twint?: ChargePaymentMethodDetailsTwint;
  type: string;
  upi?: ChargePaymentMethodDetailsUpi;
  us_bank_account?: ChargePaymentMethodDetailsUsBankAccount;
  wechat?: ChargePaymentMethodDetailsWechat;
  wechat_pay?: ChargePaymentMethodDetailsWechatPay;
  zip?: ChargePaymentMethodDetailsZip;
}

export interface ChargePresentmentDetails {
  presentment_amount: number;
  presentment_currency: string;
}

export interface ChargeRadarOptions {
  session?: string;
}

export interface ChargeShipping {
  address?: Address;
  carrier?: null | string;
  name?: string;
  phone?: null | string;
  tracking_number?: null | string;
}

export interface ChargeTransferData {
  amount: null | number;
  destination: string;
}

export interface RefundDestinationDetails {
  affirm?: RefundDestinationDetailsAffirm;
  afterpay_clearpay?: RefundDestinationDetailsAfterpayClearpay;
  alipay?: RefundDestinationDetailsAlipay;
  alma?: RefundDestinationDetailsAlma;
  amazon_pay?: RefundDestinationDetailsAmazonPay;
  au_bank_transfer?: RefundDestinationDetailsAuBankTransfer;
  blik?: RefundDestinationDetailsBlik;
  br_bank_transfer?: RefundDestinationDetailsBrBankTransfer;
  card?: RefundDestinationDetailsCard;
  cashapp?: RefundDestinationDetailsCashapp;
  crypto?: RefundDestinationDetailsCrypto;
  customer_cash_balance?: RefundDestinationDetailsCustomerCashBalance;
  eps?: RefundDestinationDetailsEps;
  eu_bank_transfer?: RefundDestinationDetailsEuBankTransfer;
  gb_bank_transfer?: RefundDestinationDetailsGbBankTransfer;
  giropay?: RefundDestinationDetailsGiropay;
  grabpay?: RefundDestinationDetailsGrabpay;
  jp_bank_transfer?: RefundDestinationDetailsJpBankTransfer;
  klarna?: RefundDestinationDetailsKlarna;
  mb_way?: RefundDestinationDetailsMbWay;
  multibanco?: RefundDestinationDetailsMultibanco;
  mx_bank_transfer?: RefundDestinationDetailsMxBankTransfer;
  nz_bank_transfer?: RefundDestinationDetailsNzBankTransfer;
  p24?: RefundDestinationDetailsP24;
  paynow?: RefundDestinationDetailsPaynow;
  paypal?: RefundDestinationDetailsPaypal;
  pix?: RefundDestinationDetailsPix;
  revolut?: RefundDestinationDetailsRevolut;
  scalapay?: RefundDestinationDetailsScalapay;
  sofort?: RefundDestinationDetailsSofort;
  swish?: RefundDestinationDetailsSwish;
  th_bank_transfer?: RefundDestinationDetailsThBankTransfer;
  twint?: RefundDestinationDetailsTwint;
  type: string;
  us_bank_transfer?: RefundDestinationDetailsUsBankTransfer;
  wechat_pay?: RefundDestinationDetailsWechatPay;
  zip?: RefundDestinationDetailsZip;
}

export interface RefundNextAction {
  display_details?: RefundNextActionDisplayDetails;
  type: string;
}

export interface RefundPresentmentDetails {
  presentment_amount: number;
  presentment_currency: string;
}

export interface DisputeEvidence {
  access_activity_log: null | string;
  appeal?: null | DisputeEvidenceAppeal;
  billing_address: null | string;
  cancellation_policy: null | string;
  cancellation_policy_disclosure: null | string;
  cancellation_rebuttal: null | string;
  customer_communication: null | string;
  customer_email_address: null | string;
  customer_name: null | string;
  customer_purchase_ip: null | string;
  customer_signature: null | string;
  duplicate_charge_documentation: null | string;
  duplicate_charge_explanation: null | string;
  duplicate_charge_id: null | string;
  enhanced_evidence: DisputeEvidenceEnhancedEvidence;
  product_description: null | string;
  receipt: null | string;
  refund_policy: null | string;
  refund_policy_disclosure: null | string;
  refund_refusal_explanation: null | string;
  service_date: null | string;
  service_documentation: null | string;
  shipping_address: null | string;
  shipping_carrier: null | string;
  shipping_date: null | string;
  shipping_documentation: null | string;
  shipping_tracking_number: null | string;
  uncategorized_file: null | string;
  uncategorized_text: null | string;
}

export interface DisputeEvidenceDetails {
  due_by: null | number;
  enhanced_eligibility: DisputeEvidenceDetailsEnhancedEligibility;
  has_evidence: boolean;
  past_due: boolean;
  submission_count: number;
  submission_method: 'manual' | 'not_submitted' | 'smart_disputes';
}

export interface DisputePaymentMethodDetails {
  amazon_pay?: DisputePaymentMethodDetailsAmazonPay;
  card?: DisputePaymentMethodDetailsCard;
  klarna?: DisputePaymentMethodDetailsKlarna;
  paypal?: DisputePaymentMethodDetailsPaypal;
  type: 'amazon_pay' | 'card' | 'klarna' | 'paypal';
}

export interface BalanceTransactionFeeDetail {
  amount: number;
  application: null | string;
  currency: string;
  description: null | string;
  type: string;
}

export interface PayoutTraceId {
  status: string;
  value: null | string;
}

export interface EventData {
  object: EventDataObject;
  previous_attributes?: EventDataPreviousAttributes;
}

export interface EventRequest {
  id: null | string;
  idempotency_key: null | string;
}

export interface InvoiceAutomaticTax {
  disabled_reason: 'finalization_requires_location_inputs' | 'finalization_system_error' | null;
  enabled: boolean;
  liability: null | InvoiceAutomaticTaxLiability;
  provider: null | string;
  status: 'complete' | 'failed' | 'requires_location_inputs' | null;
}

export interface InvoiceConfirmationSecret {
  client_secret: string;
  type: string;
}

export interface InvoiceCustomField {
  name: string;
  value: string;
}

export interface InvoiceCustomerShipping {
  address?: Address;
  carrier?: null | string;
  name?: string;
  phone?: null | string;
  tracking_number?: null | string;
}

export interface InvoiceCustomerTaxId {
  type:
    | 'ad_nrt'
    | 'ae_trn'
    | 'al_tin'
    | 'am_tin'
    | 'ao_tin'
    | 'ar_cuit'
    | 'au_abn'
    | 'au_acn'
    | 'au_arn'
    | 'au_wpn'
    | 'aw_tin'
    | 'az_tin'
    | 'ba_tin'
    | 'bb_tin'
    | 'bd_bin'
    | 'bf_ifu'
    | 'bg_uic'
    | 'bh_vat'
    | 'bj_ifu'
    | 'bo_tin'
    | 'br_cnpj'
    | 'br_cpf'
    | 'bs_tin'
    | 'bw_vat'
    | 'by_tin'
    | 'ca_bn'
    | 'ca_gst_hst'
    | 'ca_pst_bc'
    | 'ca_pst_mb'
    | 'ca_pst_sk'
    | 'ca_qst'
    | 'cd_nif'
    | 'ch_uid'
    | 'ch_vat'
    | 'ci_vat'
    | 'cl_tin'
    | 'cm_niu'
    | 'cn_tin'
    | 'co_nit'
    | 'cr_tin'
    | 'cv_nif'
    | 'cz_dic'
    | 'de_stn'
    | 'do_rcn'
    | 'ec_ruc'
    | 'eg_tin'
    | 'es_cif'
    | 'et_tin'
    | 'eu_oss_vat'
    | 'eu_vat'
    | 'fo_vat'
    | 'fr_siren'
    | 'fr_siret'
    | 'fr_spi'
    | 'gb_vat'
    | 'ge_vat'
    | 'gh_tin'
    | 'gi_tin'
    | 'gn_nif'
    | 'hk_br'
    | 'hr_oib'
    | 'hu_tin'
    | 'ic_nif'
    | 'id_npwp'
    | 'il_vat'
    | 'in_gst'
    | 'is_kt'
    | 'is_vat'
    | 'it_cf'
    | 'jp_cn'
    | 'jp_rn'
    | 'jp_trn'
    | 'ke_pin'
    | 'kg_tin'
    | 'kh_tin'
    | 'kr_brn'
    | 'kz_bin'
    | 'la_tin'
    | 'li_uid'
    | 'li_vat'
    | 'lk_vat'
    | 'ma_vat'
    | 'md_cf'
    | 'md_vat'
    | 'me_pib'
    | 'mk_vat'
    | 'mr_nif'
    | 'mu_vat'
    | 'mx_rfc'
    | 'my_frp'
    | 'my_itn'
    | 'my_sst'
    | 'mz_nuit'
    | 'ng_tin'
    | 'no_vat'
    | 'no_voec'
    | 'np_pan'
    | 'nz_bn'
    | 'nz_gst'
    | 'om_vat'
    | 'pe_ruc'
    | 'ph_tin'
    | 'pl_nip'
    | 'pt_nif'
    | 'py_ruc'
    | 'ro_tin'
    | 'rs_pib'
    | 'ru_inn'
    | 'ru_kpp'
    | 'sa_vat'
    | 'sg_gst'
    | 'sg_uen'
    | 'si_tin'
    | 'sm_coe'
    | 'sn_ninea'
    | 'sr_fin'
    | 'sv_nit'
    | 'th_vat'
    | 'tj_tin'
    | 'tr_tin'
    | 'tt_bir'
    | 'tt_vat'
    | 'tw_vat'
    | 'tz_vat'
    | 'ua_vat'
    | 'ug_tin'
    | 'unknown'
    | 'us_ein'
    | 'uy_ruc'
    | 'uz_tin'
    | 'uz_vat'
    | 've_rif'
    | 'vn_tin'
    | 'za_vat'
    | 'zm_tin'
    | 'zw_tin';
  value: null | string;
}

export interface InvoiceFromInvoice {
  action: string;
  invoice: string;
}

export interface InvoiceIssuer {
  account?: string;
  type: 'account' | 'self';
}

export interface InvoiceLastFinalizationError {
  advice_code?: string;
  charge?: string;
  code?:
    | 'account_closed'
    | 'account_country_invalid_address'
    | 'account_error_country_change_requires_additional_steps'
    | 'account_information_mismatch'
    | 'account_invalid'
    | 'account_number_invalid'
    | 'account_token_required_for_v2_account'
    | 'acss_debit_session_incomplete'
    | 'action_blocked'
    | 'alipay_upgrade_required'
    | 'amount_too_large'
    | 'amount_too_small'
    | 'anomalous_money_movement_request'
    | 'api_key_expired'
    | 'application_fees_not_allowed'
    | 'approval_required'
    | 'authentication_failure'
    | 'authentication_required'
    | 'balance_insufficient'
    | 'balance_invalid_parameter'
    | 'bank_account_bad_routing_numbers'
    | 'bank_account_declined'
    | 'bank_account_exists'
    | 'bank_account_restricted'
    | 'bank_account_unusable'
    | 'bank_account_unverified'
    | 'bank_account_verification_failed'
    | 'billing_invalid_mandate'
    | 'bitcoin_upgrade_required'
    | 'capability_not_active'
    | 'capture_charge_authorization_expired'
    | 'capture_unauthorized_payment'
    | 'card_decline_rate_limit_exceeded'
    | 'card_declined'
    | 'cardholder_phone_number_required'
    | 'charge_already_captured'
    | 'charge_already_refunded'
    | 'charge_disputed'
    | 'charge_exceeds_source_limit'
    | 'charge_exceeds_transaction_limit'
    | 'charge_expired_for_capture'
    | 'charge_invalid_parameter'
    | 'charge_not_refundable'
    | 'clearing_code_unsupported'
    | 'country_code_invalid'
    | 'country_unsupported'
    | 'coupon_expired'
    | 'customer_max_payment_methods'
    | 'customer_max_subscriptions'
    | 'customer_session_expired'
    | 'customer_tax_location_invalid'
    | 'debit_not_authorized'
    | 'dispute_evidence_page_limit_exceeded'
    | 'email_invalid'
    | 'expired_card'
    | 'expired_payment_method'
    | 'failed_tax_calculation'
    | 'financial_account_balance_does_not_support_currency'
    | 'financial_account_capability_not_enabled'
    | 'financial_account_capability_restricted'
    | 'financial_connections_account_inactive'
    | 'financial_connections_account_pending_account_numbers'
    | 'financial_connections_account_unavailable_account_numbers'
    | 'financial_connections_consent_locale_invalid'
    | 'financial_connections_consent_locale_unsupported'
    | 'financial_connections_no_successful_transaction_refresh'
    | 'forwarding_api_inactive'
    | 'forwarding_api_invalid_parameter'
    | 'forwarding_api_retryable_upstream_error'
    | 'forwarding_api_upstream_connection_error'
    | 'forwarding_api_upstream_connection_timeout'
    | 'forwarding_api_upstream_error'
    | 'idempotency_key_in_use'
    | 'incorrect_address'
    | 'incorrect_cvc'
    | 'incorrect_number'
    | 'incorrect_postal_code'
    | 'incorrect_zip'
    | 'india_recurring_payment_mandate_canceled'
    | 'instant_payouts_config_disabled'
    | 'instant_payouts_currency_disabled'
    | 'instant_payouts_limit_exceeded'
    | 'instant_payouts_unsupported'
    | 'insufficient_funds'
    | 'intent_invalid_state'
    | 'intent_verification_method_missing'
    | 'invalid_canceled_subscription_fields'
    | 'invalid_card_type'
    | 'invalid_characters'
    | 'invalid_charge_amount'
    | 'invalid_cvc'
    | 'invalid_expiry_month'
    | 'invalid_expiry_year'
    | 'invalid_mandate_reference_prefix_format'
    | 'invalid_number'
    | 'invalid_source_usage'
    | 'invalid_tax_location'
    | 'invoice_no_customer_line_items'
    | 'invoice_no_payment_method_types'
    | 'invoice_no_subscription_line_items'
    | 'invoice_not_editable'
    | 'invoice_on_behalf_of_not_editable'
    | 'invoice_payment_intent_requires_action'
    | 'invoice_upcoming_none'
    | 'livemode_mismatch'
    | 'lock_timeout'
    | 'missing'
    | 'no_account'
    | 'not_allowed_on_standard_account'
    | 'out_of_inventory'
    | 'ownership_declaration_not_allowed'
    | 'parameter_invalid_empty'
    | 'parameter_invalid_integer'
    | 'parameter_invalid_string_blank'
    | 'parameter_invalid_string_empty'
    | 'parameter_missing'
    | 'parameter_unknown'
    | 'parameters_exclusive'
    | 'payment_evaluation_on_api_version_not_supported'
    | 'payment_intent_action_required'
    | 'payment_intent_authentication_failure'
    | 'payment_intent_incompatible_payment_method'
    | 'payment_intent_invalid_parameter'
    | 'payment_intent_konbini_rejected_confirmation_number'
    | 'payment_intent_mandate_invalid'
    | 'payment_intent_payment_attempt_expired'
    | 'payment_intent_payment_attempt_failed'
    | 'payment_intent_rate_limit_exceeded'
    | 'payment_intent_unexpected_state'
    | 'payment_method_bank_account_already_verified'
    | 'payment_method_bank_account_blocked'
    | 'payment_method_billing_details_address_missing'
    | 'payment_method_configuration_failures'
    | 'payment_method_currency_mismatch'
    | 'payment_method_customer_decline'
    | 'payment_method_invalid_parameter'
    | 'payment_method_invalid_parameter_testmode'
    | 'payment_method_microdeposit_failed'
    | 'payment_method_microdeposit_processing_error'
    | 'payment_method_microdeposit_verification_amounts_invalid'
    | 'payment_method_microdeposit_verification_amounts_mismatch'
    | 'payment_method_microdeposit_verification_attempts_exceeded'
    | 'payment_method_microdeposit_verification_descriptor_code_mismatch'
    | 'payment_method_microdeposit_verification_timeout'
    | 'payment_method_not_available'
    | 'payment_method_provider_decline'
    | 'payment_method_provider_timeout'
    | 'payment_method_restricted'
    | 'payment_method_unactivated'
    | 'payment_method_unexpected_state'
    | 'payment_method_unsupported_type'
    | 'payout_reconciliation_not_ready'
    | 'payouts_limit_exceeded'
    | 'payouts_not_allowed'
    | 'platform_account_required'
    | 'platform_api_key_expired'
    | 'postal_code_invalid'
    | 'processing_error'
    | 'product_inactive'
    | 'progressive_onboarding_limit_exceeded'
    | 'rate_limit'
    | 'refer_to_customer'
    | 'refund_disputed_payment'
    | 'request_blocked'
    | 'resource_already_exists'
    | 'resource_missing'
    | 'return_intent_already_processed'
    | 'routing_number_invalid'
    | 'secret_key_required'
    | 'sepa_unsupported_account'
    | 'service_period_coupon_with_metered_tiered_item_unsupported'
    | 'setup_attempt_failed'
    | 'setup_intent_authentication_failure'
    | 'setup_intent_invalid_parameter'
    | 'setup_intent_mandate_invalid'
    | 'setup_intent_mobile_wallet_unsupported'
    | 'setup_intent_setup_attempt_expired'
    | 'setup_intent_unexpected_state'
    | 'shipping_address_invalid'
    | 'shipping_calculation_failed'
    | 'siret_invalid'
    | 'sku_inactive'
    | 'smart_disputes_not_available'
    | 'state_unsupported'
    | 'status_transition_invalid'
    | 'storer_capability_missing'
    | 'storer_capability_not_active'
    | 'stripe_tax_inactive'
    | 'subscription_update_trial_after_billing_cycle_anchor'
    | 'tax_id_invalid'
    | 'tax_id_prohibited'
    | 'taxes_calculation_failed'
    | 'terminal_location_country_unsupported'
    | 'terminal_reader_busy'
    | 'terminal_reader_hardware_fault'
    | 'terminal_reader_invalid_location_for_activation'
    | 'terminal_reader_invalid_location_for_payment'
    | 'terminal_reader_offline'
    | 'terminal_reader_timeout'
    | 'testmode_charges_only'
    | 'three_d_secure_authentication_not_supported'
    | 'three_d_secure_authentication_upstream_error'
    | 'tls_version_unsupported'
    | 'token_already_used'
    | 'token_card_network_invalid'
    | 'token_in_use'
    | 'transfer_source_balance_parameters_mismatch'
    | 'transfers_not_allowed'
    | 'url_invalid';
  decline_code?: string;
  doc_url?: string;
  message?: string;
  network_advice_code?: string;
  network_decline_code?: string;
  param?: string;
  payment_intent?: PaymentIntent;
  payment_method?: PaymentMethod;
  payment_method_type?: string;
  request_log_url?: string;
  setup_intent?: SetupIntent;
  source?: BankAccount | Card | Account | Source;
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
}

export interface InvoiceParent {
  quote_details: null | InvoiceParentQuoteDetails;
  subscription_details: null | InvoiceParentSubscriptionDetails;
  type: 'quote_details' | 'subscription_details';
}

export interface InvoicePaymentSettings {
  default_mandate: null | string;
  payment_method_options: null | InvoicePaymentSettingsPaymentMethodOptions;
  payment_method_types: null | Array<
    | 'ach_credit_transfer'
    | 'ach_debit'
    | 'acss_debit'
    | 'affirm'
    | 'alipay'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'blik'
    | 'boleto'
    | 'card'
    | 'cashapp'
    | 'crypto'
    | 'custom'
    | 'customer_balance'
    | 'eps'
    | 'fpx'
    | 'giropay'
    | 'grabpay'
    | 'ideal'
    | 'jp_credit_transfer'
    | 'kakao_pay'
    | 'klarna'
    | 'konbini'
    | 'kr_card'
    | 'link'
    | 'mb_way'
    | 'multibanco'
    | 'naver_pay'
    | 'nz_bank_account'
    | 'p24'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'revolut_pay'
    | 'satispay'
    | 'sepa_credit_transfer'
    | 'sepa_debit'
    | 'sequra'
    | 'sofort'
    | 'swish'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'wechat_pay'
  >;
}

export interface InvoiceRendering {
  amount_tax_display: null | string;
  pdf: null | InvoiceRenderingPdf;
  template: null | string;
  template_version: null | number;
}

export interface InvoiceShippingCost {
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  shipping_rate: null | string;
  taxes?: InvoiceShippingCostTax[];
}

export interface InvoiceShippingDetails {
  address?: Address;
  carrier?: null | string;
  name?: string;
  phone?: null | string;
  tracking_number?: null | string;
}

export interface InvoiceStatusDetails {
  uncollectible?: InvoiceStatusDetailsUncollectible;
}

export interface InvoiceStatusTransitions {
  finalized_at: null | number;
  marked_uncollectible_at: null | number;
  paid_at: null | number;
  voided_at: null | number;
}

export interface InvoiceThresholdReason {
  amount_gte: null | number;
  item_reasons: InvoiceThresholdReasonItemReason[];
}

export interface InvoiceTotalDiscountAmount {
  amount: number;
  discount: string;
}

export interface InvoiceTotalPretaxCreditAmount {
  amount: number;
  credit_balance_transaction?: null | string;
  discount?: string;
  type: 'credit_balance_transaction' | 'discount';
}

export interface InvoiceTotalTax {
  amount: number;
  tax_behavior: 'exclusive' | 'inclusive';
  tax_rate_details: null | InvoiceTotalTaxTaxRateDetails;
  taxability_reason:
    | 'customer_exempt'
    | 'not_available'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated';
  taxable_amount: null | number;
  type: 'tax_rate_details';
}

export interface LineItemDiscountAmount {
  amount: number;
  discount: string;
}

export interface LineItemParent {
  invoice_item_details: null | LineItemParentInvoiceItemDetails;
  subscription_item_details: null | LineItemParentSubscriptionItemDetails;
  type: 'invoice_item_details' | 'subscription_item_details';
}

export interface LineItemPeriod {
  end: number;
  start: number;
}

export interface LineItemPretaxCreditAmount {
  amount: number;
  credit_balance_transaction?: null | string;
  discount?: string;
  type: 'credit_balance_transaction' | 'discount';
}

export interface LineItemPricing {
  price_details?: LineItemPricingPriceDetails;
  type: 'price_details';
  unit_amount_decimal: null | string;
}

export interface LineItemTax {
  amount: number;
  tax_behavior: 'exclusive' | 'inclusive';
  tax_rate_details: null | LineItemTaxTaxRateDetails;
  taxability_reason:
    | 'customer_exempt'
    | 'not_available'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated';
  taxable_amount: null | number;
  type: 'tax_rate_details';
}

export interface InvoiceitemInvoicingRule {
  type: 'defer_until_credited_items_resolved';
}

export interface InvoiceitemParent {
  subscription_details: null | InvoiceitemParentSubscriptionDetails;
  type: 'subscription_details';
}

export interface InvoiceitemPeriod {
  end: number;
  start: number;
}

export interface InvoiceitemPricing {
  price_details?: InvoiceitemPricingPriceDetails;
  type: 'price_details';
  unit_amount_decimal: null | string;
}

export interface InvoiceitemProrationDetails {
  credited_items: null | InvoiceitemProrationDetailsCreditedItems;
  discount_amounts: InvoiceitemProrationDetailsDiscountAmount[];
}

export interface SubscriptionAutomaticTax {
  disabled_reason: 'requires_location_inputs' | null;
  enabled: boolean;
  liability: null | SubscriptionAutomaticTaxLiability;
}

export interface SubscriptionBillingCycleAnchorConfig {
  day_of_month: number;
  hour: null | number;
  minute: null | number;
  month: null | number;
  second: null | number;
}

export interface SubscriptionBillingMode {
  flexible: null | SubscriptionBillingModeFlexible;
  type: 'classic' | 'flexible';
  updated_at?: number;
}

export interface SubscriptionBillingSchedule {
  applies_to: null | SubscriptionBillingScheduleAppliesTo[];
  bill_until: SubscriptionBillingScheduleBillUntil;
  key: string;
}

export interface SubscriptionBillingThresholds {
  amount_gte: null | number;
  reset_billing_cycle_anchor: null | boolean;
}

export interface SubscriptionCancellationDetails {
  comment: null | string;
  feedback:
    | 'customer_service'
    | 'low_quality'
    | 'missing_features'
    | 'other'
    | 'switched_service'
    | 'too_complex'
    | 'too_expensive'
    | 'unused'
    | null;
  feedback_option: null | string;
  reason:
    | 'canceled_by_retention_policy'
    | 'cancellation_requested'
    | 'payment_disputed'
    | 'payment_failed'
    | null;
}

export interface SubscriptionInvoiceSettings {
  account_tax_ids: null | string[];
  custom_fields: null | SubscriptionInvoiceSettingsCustomField[];
  description: null | string;
  footer: null | string;
  issuer: SubscriptionInvoiceSettingsIssuer;
}

export interface SubscriptionManagedPayments {
  enabled: boolean;
}

export interface SubscriptionPauseCollection {
  behavior: 'keep_as_draft' | 'mark_uncollectible' | 'void';
  resumes_at: null | number;
}

export interface SubscriptionPaymentSettings {
  payment_method_options: null | SubscriptionPaymentSettingsPaymentMethodOptions;
  payment_method_types: null | Array<
    | 'ach_credit_transfer'
    | 'ach_debit'
    | 'acss_debit'
    | 'affirm'
    | 'alipay'
    | 'amazon_pay'
    | 'au_becs_debit'
    | 'bacs_debit'
    | 'bancontact'
    | 'billie'
    | 'blik'
    | 'boleto'
    | 'card'
    | 'cashapp'
    | 'crypto'
    | 'custom'
    | 'customer_balance'
    | 'eps'
    | 'fpx'
    | 'giropay'
    | 'grabpay'
    | 'ideal'
    | 'jp_credit_transfer'
    | 'kakao_pay'
    | 'klarna'
    | 'konbini'
    | 'kr_card'
    | 'link'
    | 'mb_way'
    | 'multibanco'
    | 'naver_pay'
    | 'nz_bank_account'
    | 'p24'
    | 'pay_by_bank'
    | 'payco'
    | 'paynow'
    | 'paypal'
    | 'payto'
    | 'pix'
    | 'promptpay'
    | 'revolut_pay'
    | 'satispay'
    | 'sepa_credit_transfer'
    | 'sepa_debit'
    | 'sequra'
    | 'sofort'
    | 'swish'
    | 'twint'
    | 'upi'
    | 'us_bank_account'
    | 'wechat_pay'
  >;
  save_default_payment_method: 'off' | 'on_subscription' | null;
}

export interface SubscriptionPendingInvoiceItemInterval {
  interval: 'day' | 'month' | 'week' | 'year';
  interval_count: number;
}

export interface SubscriptionPendingUpdate {
  billing_cycle_anchor: null | number;
  cancel_at_period_end: null | boolean;
  discount: null | Discount;
  discounts: null | string[];
  expires_at: number;
  metadata: null | Metadata;
  subscription_items: null | SubscriptionItem[];
  trial_end: null | number;
  trial_from_plan: null | boolean;
}

export interface SubscriptionPresentmentDetails {
  presentment_currency: string;
}

export interface SubscriptionStatusDetails {
  paused: SubscriptionStatusDetailsPaused;
}

export interface SubscriptionTransferData {
  amount_percent: null | number;
  destination: string;
}

export interface SubscriptionTrialSettings {
  end_behavior: SubscriptionTrialSettingsEndBehavior;
}

export interface SubscriptionItemBillingThresholds {
  usage_gte: null | number;
}

export interface SubscriptionItemCurrentTrial {
  end_date: number;
  start_date: number;
  trial_offer: string;
}

export interface Plan {
  id: string;
  object: 'plan';
  active: boolean;
  amount: null | number;
  amount_decimal: null | string;
  billing_scheme: 'per_unit' | 'tiered';
  created: number;
  currency: string;
  interval: 'day' | 'month' | 'week' | 'year';
  interval_count: number;
  livemode: boolean;
  metadata: null | Metadata;
  meter: null | string;
  nickname: null | string;
  product: null | string;
  tiers?: PlanTier[];
  tiers_mode: 'graduated' | 'volume' | null;
  transform_usage: null | PlanTransformUsage;
  trial_period_days: null | number;
  usage_type: 'licensed' | 'metered';
}

export interface CreditNoteDiscountAmount {
  amount: number;
  discount: string;
}

export interface CreditNoteLineItem {
  id: string;
  object: 'credit_note_line_item';
  amount: number;
  description: null | string;
  discount_amount: number;
  discount_amounts: CreditNoteLineItemDiscountAmount[];
  invoice_line_item?: string;
  livemode: boolean;
  metadata: null | Metadata;
  pretax_credit_amounts: CreditNoteLineItemPretaxCreditAmount[];
  quantity: null | number;
  tax_rates: TaxRate[];
  taxes: null | CreditNoteLineItemTax[];
  type: 'custom_line_item' | 'invoice_line_item';
  unit_amount: null | number;
  unit_amount_decimal: null | string;
}

export interface CreditNotePretaxCreditAmount {
  amount: number;
  credit_balance_transaction?: string;
  discount?: string;
  type: 'credit_balance_transaction' | 'discount';
}

export interface CreditNoteRefund {
  amount_refunded: number;
  payment_record_refund: null | CreditNoteRefundPaymentRecordRefund;
  refund: string;
  type: 'payment_record_refund' | 'refund' | null;
}

export interface CreditNoteShippingCost {
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  shipping_rate: null | string;
  taxes?: CreditNoteShippingCostTax[];
}

export interface CreditNoteTotalTax {
  amount: number;
  tax_behavior: 'exclusive' | 'inclusive';
  tax_rate_details: null | CreditNoteTotalTaxTaxRateDetails;
  taxability_reason:
    | 'customer_exempt'
    | 'not_available'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated';
  taxable_amount: null | number;
  type: 'tax_rate_details';
}

export interface PaymentLinkAfterCompletion {
  hosted_confirmation?: PaymentLinkAfterCompletionHostedConfirmation;
  redirect?: PaymentLinkAfterCompletionRedirect;
  type: 'hosted_confirmation' | 'redirect';
}

export interface PaymentLinkAutomaticTax {
  enabled: boolean;
  liability: null | PaymentLinkAutomaticTaxLiability;
}

export interface PaymentLinkConsentCollection {
  payment_method_reuse_agreement: null | PaymentLinkConsentCollectionPaymentMethodReuseAgreement;
  promotions: 'auto' | 'none' | null;
  terms_of_service: 'none' | 'required' | null;
}

export interface PaymentLinkCustomField {
  dropdown?: PaymentLinkCustomFieldDropdown;
  key: string;
  label: PaymentLinkCustomFieldLabel;
  numeric?: PaymentLinkCustomFieldNumeric;
  optional: boolean;
  text?: PaymentLinkCustomFieldText;
  type: 'dropdown' | 'numeric' | 'text';
}

export interface PaymentLinkCustomText {
  after_submit: null | PaymentLinkCustomTextAfterSubmit;
  shipping_address: null | PaymentLinkCustomTextShippingAddress;
  submit: null | PaymentLinkCustomTextSubmit;
  terms_of_service_acceptance: null | PaymentLinkCustomTextTermsOfServiceAcceptance;
}

export interface PaymentLinkInvoiceCreation {
  enabled: boolean;
  invoice_data: null | PaymentLinkInvoiceCreationInvoiceData;
}

export interface LineitemsLineItem {
  id: string;
  object: 'item';
  adjustable_quantity: null | LineitemsLineItemAdjustableQuantity;
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: null | string;
  discounts?: LineitemsLineItemDiscount[];
  metadata: null | Metadata;
  price: null | Price;
  quantity: null | number;
  taxes?: LineitemsLineItemTax[];
}

export interface PaymentLinkManagedPayments {
  enabled: boolean;
}

export interface PaymentLinkNameCollection {
  business?: PaymentLinkNameCollectionBusiness;
  individual?: PaymentLinkNameCollectionIndividual;
}

export interface PaymentLinkOptionalItem {
  adjustable_quantity: null | PaymentLinkOptionalItemAdjustableQuantity;
  price: string;
  quantity: number;
}

export interface PaymentLinkPaymentIntentData {
  capture_method: 'automatic' | 'automatic_async' | 'manual' | null;
  description: null | string;
  metadata: Metadata;
  setup_future_usage: 'off_session' | 'on_session' | null;
  statement_descriptor: null | string;
  statement_descriptor_suffix: null | string;
  transfer_group: null | string;
}

export interface PaymentLinkPaymentMethodOptions {
  card: null | PaymentLinkPaymentMethodOptionsCard;
}

export interface PaymentLinkPhoneNumberCollection {
  enabled: boolean;
}

export interface PaymentLinkRestrictions {
  completed_sessions: PaymentLinkRestrictionsCompletedSessions;
}

export interface PaymentLinkShippingAddressCollection {
  allowed_countries: Array<
    | 'AC'
    | 'AD'
    | 'AE'
    | 'AF'
    | 'AG'
    | 'AI'
    | 'AL'
    | 'AM'
    | 'AO'
    | 'AQ'
    | 'AR'
    | 'AT'
    | 'AU'
    | 'AW'
    | 'AX'
    | 'AZ'
    | 'BA'
    | 'BB'
    | 'BD'
    | 'BE'
    | 'BF'
    | 'BG'
    | 'BH'
    | 'BI'
    | 'BJ'
    | 'BL'
    | 'BM'
    | 'BN'
    | 'BO'
    | 'BQ'
    | 'BR'
    | 'BS'
    | 'BT'
    | 'BV'
    | 'BW'
    | 'BY'
    | 'BZ'
    | 'CA'
    | 'CD'
    | 'CF'
    | 'CG'
    | 'CH'
    | 'CI'
    | 'CK'
    | 'CL'
    | 'CM'
    | 'CN'
    | 'CO'
    | 'CR'
    | 'CV'
    | 'CW'
    | 'CY'
    | 'CZ'
    | 'DE'
    | 'DJ'
    | 'DK'
    | 'DM'
    | 'DO'
    | 'DZ'
    | 'EC'
    | 'EE'
    | 'EG'
    | 'EH'
    | 'ER'
    | 'ES'
    | 'ET'
    | 'FI'
    | 'FJ'
    | 'FK'
    | 'FO'
    | 'FR'
    | 'GA'
    | 'GB'
    | 'GD'
    | 'GE'
    | 'GF'
    | 'GG'
    | 'GH'
    | 'GI'
    | 'GL'
    | 'GM'
    | 'GN'
    | 'GP'
    | 'GQ'
    | 'GR'
    | 'GS'
    | 'GT'
    | 'GU'
    | 'GW'
    | 'GY'
    | 'HK'
    | 'HN'
    | 'HR'
    | 'HT'
    | 'HU'
    | 'ID'
    | 'IE'
    | 'IL'
    | 'IM'
    | 'IN'
    | 'IO'
    | 'IQ'
    | 'IS'
    | 'IT'
    | 'JE'
    | 'JM'
    | 'JO'
    | 'JP'
    | 'KE'
    | 'KG'
    | 'KH'
    | 'KI'
    | 'KM'
    | 'KN'
    | 'KR'
    | 'KW'
    | 'KY'
    | 'KZ'
    | 'LA'
    | 'LB'
    | 'LC'
    | 'LI'
    | 'LK'
    | 'LR'
    | 'LS'
    | 'LT'
    | 'LU'
    | 'LV'
    | 'LY'
    | 'MA'
    | 'MC'
    | 'MD'
    | 'ME'
    | 'MF'
    | 'MG'
    | 'MK'
    | 'ML'
    | 'MM'
    | 'MN'
    | 'MO'
    | 'MQ'
    | 'MR'
    | 'MS'
    | 'MT'
    | 'MU'
    | 'MV'
    | 'MW'
    | 'MX'
    | 'MY'
    | 'MZ'
    | 'NA'
    | 'NC'
    | 'NE'
    | 'NG'
    | 'NI'
    | 'NL'
    | 'NO'
    | 'NP'
    | 'NR'
    | 'NU'
    | 'NZ'
    | 'OM'
    | 'PA'
    | 'PE'
    | 'PF'
    | 'PG'
    | 'PH'
    | 'PK'
    | 'PL'
    | 'PM'
    | 'PN'
    | 'PR'
    | 'PS'
    | 'PT'
    | 'PY'
    | 'QA'
    | 'RE'
    | 'RO'
    | 'RS'
    | 'RU'
    | 'RW'
    | 'SA'
    | 'SB'
    | 'SC'
    | 'SD'
    | 'SE'
    | 'SG'
    | 'SH'
    | 'SI'
    | 'SJ'
    | 'SK'
    | 'SL'
    | 'SM'
    | 'SN'
    | 'SO'
    | 'SR'
    | 'SS'
    | 'ST'
    | 'SV'
    | 'SX'
    | 'SZ'
    | 'TA'
    | 'TC'
    | 'TD'
    | 'TF'
    | 'TG'
    | 'TH'
    | 'TJ'
    | 'TK'
    | 'TL'
    | 'TM'
    | 'TN'
    | 'TO'
    | 'TR'
    | 'TT'
    | 'TV'
    | 'TW'
    | 'TZ'
    | 'UA'
    | 'UG'
    | 'US'
    | 'UY'
    | 'UZ'
    | 'VA'
    | 'VC'
    | 'VE'
    | 'VG'
    | 'VN'
    | 'VU'
    | 'WF'
    | 'WS'
    | 'XK'
    | 'YE'
    | 'YT'
    | 'ZA'
    | 'ZM'
    | 'ZW'
    | 'ZZ'
  >;
}

export interface PaymentLinkShippingOption {
  shipping_amount: number;
  shipping_rate: string;
}

export interface PaymentLinkSubscriptionData {
  description: null | string;
  invoice_settings: PaymentLinkSubscriptionDataInvoiceSettings;
  metadata: Metadata;
  trial_period_days: null | number;
  trial_settings: null | PaymentLinkSubscriptionDataTrialSettings;
}

export interface PaymentLinkTaxIdCollection {
  enabled: boolean;
  required: 'if_supported' | 'never';
}

export interface PaymentLinkTransferData {
  amount: null | number;
  destination: string;
}

export interface CheckoutSessionAdaptivePricing {
  enabled: boolean;
}

export interface CheckoutSessionAfterExpiration {
  recovery: null | CheckoutSessionAfterExpirationRecovery;
}

export interface CheckoutSessionAutomaticTax {
  enabled: boolean;
  liability: null | CheckoutSessionAutomaticTaxLiability;
  provider: null | string;
  status: 'complete' | 'failed' | 'requires_location_inputs' | null;
}

export interface CheckoutSessionBrandingSettings {
  background_color: string;
  border_style: 'pill' | 'rectangular' | 'rounded';
  button_color: string;
  display_name: string;
  font_family: string;
  icon: null | CheckoutSessionBrandingSettingsIcon;
  logo: null | CheckoutSessionBrandingSettingsLogo;
}

export interface CheckoutSessionCollectedInformation {
  business_name: null | string;
  individual_name: null | string;
  shipping_details: null | CheckoutSessionCollectedInformationShippingDetails;
}

export interface CheckoutSessionConsent {
  promotions: 'opt_in' | 'opt_out' | null;
  terms_of_service: 'accepted' | null;
}

export interface CheckoutSessionConsentCollection {
  payment_method_reuse_agreement: null | CheckoutSessionConsentCollectionPaymentMethodReuseAgreement;
  promotions: 'auto' | 'none' | null;
  terms_of_service: 'none' | 'required' | null;
}

export interface CheckoutSessionCurrencyConversion {
  amount_subtotal: number;
  amount_total: number;
  fx_rate: string;
  source_currency: string;
}

export interface CheckoutSessionCustomField {
  dropdown?: CheckoutSessionCustomFieldDropdown;
  key: string;
  label: CheckoutSessionCustomFieldLabel;
  numeric?: CheckoutSessionCustomFieldNumeric;
  optional: boolean;
  text?: CheckoutSessionCustomFieldText;
  type: 'dropdown' | 'numeric' | 'text';
}

export interface CheckoutSessionCustomText {
  after_submit: null | CheckoutSessionCustomTextAfterSubmit;
  shipping_address: null | CheckoutSessionCustomTextShippingAddress;
  submit: null | CheckoutSessionCustomTextSubmit;
  terms_of_service_acceptance: null | CheckoutSessionCustomTextTermsOfServiceAcceptance;
}

export interface CheckoutSessionCustomerDetails {
  address: null | Address;
  business_name: null | string;
  email: null | string;
  individual_name: null | string;
  name: null | string;
  phone: null | string;
  tax_exempt: 'exempt' | 'none' | 'reverse' | null;
  tax_ids: null | CheckoutSessionCustomerDetailsTaxId[];
}

export interface CheckoutSessionDiscount {
  coupon: null | string;
  promotion_code: null | string;
}

export interface CheckoutSessionInvoiceCreation {
  enabled: boolean;
  invoice_data: CheckoutSessionInvoiceCreationInvoiceData;
}

export interface CheckoutSessionManagedPayments {
  enabled: boolean;
}

export interface CheckoutSessionNameCollection {
  business?: CheckoutSessionNameCollectionBusiness;
  individual?: CheckoutSessionNameCollectionIndividual;
}

export interface CheckoutSessionOptionalItem {
  adjustable_quantity: null | CheckoutSessionOptionalItemAdjustableQuantity;
  price: string;
  quantity: number;
}

export interface CheckoutSessionPaymentMethodConfigurationDetails {
  id: string;
  parent: null | string;
}

export interface CheckoutSessionPaymentMethodOptions {
  acss_debit?: CheckoutSessionPaymentMethodOptionsAcssDebit;
  affirm?: CheckoutSessionPaymentMethodOptionsAffirm;
  afterpay_clearpay?: CheckoutSessionPaymentMethodOptionsAfterpayClearpay;
  alipay?: CheckoutSessionPaymentMethodOptionsAlipay;
  alma?: CheckoutSessionPaymentMethodOptionsAlma;
  amazon_pay?: CheckoutSessionPaymentMethodOptionsAmazonPay;
  au_becs_debit?: CheckoutSessionPaymentMethodOptionsAuBecsDebit;
  bacs_debit?: CheckoutSessionPaymentMethodOptionsBacsDebit;
  bancontact?: CheckoutSessionPaymentMethodOptionsBancontact;
  billie?: CheckoutSessionPaymentMethodOptionsBillie;
  boleto?: CheckoutSessionPaymentMethodOptionsBoleto;
  card?: CheckoutSessionPaymentMethodOptionsCard;
  cashapp?: CheckoutSessionPaymentMethodOptionsCashapp;
  customer_balance?: CheckoutSessionPaymentMethodOptionsCustomerBalance;
  eps?: CheckoutSessionPaymentMethodOptionsEps;
  fpx?: CheckoutSessionPaymentMethodOptionsFpx;
  giropay?: CheckoutSessionPaymentMethodOptionsGiropay;
  grabpay?: CheckoutSessionPaymentMethodOptionsGrabpay;
  ideal?: CheckoutSessionPaymentMethodOptionsIdeal;
  kakao_pay?: CheckoutSessionPaymentMethodOptionsKakaoPay;
  klarna?: CheckoutSessionPaymentMethodOptionsKlarna;
  konbini?: CheckoutSessionPaymentMethodOptionsKonbini;
  kr_card?: CheckoutSessionPaymentMethodOptionsKrCard;
  link?: CheckoutSessionPaymentMethodOptionsLink;
  mobilepay?: CheckoutSessionPaymentMethodOptionsMobilepay;
  multibanco?: CheckoutSessionPaymentMethodOptionsMultibanco;
  naver_pay?: CheckoutSessionPaymentMethodOptionsNaverPay;
  oxxo?: CheckoutSessionPaymentMethodOptionsOxxo;
  p24?: CheckoutSessionPaymentMethodOptionsP24;
  payco?: CheckoutSessionPaymentMethodOptionsPayco;
  paynow?: CheckoutSessionPaymentMethodOptionsPaynow;
  paypal?: CheckoutSessionPaymentMethodOptionsPaypal;
  payto?: CheckoutSessionPaymentMethodOptionsPayto;
  pix?: CheckoutSessionPaymentMethodOptionsPix;
  revolut_pay?: CheckoutSessionPaymentMethodOptionsRevolutPay;
  samsung_pay?: CheckoutSessionPaymentMethodOptionsSamsungPay;
  satispay?: CheckoutSessionPaymentMethodOptionsSatispay;
  scalapay?: CheckoutSessionPaymentMethodOptionsScalapay;
  sepa_debit?: CheckoutSessionPaymentMethodOptionsSepaDebit;
  sequra?: CheckoutSessionPaymentMethodOptionsSequra;
  sofort?: CheckoutSessionPaymentMethodOptionsSofort;
  sunbit?: CheckoutSessionPaymentMethodOptionsSunbit;
  swish?: CheckoutSessionPaymentMethodOptionsSwish;
  twint?: CheckoutSessionPaymentMethodOptionsTwint;
  upi?: CheckoutSessionPaymentMethodOptionsUpi;
  us_bank_account?: CheckoutSessionPaymentMethodOptionsUsBankAccount;
  wechat_pay?: CheckoutSessionPaymentMethodOptionsWechatPay;
}

export interface CheckoutSessionPermissions {
  update_shipping_details: 'client_only' | 'server_only' | null;
}

export interface CheckoutSessionPhoneNumberCollection {
  enabled: boolean;
}

export interface CheckoutSessionPresentmentDetails {
  presentment_amount: number;
  presentment_currency: string;
}

export interface CheckoutSessionSavedPaymentMethodOptions {
  allow_redisplay_filters: null | Array<'always' | 'limited' | 'unspecified'>;
  payment_method_remove: 'disabled' | 'enabled' | null;
  payment_method_save: 'disabled' | 'enabled' | null;
}

export interface CheckoutSessionShippingAddressCollection {
  allowed_countries: Array<
    | 'AC'
    | 'AD'
    | 'AE'
    | 'AF'
    | 'AG'
    | 'AI'
    | 'AL'
    | 'AM'
    | 'AO'
    | 'AQ'
    | 'AR'
    | 'AT'
    | 'AU'
    | 'AW'
    | 'AX'
    | 'AZ'
    | 'BA'
    | 'BB'
    | 'BD'
    | 'BE'
    | 'BF'
    | 'BG'
    | 'BH'
    | 'BI'
    | 'BJ'
    | 'BL'
    | 'BM'
    | 'BN'
    | 'BO'
    | 'BQ'
    | 'BR'
    | 'BS'
    | 'BT'
    | 'BV'
    | 'BW'
    | 'BY'
    | 'BZ'
    | 'CA'
    | 'CD'
    | 'CF'
    | 'CG'
    | 'CH'
    | 'CI'
    | 'CK'
    | 'CL'
    | 'CM'
    | 'CN'
    | 'CO'
    | 'CR'
    | 'CV'
    | 'CW'
    | 'CY'
    | 'CZ'
    | 'DE'
    | 'DJ'
    | 'DK'
    | 'DM'
    | 'DO'
    | 'DZ'
    | 'EC'
    | 'EE'
    | 'EG'
    | 'EH'
    | 'ER'
    | 'ES'
    | 'ET'
    | 'FI'
    | 'FJ'
    | 'FK'
    | 'FO'
    | 'FR'
    | 'GA'
    | 'GB'
    | 'GD'
    | 'GE'
    | 'GF'
    | 'GG'
    | 'GH'
    | 'GI'
    | 'GL'
    | 'GM'
    | 'GN'
    | 'GP'
    | 'GQ'
    | 'GR'
    | 'GS'
    | 'GT'
    | 'GU'
    | 'GW'
    | 'GY'
    | 'HK'
    | 'HN'
    | 'HR'
    | 'HT'
    | 'HU'
    | 'ID'
    | 'IE'
    | 'IL'
    | 'IM'
    | 'IN'
    | 'IO'
    | 'IQ'
    | 'IS'
    | 'IT'
    | 'JE'
    | 'JM'
    | 'JO'
    | 'JP'
    | 'KE'
    | 'KG'
    | 'KH'
    | 'KI'
    | 'KM'
    | 'KN'
    | 'KR'
    | 'KW'
    | 'KY'
    | 'KZ'
    | 'LA'
    | 'LB'
    | 'LC'
    | 'LI'
    | 'LK'
    | 'LR'
    | 'LS'
    | 'LT'
    | 'LU'
    | 'LV'
    | 'LY'
    | 'MA'
    | 'MC'
    | 'MD'
    | 'ME'
    | 'MF'
    | 'MG'
    | 'MK'
    | 'ML'
    | 'MM'
    | 'MN'
    | 'MO'
    | 'MQ'
    | 'MR'
    | 'MS'
    | 'MT'
    | 'MU'
    | 'MV'
    | 'MW'
    | 'MX'
    | 'MY'
    | 'MZ'
    | 'NA'
    | 'NC'
    | 'NE'
    | 'NG'
    | 'NI'
    | 'NL'
    | 'NO'
    | 'NP'
    | 'NR'
    | 'NU'
    | 'NZ'
    | 'OM'
    | 'PA'
    | 'PE'
    | 'PF'
    | 'PG'
    | 'PH'
    | 'PK'
    | 'PL'
    | 'PM'
    | 'PN'
    | 'PR'
    | 'PS'
    | 'PT'
    | 'PY'
    | 'QA'
    | 'RE'
    | 'RO'
    | 'RS'
    | 'RU'
    | 'RW'
    | 'SA'
    | 'SB'
    | 'SC'
    | 'SD'
    | 'SE'
    | 'SG'
    | 'SH'
    | 'SI'
    | 'SJ'
    | 'SK'
    | 'SL'
    | 'SM'
    | 'SN'
    | 'SO'
    | 'SR'
    | 'SS'
    | 'ST'
    | 'SV'
    | 'SX'
    | 'SZ'
    | 'TA'
    | 'TC'
    | 'TD'
    | 'TF'
    | 'TG'
    | 'TH'
    | 'TJ'
    | 'TK'
    | 'TL'
    | 'TM'
    | 'TN'
    | 'TO'
    | 'TR'
    | 'TT'
    | 'TV'
    | 'TW'
    | 'TZ'
    | 'UA'
    | 'UG'
    | 'US'
    | 'UY'
    | 'UZ'
    | 'VA'
    | 'VC'
    | 'VE'
    | 'VG'
    | 'VN'
    | 'VU'
    | 'WF'
    | 'WS'
    | 'XK'
    | 'YE'
    | 'YT'
    | 'ZA'
    | 'ZM'
    | 'ZW'
    | 'ZZ'
  >;
}

export interface CheckoutSessionShippingCost {
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  shipping_rate: null | string;
  taxes?: CheckoutSessionShippingCostTax[];
}

export interface CheckoutSessionShippingOption {
  shipping_amount: number;
  shipping_rate: string;
}

export interface CheckoutSessionTaxIdCollection {
  enabled: boolean;
  required: 'if_supported' | 'never';
}

export interface CheckoutSessionTotalDetails {
  amount_discount: number;
  amount_shipping: null | number;
  amount_tax: number;
  breakdown?: CheckoutSessionTotalDetailsBreakdown;
}

export interface CheckoutSessionWalletOptions {
  link?: CheckoutSessionWalletOptionsLink;
}

export interface InvoicePaymentPayment {
  charge?: string;
  payment_intent?: string;
  payment_record?: string;
  type: 'charge' | 'payment_intent' | 'payment_record';
}

export interface InvoicePaymentStatusTransitions {
  canceled_at: null | number;
  paid_at: null | number;
}

export interface TestHelpersTestClockStatusDetails {
  advancing?: TestHelpersTestClockStatusDetailsAdvancing;
}

export interface CashBalanceSettings {
  reconciliation_mode: 'automatic' | 'manual';
  using_merchant_default: boolean;
}

export interface DiscountSource {
  coupon: null | string;
  type: 'coupon';
}

export interface CustomerInvoiceSettingsCustomField {
  name: string;
  value: string;
}

export interface CustomerInvoiceSettingsRenderingOptions {
  amount_tax_display: null | string;
  template: null | string;
}

export interface BankAccountFutureRequirements {
  currently_due: null | string[];
  errors: null | BankAccountFutureRequirementsError[];
  past_due: null | string[];
  pending_verification: null | string[];
}

export interface BankAccountRequirements {
  currently_due: null | string[];
  errors: null | BankAccountRequirementsError[];
  past_due: null | string[];
  pending_verification: null | string[];
}

export interface CardNetworks {
  preferred: null | string;
}

export interface AccountBusinessProfile {
  annual_revenue?: null | AccountBusinessProfileAnnualRevenue;
  estimated_worker_count?: null | number;
  mcc: null | string;
  minority_owned_business_designation: null | Array<
    | 'lgbtqi_owned_business'
    | 'minority_owned_business'
    | 'none_of_these_apply'
    | 'prefer_not_to_answer'
    | 'women_owned_business'
  >;
  monthly_estimated_revenue?: AccountBusinessProfileMonthlyEstimatedRevenue;
  name: null | string;
  product_description?: null | string;
  specified_commercial_transactions_act_url: null | string;
  support_address: null | Address;
  support_email: null | string;
  support_phone: null | string;
  support_url: null | string;
  url: null | string;
}

export interface AccountCapabilities {
  acss_debit_payments?: 'active' | 'inactive' | 'pending';
  affirm_payments?: 'active' | 'inactive' | 'pending';
  afterpay_clearpay_payments?: 'active' | 'inactive' | 'pending';
  alma_payments?: 'active' | 'inactive' | 'pending';
  amazon_pay_payments?: 'active' | 'inactive' | 'pending';
  app_distribution?: 'active' | 'inactive' | 'pending';
  au_becs_debit_payments?: 'active' | 'inactive' | 'pending';
  bacs_debit_payments?: 'active' | 'inactive' | 'pending';
  bancontact_payments?: 'active' | 'inactive' | 'pending';
  bank_transfer_payments?: 'active' | 'inactive' | 'pending';
  billie_payments?: 'active' | 'inactive' | 'pending';
  bizum_payments?: 'active' | 'inactive' | 'pending';
  blik_payments?: 'active' | 'inactive' | 'pending';
  blik_recurring_payments?: 'active' | 'inactive' | 'pending';
  boleto_payments?: 'active' | 'inactive' | 'pending';
  card_issuing?: 'active' | 'inactive' | 'pending';
  card_payments?: 'active' | 'inactive' | 'pending';
  cartes_bancaires_payments?: 'active' | 'inactive' | 'pending';
  cashapp_payments?: 'active' | 'inactive' | 'pending';
  crypto_payments?: 'active' | 'inactive' | 'pending';
  eps_payments?: 'active' | 'inactive' | 'pending';
  fpx_payments?: 'active' | 'inactive' | 'pending';
  gb_bank_transfer_payments?: 'active' | 'inactive' | 'pending';
  giropay_payments?: 'active' | 'inactive' | 'pending';
  grabpay_payments?: 'active' | 'inactive' | 'pending';
  ideal_payments?: 'active' | 'inactive' | 'pending';
  india_international_payments?: 'active' | 'inactive' | 'pending';
  jcb_payments?: 'active' | 'inactive' | 'pending';
  jp_bank_transfer_payments?: 'active' | 'inactive' | 'pending';
  kakao_pay_payments?: 'active' | 'inactive' | 'pending';
  klarna_payments?: 'active' | 'inactive' | 'pending';
  konbini_payments?: 'active' | 'inactive' | 'pending';
  kr_card_payments?: 'active' | 'inactive' | 'pending';
  legacy_payments?: 'active' | 'inactive' | 'pending';
  link_payments?: 'active' | 'inactive' | 'pending';
  mb_way_payments?: 'active' | 'inactive' | 'pending';
  mobilepay_payments?: 'active' | 'inactive' | 'pending';
  multibanco_payments?: 'active' | 'inactive' | 'pending';
  mx_bank_transfer_payments?: 'active' | 'inactive' | 'pending';
  naver_pay_payments?: 'active' | 'inactive' | 'pending';
  nz_bank_account_becs_debit_payments?: 'active' | 'inactive' | 'pending';
  oxxo_payments?: 'active' | 'inactive' | 'pending';
  p24_payments?: 'active' | 'inactive' | 'pending';
  pay_by_bank_payments?: 'active' | 'inactive' | 'pending';
  payco_payments?: 'active' | 'inactive' | 'pending';
  paynow_payments?: 'active' | 'inactive' | 'pending';
  paypay_payments?: 'active' | 'inactive' | 'pending';
  payto_payments?: 'active' | 'inactive' | 'pending';
  pix_payments?: 'active' | 'inactive' | 'pending';
  promptpay_payments?: 'active' | 'inactive' | 'pending';
  revolut_pay_payments?: 'active' | 'inactive' | 'pending';
  samsung_pay_payments?: 'active' | 'inactive' | 'pending';
  satispay_payments?: 'active' | 'inactive' | 'pending';
  scalapay_payments?: 'active' | 'inactive' | 'pending';
  sepa_bank_transfer_payments?: 'active' | 'inactive' | 'pending';
  sepa_debit_payments?: 'active' | 'inactive' | 'pending';
  sequra_payments?: 'active' | 'inactive' | 'pending';
  sofort_payments?: 'active' | 'inactive' | 'pending';
  sunbit_payments?: 'active' | 'inactive' | 'pending';
  swish_payments?: 'active' | 'inactive' | 'pending';
  tax_reporting_us_1099_k?: 'active' | 'inactive' | 'pending';
  tax_reporting_us_1099_misc?: 'active' | 'inactive' | 'pending';
  transfers?: 'active' | 'inactive' | 'pending';
  treasury?: 'active' | 'inactive' | 'pending';
  twint_payments?: 'active' | 'inactive' | 'pending';
  upi_payments?: 'active' | 'inactive' | 'pending';
  us_bank_account_ach_payments?: 'active' | 'inactive' | 'pending';
  us_bank_transfer_payments?: 'active' | 'inactive' | 'pending';
  wero_payments?: 'active' | 'inactive' | 'pending';
  zip_payments?: 'active' | 'inactive' | 'pending';
}

export interface AccountCompany {
  address?: Address;
  address_kana?: null | AccountCompanyAddressKana;
  address_kanji?: null | AccountCompanyAddressKanji;
  administrative_address?: Address;
  directors_provided?: boolean;
  directorship_declaration?: null | AccountCompanyDirectorshipDeclaration;
  executives_provided?: boolean;
  export_license_id?: string;
  export_purpose_code?: string;
  name?: null | string;
  name_kana?: null | string;
  name_kanji?: null | string;
  owners_provided?: boolean;
  ownership_declaration?: null | AccountCompanyOwnershipDeclaration;
  ownership_exemption_reason?:
    'qualified_entity_exceeds_ownership_threshold' | 'qualifies_as_financial_institution';
  phone?: null | string;
  physical_address?: Address;
  principal_place_of_business?: Address;
  registration_date?: AccountCompanyRegistrationDate;
  representative_declaration?: null | AccountCompanyRepresentativeDeclaration;
  structure?:
    | 'free_zone_establishment'
    | 'free_zone_llc'
    | 'government_instrumentality'
    | 'governmental_unit'
    | 'incorporated_non_profit'
    | 'incorporated_partnership'
    | 'limited_liability_partnership'
    | 'llc'
    | 'multi_member_llc'
    | 'private_company'
    | 'private_corporation'
    | 'private_partnership'
    | 'public_company'
    | 'public_corporation'
    | 'public_partnership'
    | 'registered_charity'
    | 'single_member_llc'
    | 'sole_establishment'
    | 'sole_proprietorship'
    | 'tax_exempt_government_instrumentality'
    | 'unincorporated_association'
    | 'unincorporated_non_profit'
    | 'unincorporated_partnership';
  tax_id_provided?: boolean;
  tax_id_registrar?: string;
  vat_id_provided?: boolean;
  verification?: null | AccountCompanyVerification;
}

export interface AccountController {
  fees?: AccountControllerFees;
  is_controller?: boolean;
  losses?: AccountControllerLosses;
  requirement_collection?: 'application' | 'stripe';
  stripe_dashboard?: AccountControllerStripeDashboard;
  type: 'account' | 'application';
}

export interface AccountFutureRequirements {
  alternatives: null | AccountFutureRequirementsAlternative[];
  current_deadline: null | number;
  currently_due: null | string[];
  disabled_reason:
    | 'action_required.requested_capabilities'
    | 'listed'
    | 'other'
    | 'platform_paused'
    | 'rejected.fraud'
    | 'rejected.incomplete_verification'
    | 'rejected.listed'
    | 'rejected.other'
    | 'rejected.platform_fraud'
    | 'rejected.platform_other'
    | 'rejected.platform_terms_of_service'
    | 'rejected.terms_of_service'
    | 'requirements.past_due'
    | 'requirements.pending_verification'
    | 'under_review'
    | null;
  errors: null | AccountFutureRequirementsError[];
  eventually_due: null | string[];
  past_due: null | string[];
  pending_verification: null | string[];
}

export interface AccountGroups {
  payments_pricing: null | string;
}

export interface Person {
  id: string;
  object: 'person';
  account: string;
  additional_tos_acceptances?: PersonAdditionalTosAcceptances;
  address?: Address;
  address_kana?: null | PersonAddressKana;
  address_kanji?: null | PersonAddressKanji;
  created: number;
  dob?: PersonDob;
  email?: null | string;
  first_name?: null | string;
  first_name_kana?: null | string;
  first_name_kanji?: null | string;
  full_name_aliases?: string[];
  future_requirements?: null | PersonFutureRequirements;
  gender?: null | string;
  id_number_provided?: boolean;
  id_number_secondary_provided?: boolean;
  last_name?: null | string;
  last_name_kana?: null | string;
  last_name_kanji?: null | string;
  maiden_name?: null | string;
  metadata?: Metadata;
  nationality?: null | string;
  phone?: null | string;
  political_exposure?: 'existing' | 'none';
  registered_address?: Address;
  relationship?: PersonRelationship;
  requirements?: null | PersonRequirements;
  ssn_last_4_provided?: boolean;
  us_cfpb_data?: null | PersonUsCfpbData;
  verification?: PersonVerification;
}

export interface AccountRequirements {
  alternatives: null | AccountRequirementsAlternative[];
  current_deadline: null | number;
  currently_due: null | string[];
  disabled_reason:
    | 'action_required.requested_capabilities'
    | 'listed'
    | 'other'
    | 'platform_paused'
    | 'rejected.fraud'
    | 'rejected.incomplete_verification'
    | 'rejected.listed'
    | 'rejected.other'
    | 'rejected.platform_fraud'
    | 'rejected.platform_other'
    | 'rejected.platform_terms_of_service'
    | 'rejected.terms_of_service'
    | 'requirements.past_due'
    | 'requirements.pending_verification'
    | 'under_review'
    | null;
  errors: null | AccountRequirementsError[];
  eventually_due: null | string[];
  past_due: null | string[];
  pending_verification: null | string[];
}

export interface AccountSettings {
  bacs_debit_payments?: AccountSettingsBacsDebitPayments;
  branding: AccountSettingsBranding;
  card_issuing?: AccountSettingsCardIssuing;
  card_payments: AccountSettingsCardPayments;
  dashboard: AccountSettingsDashboard;
  invoices?: AccountSettingsInvoices;
  payments: AccountSettingsPayments;
  payouts?: AccountSettingsPayouts;
  paypay_payments?: AccountSettingsPaypayPayments;
  sepa_debit_payments?: AccountSettingsSepaDebitPayments;
  treasury?: AccountSettingsTreasury;
}

export interface AccountTosAcceptance {
  date?: null | number;
  ip?: null | string;
  service_agreement?: string;
  user_agent?: null | string;
}

export interface SourceAchCreditTransfer {
  account_number?: null | string;
  bank_name?: null | string;
  fingerprint?: null | string;
  refund_account_holder_name?: null | string;
  refund_account_holder_type?: null | string;
  refund_routing_number?: null | string;
  routing_number?: null | string;
  swift_code?: null | string;
}

export interface SourceAchDebit {
  bank_name?: null | string;
  country?: null | string;
  fingerprint?: null | string;
  last4?: null | string;
  routing_number?: null | string;
  type?: null | string;
}

export interface SourceAcssDebit {
  bank_address_city?: null | string;
  bank_address_line_1?: null | string;
  bank_address_line_2?: null | string;
  bank_address_postal_code?: null | string;
  bank_name?: null | string;
  category?: null | string;
  country?: null | string;
  fingerprint?: null | string;
  last4?: null | string;
  routing_number?: null | string;
}

export interface SourceAlipay {
  data_string?: null | string;
  native_url?: null | string;
  statement_descriptor?: null | string;
}

export interface SourceAuBecsDebit {
  bsb_number?: null | string;
  fingerprint?: null | string;
  last4?: null | string;
}

export interface SourceBancontact {
  bank_code?: null | string;
  bank_name?: null | string;
  bic?: null | string;
  iban_last4?: null | string;
  preferred_language?: null | string;
  statement_descriptor?: null | string;
}

export interface SourceCard {
  address_line1_check?: null | string;
  address_zip_check?: null | string;
  brand?: null | string;
  country?: null | string;
  cvc_check?: null | string;
  description?: string;
  dynamic_last4?: null | string;
  exp_month?: null | number;
  exp_year?: null | number;
  fingerprint?: string;
  funding?: null | string;
  iin?: string;
  issuer?: string;
  last4?: null | string;
  name?: null | string;
  three_d_secure?: string;
  tokenization_method?: null | string;
}

export interface SourceCardPresent {
  application_cryptogram?: string;
  application_preferred_name?: string;
  authorization_code?: null | string;
  authorization_response_code?: string;
  brand?: null | string;
  country?: null | string;
  cvm_type?: string;
  data_type?: null | string;
  dedicated_file_name?: string;
  description?: string;
  emv_auth_data?: string;
  evidence_customer_signature?: null | string;
  evidence_transaction_certificate?: null | string;
  exp_month?: null | number;
  exp_year?: null | number;
  fingerprint?: string;
  funding?: null | string;
  iin?: string;
  issuer?: string;
  last4?: null | string;
  pos_device_id?: null | string;
  pos_entry_mode?: string;
  read_method?: null | string;
  reader?: null | string;
  terminal_verification_results?: string;
  transaction_status_information?: string;
}

export interface SourceCodeVerification {
  attempts_remaining: number;
  status: string;
}

export interface SourceEps {
  reference?: null | string;
  statement_descriptor?: null | string;
}

export interface SourceGiropay {
  bank_code?: null | string;
  bank_name?: null | string;
  bic?: null | string;
  statement_descriptor?: null | string;
}

export interface SourceIdeal {
  bank?: null | string;
  bic?: null | string;
  iban_last4?: null | string;
  statement_descriptor?: null | string;
}

export interface SourceKlarna {
  background_image_url?: string;
  client_token?: null | string;
  first_name?: string;
  last_name?: string;
  locale?: string;
  logo_url?: string;
  page_title?: string;
  pay_later_asset_urls_descriptive?: string;
  pay_later_asset_urls_standard?: string;
  pay_later_name?: string;
  pay_later_redirect_url?: string;
  pay_now_asset_urls_descriptive?: string;
  pay_now_asset_urls_standard?: string;
  pay_now_name?: string;
  pay_now_redirect_url?: string;
  pay_over_time_asset_urls_descriptive?: string;
  pay_over_time_asset_urls_standard?: string;
  pay_over_time_name?: string;
  pay_over_time_redirect_url?: string;
  payment_method_categories?: string;
  purchase_country?: string;
  purchase_type?: string;
  redirect_url?: string;
  shipping_delay?: number;
  shipping_first_name?: string;
  shipping_last_name?: string;
}

export interface SourceMultibanco {
  entity?: null | string;
  reference?: null | string;
  refund_account_holder_address_city?: null | string;
  refund_account_holder_address_country?: null | string;
  refund_account_holder_address_line1?: null | string;
  refund_account_holder_address_line2?: null | string;
  refund_account_holder_address_postal_code?: null | string;
  refund_account_holder_address_state?: null | string;
  refund_account_holder_name?: null | string;
  refund_iban?: null | string;
}

export interface SourceOwner {
  address: null | Address;
  email: null | string;
  name: null | string;
  phone: null | string;
  verified_address: null | Address;
  verified_email: null | string;
  verified_name: null | string;
  verified_phone: null | string;
}

export interface SourceP24 {
  reference?: null | string;
}

export interface SourceReceiver {
  address: null | string;
  amount_charged: number;
  amount_received: number;
  amount_returned: number;
  refund_attributes_method: string;
  refund_attributes_status: string;
}

export interface SourceRedirect {
  failure_reason: null | string;
  return_url: string;
  status: string;
  url: string;
}

export interface SourceSepaCreditTransfer {
  bank_name?: null | string;
  bic?: null | string;
  iban?: null | string;
  refund_account_holder_address_city?: null | string;
  refund_account_holder_address_country?: null | string;
  refund_account_holder_address_line1?: null | string;
  refund_account_holder_address_line2?: null | string;
  refund_account_holder_address_postal_code?: null | string;
  refund_account_holder_address_state?: null | string;
  refund_account_holder_name?: null | string;
  refund_iban?: null | string;
}

export interface SourceSepaDebit {
  bank_code?: null | string;
  branch_code?: null | string;
  country?: null | string;
  fingerprint?: null | string;
  last4?: null | string;
  mandate_reference?: null | string;
  mandate_url?: null | string;
}

export interface SourceSofort {
  bank_code?: null | string;
  bank_name?: null | string;
  bic?: null | string;
  country?: null | string;
  iban_last4?: null | string;
  preferred_language?: null | string;
  statement_descriptor?: null | string;
}

export interface SourceSourceOrder {
  amount: number;
  currency: string;
  email?: string;
  items: null | SourceSourceOrderItem[];
  shipping?: SourceSourceOrderShipping;
}

export interface SourceThreeDSecure {
  address_line1_check?: null | string;
  address_zip_check?: null | string;
  authenticated?: null | boolean;
  brand?: null | string;
  card?: null | string;
  country?: null | string;
  customer?: null | string;
  cvc_check?: null | string;
  description?: string;
  dynamic_last4?: null | string;
  exp_month?: null | number;
  exp_year?: null | number;
  fingerprint?: string;
  funding?: null | string;
  iin?: string;
  issuer?: string;
  last4?: null | string;
  name?: null | string;
  three_d_secure?: string;
  tokenization_method?: null | string;
}

export interface SourceWechat {
  prepay_id?: string;
  qr_code_url?: null | string;
  statement_descriptor?: string;
}

export interface CustomerTaxLocation {
  country: string;
  source: 'billing_address' | 'ip_address' | 'payment_method' | 'shipping_destination';
  state: null | string;
}

export interface PriceCurrencyOptionsCustomUnitAmount {
  maximum: null | number;
  minimum: null | number;
  preset: null | number;
}

export interface PriceCurrencyOptionsTier {
  flat_amount: null | number;
  flat_amount_decimal: null | string;
  unit_amount: null | number;
  unit_amount_decimal: null | string;
  up_to: null | number;
}

export interface PromotionCodeRestrictionsCurrencyOptions {
  minimum_amount: number;
}

export interface PaymentMethodCardChecks {
  address_line1_check: null | string;
  address_postal_code_check: null | string;
  cvc_check: null | string;
}

export interface PaymentMethodCardGeneratedFrom {
  charge: null | string;
  payment_method_details: null | PaymentMethodCardGeneratedFromPaymentMethodDetails;
  setup_attempt: null | string;
}

export interface PaymentMethodCardNetworks {
  available: string[];
  preferred: null | string;
}

export interface PaymentMethodCardThreeDSecureUsage {
  supported: boolean;
}

export interface PaymentMethodCardWallet {
  amex_express_checkout?: PaymentMethodCardWalletAmexExpressCheckout;
  apple_pay?: PaymentMethodCardWalletApplePay;
  dynamic_last4: null | string;
  google_pay?: PaymentMethodCardWalletGooglePay;
  link?: PaymentMethodCardWalletLink;
  masterpass?: PaymentMethodCardWalletMasterpass;
  samsung_pay?: PaymentMethodCardWalletSamsungPay;
  type:
    | 'amex_express_checkout'
    | 'apple_pay'
    | 'google_pay'
    | 'link'
    | 'masterpass'
    | 'samsung_pay'
    | 'visa_checkout';
  visa_checkout?: PaymentMethodCardWalletVisaCheckout;
}

export interface PaymentMethodCardPresentNetworks {
  available: string[];
  preferred: null | string;
}

export interface PaymentMethodCardPresentOffline {
  stored_at: null | number;
  type: 'deferred' | null;
}

export interface PaymentMethodCardPresentWallet {
  type: 'apple_pay' | 'google_pay' | 'samsung_pay' | 'unknown';
}

export interface PaymentMethodCustomLogo {
  content_type: null | string;
  url: string;
}

export interface PaymentMethodInteracPresentNetworks {
  available: string[];
  preferred: null | string;
}

export interface PaymentMethodKlarnaDob {
  day: null | number;
  month: null | number;
  year: null | number;
}

export interface PaymentMethodSepaDebitGeneratedFrom {
  charge: null | string;
  setup_attempt: null | string;
}

export interface PaymentMethodUsBankAccountNetworks {
  preferred: null | string;
  supported: Array<'ach' | 'us_domestic_wire'>;
}

export interface PaymentMethodUsBankAccountStatusDetails {
  blocked?: PaymentMethodUsBankAccountStatusDetailsBlocked;
}

export type SetupIntentNextActionBlikAuthorize = Record<string, unknown>;

export interface SetupIntentNextActionCashappHandleRedirectOrDisplayQrCode {
  hosted_instructions_url: string;
  mobile_auth_url: string;
  qr_code: SetupIntentNextActionCashappHandleRedirectOrDisplayQrCodeQrCode;
}

export interface SetupIntentNextActionPixDisplayQrCode {
  data: string;
  expires_at: number;
  hosted_instructions_url: string;
  image_url_png: string;
  image_url_svg: string;
}

export interface SetupIntentNextActionRedirectToUrl {
  return_url: null | string;
  url: null | string;
}

export interface SetupIntentNextActionUpiHandleRedirectOrDisplayQrCode {
  hosted_instructions_url: string;
  qr_code: SetupIntentNextActionUpiHandleRedirectOrDisplayQrCodeQrCode;
}

export type SetupIntentNextActionUseStripeSdk = Record<string, unknown>;

export interface SetupIntentNextActionVerifyWithMicrodeposits {
  arrival_date: number;
  hosted_verification_url: string;
  microdeposit_type: 'amounts' | 'descriptor_code' | null;
}

export interface SetupIntentPaymentMethodOptionsAcssDebit {
  currency: 'cad' | 'usd' | null;
  mandate_options?: SetupIntentPaymentMethodOptionsAcssDebitMandateOptions;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export type SetupIntentPaymentMethodOptionsAmazonPay = Record<string, unknown>;

export interface SetupIntentPaymentMethodOptionsBacsDebit {
  mandate_options?: SetupIntentPaymentMethodOptionsBacsDebitMandateOptions;
}

export type SetupIntentPaymentMethodOptionsBizum = Record<string, unknown>;

export interface SetupIntentPaymentMethodOptionsBlik {
  mandate_options?: SetupIntentPaymentMethodOptionsBlikMandateOptions;
}

export interface SetupIntentPaymentMethodOptionsCard {
  mandate_options: null | SetupIntentPaymentMethodOptionsCardMandateOptions;
  network:
    | 'amex'
    | 'cartes_bancaires'
    | 'diners'
    | 'discover'
    | 'eftpos_au'
    | 'girocard'
    | 'interac'
    | 'jcb'
    | 'link'
    | 'mastercard'
    | 'unionpay'
    | 'unknown'
    | 'visa'
    | null;
  request_three_d_secure: 'any' | 'automatic' | 'challenge' | null;
  setup_credential_usage?: 'installment' | 'recurring' | 'unscheduled';
}

export type SetupIntentPaymentMethodOptionsCardPresent = Record<string, unknown>;

export interface SetupIntentPaymentMethodOptionsKlarna {
  currency: null | string;
  preferred_locale: null | string;
}

export interface SetupIntentPaymentMethodOptionsLink {
  persistent_token: null | string;
}

export interface SetupIntentPaymentMethodOptionsPaypal {
  billing_agreement_id: null | string;
}

export interface SetupIntentPaymentMethodOptionsPayto {
  mandate_options?: SetupIntentPaymentMethodOptionsPaytoMandateOptions;
}

export interface SetupIntentPaymentMethodOptionsPix {
  mandate_options?: SetupIntentPaymentMethodOptionsPixMandateOptions;
}

export interface SetupIntentPaymentMethodOptionsSepaDebit {
  mandate_options?: SetupIntentPaymentMethodOptionsSepaDebitMandateOptions;
}

export interface SetupIntentPaymentMethodOptionsUpi {
  mandate_options?: SetupIntentPaymentMethodOptionsUpiMandateOptions;
}

export interface SetupIntentPaymentMethodOptionsUsBankAccount {
  financial_connections?: SetupIntentPaymentMethodOptionsUsBankAccountFinancialConnections;
  mandate_options?: SetupIntentPaymentMethodOptionsUsBankAccountMandateOptions;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface PaymentIntentAmountDetailsError {
  code:
    | 'amount_details_amount_mismatch'
    | 'amount_details_tax_shipping_discount_greater_than_amount'
    | null;
  message: null | string;
}

export interface PaymentIntentAmountDetailsLineItem {
  id: string;
  object: 'payment_intent_amount_details_line_item';
  discount_amount: null | number;
  payment_method_options: null | PaymentIntentAmountDetailsLineItemPaymentMethodOptions;
  product_code: null | string;
  product_name: string;
  quantity: number;
  tax: null | PaymentIntentAmountDetailsLineItemTax;
  unit_cost: number;
  unit_of_measure: null | string;
}

export interface PaymentIntentAmountDetailsShipping {
  amount: null | number;
  from_postal_code: null | string;
  to_postal_code: null | string;
}

export interface PaymentIntentAmountDetailsTax {
  total_tax_amount: null | number;
}

export interface PaymentIntentAmountDetailsTip {
  amount?: number;
}

export interface PaymentIntentHooksInputs {
  tax?: PaymentIntentHooksInputsTax;
}

export interface PaymentIntentNextActionAlipayHandleRedirect {
  native_data: null | string;
  native_url: null | string;
  return_url: null | string;
  url: null | string;
}

export type PaymentIntentNextActionBlikAuthorize = Record<string, unknown>;

export interface PaymentIntentNextActionBoletoDisplayDetails {
  expires_at: null | number;
  hosted_voucher_url: null | string;
  number: null | string;
  pdf: null | string;
}

export interface PaymentIntentNextActionCardAwaitNotification {
  charge_attempt_at: null | number;
  customer_approval_required: null | boolean;
}

export interface PaymentIntentNextActionCashappHandleRedirectOrDisplayQrCode {
  hosted_instructions_url: string;
  mobile_auth_url: string;
  qr_code: PaymentIntentNextActionCashappHandleRedirectOrDisplayQrCodeQrCode;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructions {
  amount_remaining: null | number;
  currency: null | string;
  financial_addresses?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddress[];
  hosted_instructions_url: null | string;
  reference: null | string;
  type:
    | 'eu_bank_transfer'
    | 'gb_bank_transfer'
    | 'jp_bank_transfer'
    | 'mx_bank_transfer'
    | 'us_bank_transfer';
}

export interface PaymentIntentNextActionKlarnaDisplayQrCode {
  data: string;
  expires_at: null | number;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentNextActionKonbiniDisplayDetails {
  expires_at: number;
  hosted_voucher_url: null | string;
  stores: PaymentIntentNextActionKonbiniDisplayDetailsStores;
}

export interface PaymentIntentNextActionMultibancoDisplayDetails {
  entity: null | string;
  expires_at: null | number;
  hosted_voucher_url: null | string;
  reference: null | string;
}

export interface PaymentIntentNextActionOxxoDisplayDetails {
  expires_after: null | number;
  hosted_voucher_url: null | string;
  number: null | string;
}

export interface PaymentIntentNextActionPaynowDisplayQrCode {
  data: string;
  hosted_instructions_url: null | string;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentNextActionPixDisplayQrCode {
  data?: string;
  expires_at?: number;
  hosted_instructions_url?: string;
  image_url_png?: string;
  image_url_svg?: string;
}

export interface PaymentIntentNextActionPromptpayDisplayQrCode {
  data: string;
  hosted_instructions_url: string;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentNextActionRedirectToUrl {
  return_url: null | string;
  url: null | string;
}

export interface PaymentIntentNextActionSwishHandleRedirectOrDisplayQrCode {
  hosted_instructions_url: string;
  mobile_auth_url: string;
  qr_code: PaymentIntentNextActionSwishHandleRedirectOrDisplayQrCodeQrCode;
}

export interface PaymentIntentNextActionUpiHandleRedirectOrDisplayQrCode {
  hosted_instructions_url: string;
  qr_code: PaymentIntentNextActionUpiHandleRedirectOrDisplayQrCodeQrCode;
}

export type PaymentIntentNextActionUseStripeSdk = Record<string, unknown>;

export interface PaymentIntentNextActionVerifyWithMicrodeposits {
  arrival_date: number;
  hosted_verification_url: string;
  microdeposit_type: 'amounts' | 'descriptor_code' | null;
}

export interface PaymentIntentNextActionWechatPayDisplayQrCode {
  data: string;
  hosted_instructions_url: string;
  image_data_url: string;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentNextActionWechatPayRedirectToAndroidApp {
  app_id: string;
  nonce_str: string;
  package: string;
  partner_id: string;
  prepay_id: string;
  sign: string;
  timestamp: string;
}

export interface PaymentIntentNextActionWechatPayRedirectToIosApp {
  native_url: string;
}

export interface PaymentIntentPaymentMethodOptionsAcssDebit {
  mandate_options?: PaymentIntentPaymentMethodOptionsAcssDebitMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface PaymentIntentPaymentMethodOptionsAffirm {
  capture_method?: 'manual';
  preferred_locale?: string;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsAfterpayClearpay {
  capture_method?: 'manual';
  reference: null | string;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsAlipay {
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsAlma {
  capture_method?: 'manual';
}

export interface PaymentIntentPaymentMethodOptionsAmazonPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsAuBecsDebit {
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
}

export interface PaymentIntentPaymentMethodOptionsBacsDebit {
  mandate_options?: PaymentIntentPaymentMethodOptionsBacsDebitMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
}

export interface PaymentIntentPaymentMethodOptionsBancontact {
  preferred_language: 'de' | 'en' | 'fr' | 'nl';
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsBillie {
  capture_method?: 'manual';
  company_details?: PaymentIntentPaymentMethodOptionsBillieCompanyDetails;
  reference?: null | string;
}

export type PaymentIntentPaymentMethodOptionsBizum = Record<string, unknown>;

export interface PaymentIntentPaymentMethodOptionsBlik {
  mandate_options?: PaymentIntentPaymentMethodOptionsBlikMandateOptions;
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsBoleto {
  expires_after_days: number;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface PaymentIntentPaymentMethodOptionsCard {
  capture_method?: 'manual';
  installments: null | PaymentIntentPaymentMethodOptionsCardInstallments;
  mandate_options: null | PaymentIntentPaymentMethodOptionsCardMandateOptions;
  network:
    | 'amex'
    | 'cartes_bancaires'
    | 'diners'
    | 'discover'
    | 'eftpos_au'
    | 'girocard'
    | 'interac'
    | 'jcb'
    | 'link'
    | 'mastercard'
    | 'unionpay'
    | 'unknown'
    | 'visa'
    | null;
  request_extended_authorization?: 'if_available' | 'never';
  request_incremental_authorization?: 'if_available' | 'never';
  request_multicapture?: 'if_available' | 'never';
  request_overcapture?: 'if_available' | 'never';
  request_three_d_secure: 'any' | 'automatic' | 'challenge' | null;
  require_cvc_recollection?: boolean;
  setup_credential_usage?: 'installment' | 'recurring' | 'unscheduled';
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  statement_descriptor_suffix_kana?: string;
  statement_descriptor_suffix_kanji?: string;
  stored_credential_usage?: 'installment' | 'recurring' | 'unscheduled';
}

export interface PaymentIntentPaymentMethodOptionsCardPresent {
  capture_method?: 'manual' | 'manual_preferred';
  request_extended_authorization: null | boolean;
  request_incremental_authorization_support: null | boolean;
  routing?: PaymentIntentPaymentMethodOptionsCardPresentRouting;
}

export interface PaymentIntentPaymentMethodOptionsCashapp {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface PaymentIntentPaymentMethodOptionsCrypto {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsCustomerBalance {
  bank_transfer?: PaymentIntentPaymentMethodOptionsCustomerBalanceBankTransfer;
  funding_type: 'bank_transfer' | null;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsEps {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsFpx {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsGiropay {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsGrabpay {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsIdeal {
  setup_future_usage?: 'none' | 'off_session';
}

export type PaymentIntentPaymentMethodOptionsInteracPresent = Record<string, unknown>;

export interface PaymentIntentPaymentMethodOptionsKakaoPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsKlarna {
  capture_method?: 'manual';
  preferred_locale: null | string;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface PaymentIntentPaymentMethodOptionsKonbini {
  confirmation_number: null | string;
  expires_after_days: null | number;
  expires_at: null | number;
  product_description: null | string;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsKrCard {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsLink {
  capture_method?: 'manual';
  persistent_token: null | string;
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsMbWay {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsMobilepay {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsMultibanco {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsNaverPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsNzBankAccount {
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
}

export interface PaymentIntentPaymentMethodOptionsOxxo {
  expires_after_days: number;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsP24 {
  setup_future_usage?: 'none';
}

export type PaymentIntentPaymentMethodOptionsPayByBank = Record<string, unknown>;

export interface PaymentIntentPaymentMethodOptionsPayco {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsPaynow {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsPaypal {
  capture_method?: 'manual';
  preferred_locale: null | string;
  reference: null | string;
  setup_future_usage?: 'none' | 'off_session';
}

export type PaymentIntentPaymentMethodOptionsPaypay = Record<string, unknown>;

export interface PaymentIntentPaymentMethodOptionsPayto {
  mandate_options?: PaymentIntentPaymentMethodOptionsPaytoMandateOptions;
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsPix {
  amount_includes_iof?: 'always' | 'never';
  expires_after_seconds: null | number;
  expires_at: null | number;
  mandate_options?: PaymentIntentPaymentMethodOptionsPixMandateOptions;
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsPromptpay {
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsRevolutPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsSamsungPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsSatispay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface PaymentIntentPaymentMethodOptionsScalapay {
  capture_method?: 'manual';
}

export interface PaymentIntentPaymentMethodOptionsSepaDebit {
  mandate_options?: PaymentIntentPaymentMethodOptionsSepaDebitMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
}

export interface PaymentIntentPaymentMethodOptionsSequra {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsSofort {
  preferred_language: 'de' | 'en' | 'es' | 'fr' | 'it' | 'nl' | 'pl' | null;
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsSunbit {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsSwish {
  reference: null | string;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsTwint {
  setup_future_usage?: 'none' | 'off_session';
}

export interface PaymentIntentPaymentMethodOptionsUpi {
  setup_future_usage?: 'off_session' | 'on_session';
}

export interface PaymentIntentPaymentMethodOptionsUsBankAccount {
  financial_connections?: PaymentIntentPaymentMethodOptionsUsBankAccountFinancialConnections;
  mandate_options?: PaymentIntentPaymentMethodOptionsUsBankAccountMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
  transaction_purpose?: 'goods' | 'other' | 'services' | 'unspecified';
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface PaymentIntentPaymentMethodOptionsWechatPay {
  app_id: null | string;
  client: 'android' | 'ios' | 'web' | null;
  setup_future_usage?: 'none';
}

export interface PaymentIntentPaymentMethodOptionsZip {
  setup_future_usage?: 'none';
}

export interface PaymentIntentProcessingCard {
  customer_notification?: PaymentIntentProcessingCardCustomerNotification;
}

export interface PaymentIntentTransferDataPaymentData {
  description?: string;
  metadata?: Metadata;
}

export interface ChargeLevel3LineItem {
  discount_amount: null | number;
  product_code: string;
  product_description: string;
  quantity: null | number;
  tax_amount: null | number;
  unit_cost: null | number;
}

export interface ChargePaymentMethodDetailsAchCreditTransfer {
  account_number: null | string;
  bank_name: null | string;
  routing_number: null | string;
  swift_code: null | string;
}

export interface ChargePaymentMethodDetailsAchDebit {
  account_holder_type: 'company' | 'individual' | null;
  bank_name: null | string;
  country: null | string;
  fingerprint: null | string;
  last4: null | string;
  routing_number: null | string;
}

export interface ChargePaymentMethodDetailsAcssDebit {
  bank_name: null | string;
  expected_debit_date?: string;
  fingerprint: null | string;
  institution_number: null | string;
  last4: null | string;
  mandate?: string;
  transit_number: null | string;
}

export interface ChargePaymentMethodDetailsAffirm {
  location?: string;
  reader?: string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsAfterpayClearpay {
  order_id: null | string;
  reference: null | string;
}

export interface ChargePaymentMethodDetailsAlipay {
  buyer_id?: string;
  fingerprint: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsAlma {
  installments?: ChargePaymentMethodDetailsAlmaInstallments;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsAmazonPay {
  funding?: ChargePaymentMethodDetailsAmazonPayFunding;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsAuBecsDebit {
  bsb_number: null | string;
  expected_debit_date?: string;
  fingerprint: null | string;
  last4: null | string;
  mandate?: string;
}

export interface ChargePaymentMethodDetailsBacsDebit {
  expected_debit_date?: string;
  fingerprint: null | string;
  last4: null | string;
  mandate: null | string;
  sort_code: null | string;
}

export interface ChargePaymentMethodDetailsBancontact {
  bank_code: null | string;
  bank_name: null | string;
  bic: null | string;
  generated_sepa_debit: null | string;
  generated_sepa_debit_mandate: null | string;
  iban_last4: null | string;
  preferred_language: 'de' | 'en' | 'fr' | 'nl' | null;
  verified_name: null | string;
}

export interface ChargePaymentMethodDetailsBillie {
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsBizum {
  buyer_id: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsBlik {
  buyer_id: null | string;
}

export interface ChargePaymentMethodDetailsBoleto {
  tax_id: string;
}

export interface ChargePaymentMethodDetailsCard {
  amount_authorized: null | number;
  authorization_code: null | string;
  brand: null | string;
  capture_before?: number;
  checks: null | ChargePaymentMethodDetailsCardChecks;
  country: null | string;
  description?: null | string;
  electronic_commerce_indicator: null | string;
  exp_month: number;
  exp_year: number;
  extended_authorization?: ChargePaymentMethodDetailsCardExtendedAuthorization;
  fingerprint?: null | string;
  funding: null | string;
  iin?: null | string;
  incremental_authorization?: ChargePaymentMethodDetailsCardIncrementalAuthorization;
  installments: null | ChargePaymentMethodDetailsCardInstallments;
  issuer?: null | string;
  last4: null | string;
  mandate: null | string;
  moto?: null | boolean;
  multicapture?: ChargePaymentMethodDetailsCardMulticapture;
  network: null | string;
  network_token?: null | ChargePaymentMethodDetailsCardNetworkToken;
  network_transaction_id: null | string;
  overcapture?: ChargePaymentMethodDetailsCardOvercapture;
  regulated_status: 'regulated' | 'unregulated' | null;
  setup_credential_usage?: 'installment' | 'recurring' | 'unscheduled';
  stored_credential_usage?: 'installment' | 'recurring' | 'unscheduled';
  three_d_secure: null | ChargePaymentMethodDetailsCardThreeDSecure;
  transaction_link_id: null | string;
  wallet: null | ChargePaymentMethodDetailsCardWallet;
}

export interface ChargePaymentMethodDetailsCardPresent {
  amount_authorized: null | number;
  brand: null | string;
  brand_product: null | string;
  capture_before?: number;
  cardholder_name: null | string;
  country: null | string;
  description?: null | string;
  emv_auth_data: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint: null | string;
  funding: null | string;
  generated_card: null | string;
  iin?: null | string;
  incremental_authorization_supported: boolean;
  issuer?: null | string;
  last4: null | string;
  location?: string;
  network: null | string;
  network_transaction_id: null | string;
  offline: null | ChargePaymentMethodDetailsCardPresentOffline;
  overcapture_supported: boolean;
  preferred_locales: null | string[];
  read_method:
    | 'contact_emv'
    | 'contactless_emv'
    | 'contactless_magstripe_mode'
    | 'magnetic_stripe_fallback'
    | 'magnetic_stripe_track2'
    | null;
  reader?: string;
  receipt: null | ChargePaymentMethodDetailsCardPresentReceipt;
  wallet?: ChargePaymentMethodDetailsCardPresentWallet;
}

export interface ChargePaymentMethodDetailsCashapp {
  buyer_id: null | string;
  cashtag: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsCrypto {
  buyer_address?: string;
  network?: 'base' | 'ethereum' | 'polygon' | 'solana' | 'sui' | 'tempo';
  token_currency?: 'ousd' | 'phantom_cash' | 'usdc' | 'usdg' | 'usdp' | 'usdsui' | 'usdt';
  transaction_hash?: string;
}

export type ChargePaymentMethodDetailsCustomerBalance = Record<string, unknown>;

export interface ChargePaymentMethodDetailsEps {
  bank:
    | 'arzte_und_apotheker_bank'
    | 'austrian_anadi_bank_ag'
    | 'bank_austria'
    | 'bankhaus_carl_spangler'
    | 'bankhaus_schelhammer_und_schattera_ag'
    | 'bawag_psk_ag'
    | 'bks_bank_ag'
    | 'brull_kallmus_bank_ag'
    | 'btv_vier_lander_bank'
    | 'capital_bank_grawe_gruppe_ag'
    | 'deutsche_bank_ag'
    | 'dolomitenbank'
    | 'easybank_ag'
    | 'erste_bank_und_sparkassen'
    | 'hypo_alpeadriabank_international_ag'
    | 'hypo_bank_burgenland_aktiengesellschaft'
    | 'hypo_noe_lb_fur_niederosterreich_u_wien'
    | 'hypo_oberosterreich_salzburg_steiermark'
    | 'hypo_tirol_bank_ag'
    | 'hypo_vorarlberg_bank_ag'
    | 'marchfelder_bank'
    | 'oberbank_ag'
    | 'raiffeisen_bankengruppe_osterreich'
    | 'schoellerbank_ag'
    | 'sparda_bank_wien'
    | 'volksbank_gruppe'
    | 'volkskreditbank_ag'
    | 'vr_bank_braunau'
    | null;
  verified_name: null | string;
}

export interface ChargePaymentMethodDetailsFpx {
  account_holder_type: 'company' | 'individual' | null;
  bank:
    | 'affin_bank'
    | 'agrobank'
    | 'alliance_bank'
    | 'ambank'
    | 'bank_islam'
    | 'bank_muamalat'
    | 'bank_of_china'
    | 'bank_rakyat'
    | 'bnp_paribas'
    | 'bsn'
    | 'cimb'
    | 'citibank'
    | 'deutsche_bank'
    | 'hong_leong_bank'
    | 'hsbc'
    | 'kfh'
    | 'maybank2e'
    | 'maybank2u'
    | 'mbsb_bank'
    | 'ocbc'
    | 'pb_enterprise'
    | 'public_bank'
    | 'rhb'
    | 'standard_chartered'
    | 'uob';
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsGiropay {
  bank_code: null | string;
  bank_name: null | string;
  bic: null | string;
  verified_name: null | string;
}

export interface ChargePaymentMethodDetailsGrabpay {
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsIdeal {
  bank:
    | 'abn_amro'
    | 'adyen'
    | 'asn_bank'
    | 'bunq'
    | 'buut'
    | 'finom'
    | 'handelsbanken'
    | 'ing'
    | 'knab'
    | 'mollie'
    | 'moneyou'
    | 'n26'
    | 'nn'
    | 'rabobank'
    | 'regiobank'
    | 'revolut'
    | 'sns_bank'
    | 'triodos_bank'
    | 'van_lanschot'
    | 'yoursafe'
    | null;
  bic:
    | 'ABNANL2A'
    | 'ADYBNL2A'
    | 'ASNBNL21'
    | 'BITSNL2A'
    | 'BUNQNL2A'
    | 'BUUTNL2A'
    | 'FNOMNL22'
    | 'FVLBNL22'
    | 'HANDNL2A'
    | 'INGBNL2A'
    | 'KNABNL2H'
    | 'MLLENL2A'
    | 'MOYONL21'
    | 'NNBANL2G'
    | 'NTSBDEB1'
    | 'RABONL2U'
    | 'RBRBNL21'
    | 'REVOIE23'
    | 'REVOLT21'
    | 'SNSBNL2A'
    | 'TRIONL2U'
    | null;
  generated_sepa_debit: null | string;
  generated_sepa_debit_mandate: null | string;
  iban_last4: null | string;
  transaction_id: null | string;
  verified_name: null | string;
}

export interface ChargePaymentMethodDetailsInteracPresent {
  brand: null | string;
  cardholder_name: null | string;
  country: null | string;
  description?: null | string;
  emv_auth_data: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint: null | string;
  funding: null | string;
  generated_card: null | string;
  iin?: null | string;
  issuer?: null | string;
  last4: null | string;
  location?: string;
  network: null | string;
  network_transaction_id: null | string;
  preferred_locales: null | string[];
  read_method:
    | 'contact_emv'
    | 'contactless_emv'
    | 'contactless_magstripe_mode'
    | 'magnetic_stripe_fallback'
    | 'magnetic_stripe_track2'
    | null;
  reader?: string;
  receipt: null | ChargePaymentMethodDetailsInteracPresentReceipt;
}

export interface ChargePaymentMethodDetailsKakaoPay {
  buyer_id: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsKlarna {
  location?: string;
  payer_details: null | ChargePaymentMethodDetailsKlarnaPayerDetails;
  payment_method_category: null | string;
  preferred_locale: null | string;
  reader?: string;
}

export interface ChargePaymentMethodDetailsKonbini {
  store: null | ChargePaymentMethodDetailsKonbiniStore;
}

export interface ChargePaymentMethodDetailsKrCard {
  brand:
    | 'bc'
    | 'citi'
    | 'hana'
    | 'hyundai'
    | 'jeju'
    | 'jeonbuk'
    | 'kakaobank'
    | 'kbank'
    | 'kdbbank'
    | 'kookmin'
    | 'kwangju'
    | 'lotte'
    | 'mg'
    | 'nh'
    | 'post'
    | 'samsung'
    | 'savingsbank'
    | 'shinhan'
    | 'shinhyup'
    | 'suhyup'
    | 'tossbank'
    | 'woori'
    | null;
  buyer_id: null | string;
  last4: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsLink {
  country: null | string;
  funding_source_group?: string;
}

export type ChargePaymentMethodDetailsMbWay = Record<string, unknown>;

export interface ChargePaymentMethodDetailsMobilepay {
  card: null | ChargePaymentMethodDetailsMobilepayCard;
}

export interface ChargePaymentMethodDetailsMultibanco {
  entity: null | string;
  reference: null | string;
}

export interface ChargePaymentMethodDetailsNaverPay {
  buyer_id: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsNzBankAccount {
  account_holder_name: null | string;
  bank_code: string;
  bank_name: string;
  branch_code: string;
  expected_debit_date?: string;
  last4: string;
  suffix: null | string;
}

export interface ChargePaymentMethodDetailsOxxo {
  number: null | string;
}

export interface ChargePaymentMethodDetailsP24 {
  bank:
    | 'alior_bank'
    | 'bank_millennium'
    | 'bank_nowy_bfg_sa'
    | 'bank_pekao_sa'
    | 'banki_spbdzielcze'
    | 'blik'
    | 'bnp_paribas'
    | 'boz'
    | 'citi_handlowy'
    | 'credit_agricole'
    | 'envelobank'
    | 'etransfer_pocztowy24'
    | 'getin_bank'
    | 'ideabank'
    | 'ing'
    | 'inteligo'
    | 'mbank_mtransfer'
    | 'nest_przelew'
    | 'noble_pay'
    | 'pbac_z_ipko'
    | 'plus_bank'
    | 'santander_przelew24'
    | 'tmobile_usbugi_bankowe'
    | 'toyota_bank'
    | 'velobank'
    | 'volkswagen_bank'
    | null;
  reference: null | string;
  verified_name: null | string;
}

export type ChargePaymentMethodDetailsPayByBank = Record<string, unknown>;

export interface ChargePaymentMethodDetailsPayco {
  buyer_id: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsPaynow {
  location?: string;
  reader?: string;
  reference: null | string;
}

export interface ChargePaymentMethodDetailsPaypal {
  country: null | string;
  payer_email: null | string;
  payer_id: null | string;
  payer_name: null | string;
  seller_protection: null | ChargePaymentMethodDetailsPaypalSellerProtection;
  transaction_id: null | string;
}

export type ChargePaymentMethodDetailsPaypay = Record<string, unknown>;

export interface ChargePaymentMethodDetailsPayto {
  bsb_number: null | string;
  last4: null | string;
  mandate?: string;
  pay_id: null | string;
}

export interface ChargePaymentMethodDetailsPix {
  bank_transaction_id?: null | string;
  fingerprint?: null | string;
  mandate?: string;
}

export interface ChargePaymentMethodDetailsPromptpay {
  reference: null | string;
}

export interface ChargePaymentMethodDetailsRevolutPay {
  funding?: ChargePaymentMethodDetailsRevolutPayFunding;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsSamsungPay {
  buyer_id: null | string;
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsSatispay {
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsScalapay {
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsSepaCreditTransfer {
  bank_name: null | string;
  bic: null | string;
  iban: null | string;
}

export interface ChargePaymentMethodDetailsSepaDebit {
  bank_code: null | string;
  branch_code: null | string;
  country: null | string;
  expected_debit_date?: string;
  fingerprint: null | string;
  last4: null | string;
  mandate: null | string;
}

export interface ChargePaymentMethodDetailsSequra {
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsSofort {
  bank_code: null | string;
  bank_name: null | string;
  bic: null | string;
  country: null | string;
  generated_sepa_debit: null | string;
  generated_sepa_debit_mandate: null | string;
  iban_last4: null | string;
  preferred_language: 'de' | 'en' | 'es' | 'fr' | 'it' | 'nl' | 'pl' | null;
  verified_name: null | string;
}

export type ChargePaymentMethodDetailsStripeAccount = Record<string, unknown>;

export interface ChargePaymentMethodDetailsSunbit {
  transaction_id: null | string;
}

export interface ChargePaymentMethodDetailsSwish {
  fingerprint: null | string;
  payment_reference: null | string;
  verified_phone_last4: null | string;
}

export interface ChargePaymentMethodDetailsTwint {
  mandate?: string;
}

export interface ChargePaymentMethodDetailsUpi {
  vpa: null | string;
}

export interface ChargePaymentMethodDetailsUsBankAccount {
  account_holder_type: 'company' | 'individual' | null;
  account_type: 'checking' | 'savings' | null;
  bank_name: null | string;
  expected_debit_date?: string;
  fingerprint: null | string;
  last4: null | string;
  mandate?: string;
  payment_reference: null | string;
  routing_number: null | string;
}

export type ChargePaymentMethodDetailsWechat = Record<string, unknown>;

export interface ChargePaymentMethodDetailsWechatPay {
  fingerprint: null | string;
  location?: string;
  reader?: string;
  transaction_id: null | string;
}

export type ChargePaymentMethodDetailsZip = Record<string, unknown>;

export type RefundDestinationDetailsAffirm = Record<string, unknown>;

export interface RefundDestinationDetailsAfterpayClearpay {
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsAlipay = Record<string, unknown>;

export type RefundDestinationDetailsAlma = Record<string, unknown>;

export type RefundDestinationDetailsAmazonPay = Record<string, unknown>;

export type RefundDestinationDetailsAuBankTransfer = Record<string, unknown>;

export interface RefundDestinationDetailsBlik {
  network_decline_code: null | string;
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsBrBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsCard {
  reference?: string;
  reference_status?: string;
  reference_type?: string;
  type: 'pending' | 'refund' | 'reversal';
}

export type RefundDestinationDetailsCashapp = Record<string, unknown>;

export interface RefundDestinationDetailsCrypto {
  reference: null | string;
}

export type RefundDestinationDetailsCustomerCashBalance = Record<string, unknown>;

export type RefundDestinationDetailsEps = Record<string, unknown>;

export interface RefundDestinationDetailsEuBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsGbBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsGiropay = Record<string, unknown>;

export type RefundDestinationDetailsGrabpay = Record<string, unknown>;

export interface RefundDestinationDetailsJpBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsKlarna {
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsMbWay {
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsMultibanco {
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsMxBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsNzBankTransfer = Record<string, unknown>;

export interface RefundDestinationDetailsP24 {
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsPaynow = Record<string, unknown>;

export interface RefundDestinationDetailsPaypal {
  network_decline_code: null | string;
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsPix = Record<string, unknown>;

export type RefundDestinationDetailsRevolut = Record<string, unknown>;

export type RefundDestinationDetailsScalapay = Record<string, unknown>;

export type RefundDestinationDetailsSofort = Record<string, unknown>;

export interface RefundDestinationDetailsSwish {
  network_decline_code: null | string;
  reference: null | string;
  reference_status: null | string;
}

export interface RefundDestinationDetailsThBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsTwint = Record<string, unknown>;

export interface RefundDestinationDetailsUsBankTransfer {
  reference: null | string;
  reference_status: null | string;
}

export type RefundDestinationDetailsWechatPay = Record<string, unknown>;

export type RefundDestinationDetailsZip = Record<string, unknown>;

export interface RefundNextActionDisplayDetails {
  email_sent: RefundNextActionDisplayDetailsEmailSent;
  expires_at: number;
}

export interface DisputeEvidenceAppeal {
  card?: DisputeEvidenceAppealCard;
}

export interface DisputeEvidenceEnhancedEvidence {
  mastercard_compliance?: DisputeEvidenceEnhancedEvidenceMastercardCompliance;
  visa_compelling_evidence_3?: DisputeEvidenceEnhancedEvidenceVisaCompellingEvidence3;
  visa_compliance?: DisputeEvidenceEnhancedEvidenceVisaCompliance;
}

export interface DisputeEvidenceDetailsEnhancedEligibility {
  mastercard_compliance?: DisputeEvidenceDetailsEnhancedEligibilityMastercardCompliance;
  visa_compelling_evidence_3?: DisputeEvidenceDetailsEnhancedEligibilityVisaCompellingEvidence3;
  visa_compliance?: DisputeEvidenceDetailsEnhancedEligibilityVisaCompliance;
}

export interface DisputePaymentMethodDetailsAmazonPay {
  dispute_type: 'chargeback' | 'claim' | null;
}

export interface DisputePaymentMethodDetailsCard {
  brand: string;
  case_type: 'block' | 'chargeback' | 'compliance' | 'inquiry' | 'resolution';
  network: string;
  network_reason_code: null | string;
}

export interface DisputePaymentMethodDetailsKlarna {
  chargeback_loss_reason_code?: string;
  reason_code: null | string;
}

export interface DisputePaymentMethodDetailsPaypal {
  case_id: null | string;
  reason_code: null | string;
}

export type EventDataObject = Record<string, unknown>;

export type EventDataPreviousAttributes = Record<string, unknown>;

export interface InvoiceAutomaticTaxLiability {
  account?: string;
  type: 'account' | 'self';
}

export interface InvoiceParentQuoteDetails {
  quote: string;
}

export interface InvoiceParentSubscriptionDetails {
  metadata: null | Metadata;
  subscription: string;
  subscription_proration_date?: number;
}

export interface InvoicePaymentSettingsPaymentMethodOptions {
  acss_debit: null | InvoicePaymentSettingsPaymentMethodOptionsAcssDebit;
  bancontact: null | InvoicePaymentSettingsPaymentMethodOptionsBancontact;
  billie?: null | InvoicePaymentSettingsPaymentMethodOptionsBillie;
  blik?: null | InvoicePaymentSettingsPaymentMethodOptionsBlik;
  card: null | InvoicePaymentSettingsPaymentMethodOptionsCard;
  customer_balance: null | InvoicePaymentSettingsPaymentMethodOptionsCustomerBalance;
  konbini: null | InvoicePaymentSettingsPaymentMethodOptionsKonbini;
  payto: null | InvoicePaymentSettingsPaymentMethodOptionsPayto;
  pix: null | InvoicePaymentSettingsPaymentMethodOptionsPix;
  sepa_debit: null | InvoicePaymentSettingsPaymentMethodOptionsSepaDebit;
  upi: null | InvoicePaymentSettingsPaymentMethodOptionsUpi;
  us_bank_account: null | InvoicePaymentSettingsPaymentMethodOptionsUsBankAccount;
}

export interface InvoiceRenderingPdf {
  page_size: 'a4' | 'auto' | 'letter' | null;
}

export interface InvoiceShippingCostTax {
  amount: number;
  rate: TaxRate;
  taxability_reason:
    | 'customer_exempt'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated'
    | null;
  taxable_amount: null | number;
}

export interface InvoiceStatusDetailsUncollectible {
  reason:
    | 'max_payment_attempts'
    | 'payment_not_received'
    | 'subscription_canceled'
    | 'subscription_paused'
    | 'user_forgiven'
    | null;
}

export interface InvoiceThresholdReasonItemReason {
  line_item_ids: string[];
  usage_gte: number;
}

export interface InvoiceTotalTaxTaxRateDetails {
  tax_rate: string;
}

export interface LineItemParentInvoiceItemDetails {
  invoice_item: string;
  proration: boolean;
  proration_details: null | LineItemParentInvoiceItemDetailsProrationDetails;
  subscription: null | string;
}

export interface LineItemParentSubscriptionItemDetails {
  invoice_item: null | string;
  proration: boolean;
  proration_details: null | LineItemParentSubscriptionItemDetailsProrationDetails;
  subscription: null | string;
  subscription_item: string;
}

export interface LineItemPricingPriceDetails {
  price: string;
  product: string;
}

export interface LineItemTaxTaxRateDetails {
  tax_rate: string;
}

export interface InvoiceitemParentSubscriptionDetails {
  subscription: string;
  subscription_item?: string;
}

export interface InvoiceitemPricingPriceDetails {
  price: string;
  product: string;
}

export interface InvoiceitemProrationDetailsCreditedItems {
  invoice_item?: string;
  invoice_line_item_details?: InvoiceitemProrationDetailsCreditedItemsInvoiceLineItemDetails;
  type: 'invoice_item' | 'invoice_line_items';
}

export interface InvoiceitemProrationDetailsDiscountAmount {
  amount: number;
  discount: string;
}

export interface SubscriptionAutomaticTaxLiability {
  account?: string;
  type: 'account' | 'self';
}

export interface SubscriptionBillingModeFlexible {
  proration_discounts?: 'included' | 'itemized';
}

export interface SubscriptionBillingScheduleAppliesTo {
  price: null | string;
  type: 'price';
}

export interface SubscriptionBillingScheduleBillUntil {
  computed_timestamp: number;
  duration: null | SubscriptionBillingScheduleBillUntilDuration;
  timestamp: null | number;
  type: 'duration' | 'timestamp';
}

export interface SubscriptionInvoiceSettingsCustomField {
  name: string;
  value: string;
}

export interface SubscriptionInvoiceSettingsIssuer {
  account?: string;
  type: 'account' | 'self';
}

export interface SubscriptionPaymentSettingsPaymentMethodOptions {
  acss_debit: null | SubscriptionPaymentSettingsPaymentMethodOptionsAcssDebit;
  bancontact: null | SubscriptionPaymentSettingsPaymentMethodOptionsBancontact;
  billie?: null | SubscriptionPaymentSettingsPaymentMethodOptionsBillie;
  blik?: null | SubscriptionPaymentSettingsPaymentMethodOptionsBlik;
  card: null | SubscriptionPaymentSettingsPaymentMethodOptionsCard;
  customer_balance: null | SubscriptionPaymentSettingsPaymentMethodOptionsCustomerBalance;
  konbini: null | SubscriptionPaymentSettingsPaymentMethodOptionsKonbini;
  payto: null | SubscriptionPaymentSettingsPaymentMethodOptionsPayto;
  pix: null | SubscriptionPaymentSettingsPaymentMethodOptionsPix;
  sepa_debit: null | SubscriptionPaymentSettingsPaymentMethodOptionsSepaDebit;
  upi: null | SubscriptionPaymentSettingsPaymentMethodOptionsUpi;
  us_bank_account: null | SubscriptionPaymentSettingsPaymentMethodOptionsUsBankAccount;
}

export interface SubscriptionStatusDetailsPaused {
  subscription: SubscriptionStatusDetailsPausedSubscription;
  transitioned_at: number;
  type: 'subscription';
}

export interface SubscriptionTrialSettingsEndBehavior {
  billing_cycle_anchor: 'now' | 'unchanged' | null;
  missing_payment_method: 'cancel' | 'create_invoice' | 'pause';
}

export interface PlanTier {
  flat_amount: null | number;
  flat_amount_decimal: null | string;
  unit_amount: null | number;
  unit_amount_decimal: null | string;
  up_to: null | number;
}

export interface PlanTransformUsage {
  divide_by: number;
  round: 'down' | 'up';
}

export interface CreditNoteLineItemDiscountAmount {
  amount: number;
  discount: string;
}

export interface CreditNoteLineItemPretaxCreditAmount {
  amount: number;
  credit_balance_transaction?: string;
  discount?: string;
  type: 'credit_balance_transaction' | 'discount';
}

export interface CreditNoteLineItemTax {
  amount: number;
  tax_behavior: 'exclusive' | 'inclusive';
  tax_rate_details: null | CreditNoteLineItemTaxTaxRateDetails;
  taxability_reason:
    | 'customer_exempt'
    | 'not_available'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated';
  taxable_amount: null | number;
  type: 'tax_rate_details';
}

export interface CreditNoteRefundPaymentRecordRefund {
  payment_record: string;
  refund_group: string;
}

export interface CreditNoteShippingCostTax {
  amount: number;
  rate: TaxRate;
  taxability_reason:
    | 'customer_exempt'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated'
    | null;
  taxable_amount: null | number;
}

export interface CreditNoteTotalTaxTaxRateDetails {
  tax_rate: string;
}

export interface PaymentLinkAfterCompletionHostedConfirmation {
  custom_message: null | string;
}

export interface PaymentLinkAfterCompletionRedirect {
  url: string;
}

export interface PaymentLinkAutomaticTaxLiability {
  account?: string;
  type: 'account' | 'self';
}

export interface PaymentLinkConsentCollectionPaymentMethodReuseAgreement {
  position: 'auto' | 'hidden';
}

export interface PaymentLinkCustomFieldDropdown {
  default_value: null | string;
  options: PaymentLinkCustomFieldDropdownOption[];
}

export interface PaymentLinkCustomFieldLabel {
  custom: null | string;
  type: 'custom';
}

export interface PaymentLinkCustomFieldNumeric {
  default_value: null | string;
  maximum_length: null | number;
  minimum_length: null | number;
}

export interface PaymentLinkCustomFieldText {
  default_value: null | string;
  maximum_length: null | number;
  minimum_length: null | number;
}

export interface PaymentLinkCustomTextAfterSubmit {
  message: string;
}

export interface PaymentLinkCustomTextShippingAddress {
  message: string;
}

export interface PaymentLinkCustomTextSubmit {
  message: string;
}

export interface PaymentLinkCustomTextTermsOfServiceAcceptance {
  message: string;
}

export interface PaymentLinkInvoiceCreationInvoiceData {
  account_tax_ids: null | string[];
  custom_fields: null | PaymentLinkInvoiceCreationInvoiceDataCustomField[];
  description: null | string;
  footer: null | string;
  issuer: null | PaymentLinkInvoiceCreationInvoiceDataIssuer;
  metadata: null | Metadata;
  rendering_options: null | PaymentLinkInvoiceCreationInvoiceDataRenderingOptions;
}

export interface LineitemsLineItemAdjustableQuantity {
  enabled: boolean;
  maximum: null | number;
  minimum: null | number;
}

export interface LineitemsLineItemDiscount {
  amount: number;
  discount: Discount;
}

export interface LineitemsLineItemTax {
  amount: number;
  rate: TaxRate;
  taxability_reason:
    | 'customer_exempt'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated'
    | null;
  taxable_amount: null | number;
}

export interface PaymentLinkNameCollectionBusiness {
  enabled: boolean;
  optional: boolean;
}

export interface PaymentLinkNameCollectionIndividual {
  enabled: boolean;
  optional: boolean;
}

export interface PaymentLinkOptionalItemAdjustableQuantity {
  enabled: boolean;
  maximum: null | number;
  minimum: null | number;
}

export interface PaymentLinkPaymentMethodOptionsCard {
  restrictions: null | PaymentLinkPaymentMethodOptionsCardRestrictions;
}

export interface PaymentLinkRestrictionsCompletedSessions {
  count: number;
  limit: number;
}

export interface PaymentLinkSubscriptionDataInvoiceSettings {
  account_tax_ids: null | string[];
  custom_fields: null | PaymentLinkSubscriptionDataInvoiceSettingsCustomField[];
  description: null | string;
  footer: null | string;
  issuer: PaymentLinkSubscriptionDataInvoiceSettingsIssuer;
}

export interface PaymentLinkSubscriptionDataTrialSettings {
  end_behavior: PaymentLinkSubscriptionDataTrialSettingsEndBehavior;
}

export interface CheckoutSessionAfterExpirationRecovery {
  allow_promotion_codes: boolean;
  enabled: boolean;
  expires_at: null | number;
  url: null | string;
}

export interface CheckoutSessionAutomaticTaxLiability {
  account?: string;
  type: 'account' | 'self';
}

export interface CheckoutSessionBrandingSettingsIcon {
  file?: string;
  type: 'file' | 'url';
  url?: string;
}

export interface CheckoutSessionBrandingSettingsLogo {
  file?: string;
  type: 'file' | 'url';
  url?: string;
}

export interface CheckoutSessionCollectedInformationShippingDetails {
  address: Address;
  name: string;
}

export interface CheckoutSessionConsentCollectionPaymentMethodReuseAgreement {
  position: 'auto' | 'hidden';
}

export interface CheckoutSessionCustomFieldDropdown {
  default_value: null | string;
  options: CheckoutSessionCustomFieldDropdownOption[];
  value: null | string;
}

export interface CheckoutSessionCustomFieldLabel {
  custom: null | string;
  type: 'custom';
}

export interface CheckoutSessionCustomFieldNumeric {
  default_value: null | string;
  maximum_length: null | number;
  minimum_length: null | number;
  value: null | string;
}

export interface CheckoutSessionCustomFieldText {
  default_value: null | string;
  maximum_length: null | number;
  minimum_length: null | number;
  value: null | string;
}

export interface CheckoutSessionCustomTextAfterSubmit {
  message: string;
}

export interface CheckoutSessionCustomTextShippingAddress {
  message: string;
}

export interface CheckoutSessionCustomTextSubmit {
  message: string;
}

export interface CheckoutSessionCustomTextTermsOfServiceAcceptance {
  message: string;
}

export interface CheckoutSessionCustomerDetailsTaxId {
  type:
    | 'ad_nrt'
    | 'ae_trn'
    | 'al_tin'
    | 'am_tin'
    | 'ao_tin'
    | 'ar_cuit'
    | 'au_abn'
    | 'au_acn'
    | 'au_arn'
    | 'au_wpn'
    | 'aw_tin'
    | 'az_tin'
    | 'ba_tin'
    | 'bb_tin'
    | 'bd_bin'
    | 'bf_ifu'
    | 'bg_uic'
    | 'bh_vat'
    | 'bj_ifu'
    | 'bo_tin'
    | 'br_cnpj'
    | 'br_cpf'
    | 'bs_tin'
    | 'bw_vat'
    | 'by_tin'
    | 'ca_bn'
    | 'ca_gst_hst'
    | 'ca_pst_bc'
    | 'ca_pst_mb'
    | 'ca_pst_sk'
    | 'ca_qst'
    | 'cd_nif'
    | 'ch_uid'
    | 'ch_vat'
    | 'ci_vat'
    | 'cl_tin'
    | 'cm_niu'
    | 'cn_tin'
    | 'co_nit'
    | 'cr_tin'
    | 'cv_nif'
    | 'cz_dic'
    | 'de_stn'
    | 'do_rcn'
    | 'ec_ruc'
    | 'eg_tin'
    | 'es_cif'
    | 'et_tin'
    | 'eu_oss_vat'
    | 'eu_vat'
    | 'fo_vat'
    | 'fr_siren'
    | 'fr_siret'
    | 'fr_spi'
    | 'gb_vat'
    | 'ge_vat'
    | 'gh_tin'
    | 'gi_tin'
    | 'gn_nif'
    | 'hk_br'
    | 'hr_oib'
    | 'hu_tin'
    | 'ic_nif'
    | 'id_npwp'
    | 'il_vat'
    | 'in_gst'
    | 'is_kt'
    | 'is_vat'
    | 'it_cf'
    | 'jp_cn'
    | 'jp_rn'
    | 'jp_trn'
    | 'ke_pin'
    | 'kg_tin'
    | 'kh_tin'
    | 'kr_brn'
    | 'kz_bin'
    | 'la_tin'
    | 'li_uid'
    | 'li_vat'
    | 'lk_vat'
    | 'ma_vat'
    | 'md_cf'
    | 'md_vat'
    | 'me_pib'
    | 'mk_vat'
    | 'mr_nif'
    | 'mu_vat'
    | 'mx_rfc'
    | 'my_frp'
    | 'my_itn'
    | 'my_sst'
    | 'mz_nuit'
    | 'ng_tin'
    | 'no_vat'
    | 'no_voec'
    | 'np_pan'
    | 'nz_bn'
    | 'nz_gst'
    | 'om_vat'
    | 'pe_ruc'
    | 'ph_tin'
    | 'pl_nip'
    | 'pt_nif'
    | 'py_ruc'
    | 'ro_tin'
    | 'rs_pib'
    | 'ru_inn'
    | 'ru_kpp'
    | 'sa_vat'
    | 'sg_gst'
    | 'sg_uen'
    | 'si_tin'
    | 'sm_coe'
    | 'sn_ninea'
    | 'sr_fin'
    | 'sv_nit'
    | 'th_vat'
    | 'tj_tin'
    | 'tr_tin'
    | 'tt_bir'
    | 'tt_vat'
    | 'tw_vat'
    | 'tz_vat'
    | 'ua_vat'
    | 'ug_tin'
    | 'unknown'
    | 'us_ein'
    | 'uy_ruc'
    | 'uz_tin'
    | 'uz_vat'
    | 've_rif'
    | 'vn_tin'
    | 'za_vat'
    | 'zm_tin'
    | 'zw_tin';
  value: null | string;
}

export interface CheckoutSessionInvoiceCreationInvoiceData {
  account_tax_ids: null | string[];
  custom_fields: null | CheckoutSessionInvoiceCreationInvoiceDataCustomField[];
  description: null | string;
  footer: null | string;
  issuer: null | CheckoutSessionInvoiceCreationInvoiceDataIssuer;
  metadata: null | Metadata;
  rendering_options: null | CheckoutSessionInvoiceCreationInvoiceDataRenderingOptions;
}

export interface CheckoutSessionNameCollectionBusiness {
  enabled: boolean;
  optional: boolean;
}

export interface CheckoutSessionNameCollectionIndividual {
  enabled: boolean;
  optional: boolean;
}

export interface CheckoutSessionOptionalItemAdjustableQuantity {
  enabled: boolean;
  maximum: null | number;
  minimum: null | number;
}

export interface CheckoutSessionPaymentMethodOptionsAcssDebit {
  currency?: 'cad' | 'usd';
  mandate_options?: CheckoutSessionPaymentMethodOptionsAcssDebitMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface CheckoutSessionPaymentMethodOptionsAffirm {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsAfterpayClearpay {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsAlipay {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsAlma {
  capture_method?: 'manual';
}

export interface CheckoutSessionPaymentMethodOptionsAmazonPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsAuBecsDebit {
  setup_future_usage?: 'none';
  target_date?: string;
}

export interface CheckoutSessionPaymentMethodOptionsBacsDebit {
  mandate_options?: CheckoutSessionPaymentMethodOptionsBacsDebitMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
}

export interface CheckoutSessionPaymentMethodOptionsBancontact {
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsBillie {
  capture_method?: 'manual';
}

export interface CheckoutSessionPaymentMethodOptionsBoleto {
  expires_after_days: number;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface CheckoutSessionPaymentMethodOptionsCard {
  capture_method?: 'manual';
  installments?: CheckoutSessionPaymentMethodOptionsCardInstallments;
  request_extended_authorization?: 'if_available' | 'never';
  request_incremental_authorization?: 'if_available' | 'never';
  request_multicapture?: 'if_available' | 'never';
  request_overcapture?: 'if_available' | 'never';
  request_three_d_secure: 'any' | 'automatic' | 'challenge';
  restrictions?: CheckoutSessionPaymentMethodOptionsCardRestrictions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  statement_descriptor_suffix_kana?: string;
  statement_descriptor_suffix_kanji?: string;
}

export interface CheckoutSessionPaymentMethodOptionsCashapp {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsCustomerBalance {
  bank_transfer?: CheckoutSessionPaymentMethodOptionsCustomerBalanceBankTransfer;
  funding_type: 'bank_transfer' | null;
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsEps {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsFpx {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsGiropay {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsGrabpay {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsIdeal {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsKakaoPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsKlarna {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface CheckoutSessionPaymentMethodOptionsKonbini {
  expires_after_days: null | number;
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsKrCard {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsLink {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsMobilepay {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsMultibanco {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsNaverPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsOxxo {
  expires_after_days: number;
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsP24 {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsPayco {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsPaynow {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsPaypal {
  capture_method?: 'manual';
  preferred_locale: null | string;
  reference: null | string;
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsPayto {
  mandate_options?: CheckoutSessionPaymentMethodOptionsPaytoMandateOptions;
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsPix {
  amount_includes_iof?: 'always' | 'never';
  expires_after_seconds: null | number;
  mandate_options?: CheckoutSessionPaymentMethodOptionsPixMandateOptions;
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsRevolutPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsSamsungPay {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsSatispay {
  capture_method?: 'manual';
}

export interface CheckoutSessionPaymentMethodOptionsScalapay {
  capture_method?: 'manual';
}

export interface CheckoutSessionPaymentMethodOptionsSepaDebit {
  mandate_options?: CheckoutSessionPaymentMethodOptionsSepaDebitMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
}

export interface CheckoutSessionPaymentMethodOptionsSequra {
  capture_method?: 'manual';
}

export interface CheckoutSessionPaymentMethodOptionsSofort {
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsSunbit {
  capture_method?: 'manual';
  setup_future_usage?: 'none';
}

export interface CheckoutSessionPaymentMethodOptionsSwish {
  reference: null | string;
}

export interface CheckoutSessionPaymentMethodOptionsTwint {
  setup_future_usage?: 'none' | 'off_session';
}

export interface CheckoutSessionPaymentMethodOptionsUpi {
  mandate_options?: CheckoutSessionPaymentMethodOptionsUpiMandateOptions;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
}

export interface CheckoutSessionPaymentMethodOptionsUsBankAccount {
  financial_connections?: CheckoutSessionPaymentMethodOptionsUsBankAccountFinancialConnections;
  setup_future_usage?: 'none' | 'off_session' | 'on_session';
  target_date?: string;
  verification_method?: 'automatic' | 'instant';
}

export interface CheckoutSessionPaymentMethodOptionsWechatPay {
  app_id: null | string;
  client: 'android' | 'ios' | 'web' | null;
  setup_future_usage?: 'none';
}

export interface CheckoutSessionShippingCostTax {
  amount: number;
  rate: TaxRate;
  taxability_reason:
    | 'customer_exempt'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated'
    | null;
  taxable_amount: null | number;
}

export interface CheckoutSessionTotalDetailsBreakdown {
  discounts: CheckoutSessionTotalDetailsBreakdownDiscount[];
  taxes: CheckoutSessionTotalDetailsBreakdownTax[];
}

export interface CheckoutSessionWalletOptionsLink {
  display?: 'auto' | 'never';
}

export interface TestHelpersTestClockStatusDetailsAdvancing {
  target_frozen_time: number;
}

export interface BankAccountFutureRequirementsError {
  code:
    | 'external_request'
    | 'information_missing'
    | 'invalid_address_city_state_postal_code'
    | 'invalid_address_cmra_address'
    | 'invalid_address_highway_contract_box'
    | 'invalid_address_private_mailbox'
    | 'invalid_address_registered_agent_address'
    | 'invalid_business_profile_name'
    | 'invalid_business_profile_name_denylisted'
    | 'invalid_company_name_denylisted'
    | 'invalid_dob_age_over_maximum'
    | 'invalid_dob_age_under_18'
    | 'invalid_dob_age_under_minimum'
    | 'invalid_product_description_length'
    | 'invalid_product_description_url_match'
    | 'invalid_representative_country'
    | 'invalid_signator'
    | 'invalid_statement_descriptor_business_mismatch'
    | 'invalid_statement_descriptor_denylisted'
    | 'invalid_statement_descriptor_length'
    | 'invalid_statement_descriptor_prefix_denylisted'
    | 'invalid_statement_descriptor_prefix_mismatch'
    | 'invalid_street_address'
    | 'invalid_tax_id'
    | 'invalid_tax_id_format'
    | 'invalid_tos_acceptance'
    | 'invalid_url_denylisted'
    | 'invalid_url_format'
    | 'invalid_url_length'
    | 'invalid_url_web_presence_detected'
    | 'invalid_url_website_business_information_mismatch'
    | 'invalid_url_website_empty'
    | 'invalid_url_website_inaccessible'
    | 'invalid_url_website_inaccessible_geoblocked'
    | 'invalid_url_website_inaccessible_password_protected'
    | 'invalid_url_website_incomplete'
    | 'invalid_url_website_incomplete_cancellation_policy'
    | 'invalid_url_website_incomplete_customer_service_details'
    | 'invalid_url_website_incomplete_legal_restrictions'
    | 'invalid_url_website_incomplete_refund_policy'
    | 'invalid_url_website_incomplete_return_policy'
    | 'invalid_url_website_incomplete_terms_and_conditions'
    | 'invalid_url_website_incomplete_under_construction'
    | 'invalid_url_website_other'
    | 'invalid_value_other'
    | 'unsupported_business_type'
    | 'verification_directors_mismatch'
    | 'verification_document_address_mismatch'
    | 'verification_document_address_missing'
    | 'verification_document_corrupt'
    | 'verification_document_country_not_supported'
    | 'verification_document_directors_mismatch'
    | 'verification_document_dob_mismatch'
    | 'verification_document_duplicate_type'
    | 'verification_document_expired'
    | 'verification_document_failed_copy'
    | 'verification_document_failed_greyscale'
    | 'verification_document_failed_other'
    | 'verification_document_failed_test_mode'
    | 'verification_document_fraudulent'
    | 'verification_document_id_number_mismatch'
    | 'verification_document_id_number_missing'
    | 'verification_document_incomplete'
    | 'verification_document_invalid'
    | 'verification_document_issue_or_expiry_date_missing'
    | 'verification_document_manipulated'
    | 'verification_document_missing_back'
    | 'verification_document_missing_front'
    | 'verification_document_name_mismatch'
    | 'verification_document_name_missing'
    | 'verification_document_nationality_mismatch'
    | 'verification_document_not_readable'
    | 'verification_document_not_signed'
    | 'verification_document_not_uploaded'
    | 'verification_document_photo_mismatch'
    | 'verification_document_too_large'
    | 'verification_document_type_not_supported'
    | 'verification_extraneous_directors'
    | 'verification_failed_address_match'
    | 'verification_failed_authorizer_authority'
    | 'verification_failed_business_iec_number'
    | 'verification_failed_document_match'
    | 'verification_failed_id_number_match'
    | 'verification_failed_keyed_identity'
    | 'verification_failed_keyed_match'
    | 'verification_failed_name_match'
    | 'verification_failed_other'
    | 'verification_failed_representative_authority'
    | 'verification_failed_residential_address'
    | 'verification_failed_tax_id_match'
    | 'verification_failed_tax_id_not_issued'
    | 'verification_legal_entity_structure_mismatch'
    | 'verification_missing_directors'
    | 'verification_missing_executives'
    | 'verification_missing_owners'
    | 'verification_rejected_ownership_exemption_reason'
    | 'verification_requires_additional_memorandum_of_associations'
    | 'verification_requires_additional_proof_of_registration'
    | 'verification_supportability';
  reason: string;
  requirement: string;
}

export interface BankAccountRequirementsError {
  code:
    | 'external_request'
    | 'information_missing'
    | 'invalid_address_city_state_postal_code'
    | 'invalid_address_cmra_address'
    | 'invalid_address_highway_contract_box'
    | 'invalid_address_private_mailbox'
    | 'invalid_address_registered_agent_address'
    | 'invalid_business_profile_name'
    | 'invalid_business_profile_name_denylisted'
    | 'invalid_company_name_denylisted'
    | 'invalid_dob_age_over_maximum'
    | 'invalid_dob_age_under_18'
    | 'invalid_dob_age_under_minimum'
    | 'invalid_product_description_length'
    | 'invalid_product_description_url_match'
    | 'invalid_representative_country'
    | 'invalid_signator'
    | 'invalid_statement_descriptor_business_mismatch'
    | 'invalid_statement_descriptor_denylisted'
    | 'invalid_statement_descriptor_length'
    | 'invalid_statement_descriptor_prefix_denylisted'
    | 'invalid_statement_descriptor_prefix_mismatch'
    | 'invalid_street_address'
    | 'invalid_tax_id'
    | 'invalid_tax_id_format'
    | 'invalid_tos_acceptance'
    | 'invalid_url_denylisted'
    | 'invalid_url_format'
    | 'invalid_url_length'
    | 'invalid_url_web_presence_detected'
    | 'invalid_url_website_business_information_mismatch'
    | 'invalid_url_website_empty'
    | 'invalid_url_website_inaccessible'
    | 'invalid_url_website_inaccessible_geoblocked'
    | 'invalid_url_website_inaccessible_password_protected'
    | 'invalid_url_website_incomplete'
    | 'invalid_url_website_incomplete_cancellation_policy'
    | 'invalid_url_website_incomplete_customer_service_details'
    | 'invalid_url_website_incomplete_legal_restrictions'
    | 'invalid_url_website_incomplete_refund_policy'
    | 'invalid_url_website_incomplete_return_policy'
    | 'invalid_url_website_incomplete_terms_and_conditions'
    | 'invalid_url_website_incomplete_under_construction'
    | 'invalid_url_website_other'
    | 'invalid_value_other'
    | 'unsupported_business_type'
    | 'verification_directors_mismatch'
    | 'verification_document_address_mismatch'
    | 'verification_document_address_missing'
    | 'verification_document_corrupt'
    | 'verification_document_country_not_supported'
    | 'verification_document_directors_mismatch'
    | 'verification_document_dob_mismatch'
    | 'verification_document_duplicate_type'
    | 'verification_document_expired'
    | 'verification_document_failed_copy'
    | 'verification_document_failed_greyscale'
    | 'verification_document_failed_other'
    | 'verification_document_failed_test_mode'
    | 'verification_document_fraudulent'
    | 'verification_document_id_number_mismatch'
    | 'verification_document_id_number_missing'
    | 'verification_document_incomplete'
    | 'verification_document_invalid'
    | 'verification_document_issue_or_expiry_date_missing'
    | 'verification_document_manipulated'
    | 'verification_document_missing_back'
    | 'verification_document_missing_front'
    | 'verification_document_name_mismatch'
    | 'verification_document_name_missing'
    | 'verification_document_nationality_mismatch'
    | 'verification_document_not_readable'
    | 'verification_document_not_signed'
    | 'verification_document_not_uploaded'
    | 'verification_document_photo_mismatch'
    | 'verification_document_too_large'
    | 'verification_document_type_not_supported'
    | 'verification_extraneous_directors'
    | 'verification_failed_address_match'
    | 'verification_failed_authorizer_authority'
    | 'verification_failed_business_iec_number'
    | 'verification_failed_document_match'
    | 'verification_failed_id_number_match'
    | 'verification_failed_keyed_identity'
    | 'verification_failed_keyed_match'
    | 'verification_failed_name_match'
    | 'verification_failed_other'
    | 'verification_failed_representative_authority'
    | 'verification_failed_residential_address'
    | 'verification_failed_tax_id_match'
    | 'verification_failed_tax_id_not_issued'
    | 'verification_legal_entity_structure_mismatch'
    | 'verification_missing_directors'
    | 'verification_missing_executives'
    | 'verification_missing_owners'
    | 'verification_rejected_ownership_exemption_reason'
    | 'verification_requires_additional_memorandum_of_associations'
    | 'verification_requires_additional_proof_of_registration'
    | 'verification_supportability';
  reason: string;
  requirement: string;
}

export interface AccountBusinessProfileAnnualRevenue {
  amount: null | number;
  currency: null | string;
  fiscal_year_end: null | string;
}

export interface AccountBusinessProfileMonthlyEstimatedRevenue {
  amount: number;
  currency: string;
}

export interface AccountCompanyAddressKana {
  city: null | string;
  country: null | string;
  line1: null | string;
  line2: null | string;
  postal_code: null | string;
  state: null | string;
  town: null | string;
}

export interface AccountCompanyAddressKanji {
  city: null | string;
  country: null | string;
  line1: null | string;
  line2: null | string;
  postal_code: null | string;
  state: null | string;
  town: null | string;
}

export interface AccountCompanyDirectorshipDeclaration {
  date: null | number;
  ip: null | string;
  user_agent: null | string;
}

export interface AccountCompanyOwnershipDeclaration {
  date: null | number;
  ip: null | string;
  user_agent: null | string;
}

export interface AccountCompanyRegistrationDate {
  day: null | number;
  month: null | number;
  year: null | number;
}

export interface AccountCompanyRepresentativeDeclaration {
  date: null | number;
  ip: null | string;
  user_agent: null | string;
}

export interface AccountCompanyVerification {
  document: AccountCompanyVerificationDocument;
}

export interface AccountControllerFees {
  payer: 'account' | 'application' | 'application_custom' | 'application_express';
}

export interface AccountControllerLosses {
  payments: 'application' | 'stripe';
}

export interface AccountControllerStripeDashboard {
  type: 'express' | 'full' | 'none';
}

export interface AccountFutureRequirementsAlternative {
  alternative_fields_due: string[];
  original_fields_due: string[];
}

export interface AccountFutureRequirementsError {
  code:
    | 'external_request'
    | 'information_missing'
    | 'invalid_address_city_state_postal_code'
    | 'invalid_address_cmra_address'
    | 'invalid_address_highway_contract_box'
    | 'invalid_address_private_mailbox'
    | 'invalid_address_registered_agent_address'
    | 'invalid_business_profile_name'
    | 'invalid_business_profile_name_denylisted'
    | 'invalid_company_name_denylisted'
    | 'invalid_dob_age_over_maximum'
    | 'invalid_dob_age_under_18'
    | 'invalid_dob_age_under_minimum'
    | 'invalid_product_description_length'
    | 'invalid_product_description_url_match'
    | 'invalid_representative_country'
    | 'invalid_signator'
    | 'invalid_statement_descriptor_business_mismatch'
    | 'invalid_statement_descriptor_denylisted'
    | 'invalid_statement_descriptor_length'
    | 'invalid_statement_descriptor_prefix_denylisted'
    | 'invalid_statement_descriptor_prefix_mismatch'
    | 'invalid_street_address'
    | 'invalid_tax_id'
    | 'invalid_tax_id_format'
    | 'invalid_tos_acceptance'
    | 'invalid_url_denylisted'
    | 'invalid_url_format'
    | 'invalid_url_length'
    | 'invalid_url_web_presence_detected'
    | 'invalid_url_website_business_information_mismatch'
    | 'invalid_url_website_empty'
    | 'invalid_url_website_inaccessible'
    | 'invalid_url_website_inaccessible_geoblocked'
    | 'invalid_url_website_inaccessible_password_protected'
    | 'invalid_url_website_incomplete'
    | 'invalid_url_website_incomplete_cancellation_policy'
    | 'invalid_url_website_incomplete_customer_service_details'
    | 'invalid_url_website_incomplete_legal_restrictions'
    | 'invalid_url_website_incomplete_refund_policy'
    | 'invalid_url_website_incomplete_return_policy'
    | 'invalid_url_website_incomplete_terms_and_conditions'
    | 'invalid_url_website_incomplete_under_construction'
    | 'invalid_url_website_other'
    | 'invalid_value_other'
    | 'unsupported_business_type'
    | 'verification_directors_mismatch'
    | 'verification_document_address_mismatch'
    | 'verification_document_address_missing'
    | 'verification_document_corrupt'
    | 'verification_document_country_not_supported'
    | 'verification_document_directors_mismatch'
    | 'verification_document_dob_mismatch'
    | 'verification_document_duplicate_type'
    | 'verification_document_expired'
    | 'verification_document_failed_copy'
    | 'verification_document_failed_greyscale'
    | 'verification_document_failed_other'
    | 'verification_document_failed_test_mode'
    | 'verification_document_fraudulent'
    | 'verification_document_id_number_mismatch'
    | 'verification_document_id_number_missing'
    | 'verification_document_incomplete'
    | 'verification_document_invalid'
    | 'verification_document_issue_or_expiry_date_missing'
    | 'verification_document_manipulated'
    | 'verification_document_missing_back'
    | 'verification_document_missing_front'
    | 'verification_document_name_mismatch'
    | 'verification_document_name_missing'
    | 'verification_document_nationality_mismatch'
    | 'verification_document_not_readable'
    | 'verification_document_not_signed'
    | 'verification_document_not_uploaded'
    | 'verification_document_photo_mismatch'
    | 'verification_document_too_large'
    | 'verification_document_type_not_supported'
    | 'verification_extraneous_directors'
    | 'verification_failed_address_match'
    | 'verification_failed_authorizer_authority'
    | 'verification_failed_business_iec_number'
    | 'verification_failed_document_match'
    | 'verification_failed_id_number_match'
    | 'verification_failed_keyed_identity'
    | 'verification_failed_keyed_match'
    | 'verification_failed_name_match'
    | 'verification_failed_other'
    | 'verification_failed_representative_authority'
    | 'verification_failed_residential_address'
    | 'verification_failed_tax_id_match'
    | 'verification_failed_tax_id_not_issued'
    | 'verification_legal_entity_structure_mismatch'
    | 'verification_missing_directors'
    | 'verification_missing_executives'
    | 'verification_missing_owners'
    | 'verification_rejected_ownership_exemption_reason'
    | 'verification_requires_additional_memorandum_of_associations'
    | 'verification_requires_additional_proof_of_registration'
    | 'verification_supportability';
  reason: string;
  requirement: string;
}

export interface PersonAdditionalTosAcceptances {
  account: null | PersonAdditionalTosAcceptancesAccount;
}

export interface PersonAddressKana {
  city: null | string;
  country: null | string;
  line1: null | string;
  line2: null | string;
  postal_code: null | string;
  state: null | string;
  town: null | string;
}

export interface PersonAddressKanji {
  city: null | string;
  country: null | string;
  line1: null | string;
  line2: null | string;
  postal_code: null | string;
  state: null | string;
  town: null | string;
}

export interface PersonDob {
  day: null | number;
  month: null | number;
  year: null | number;
}

export interface PersonFutureRequirements {
  alternatives: null | PersonFutureRequirementsAlternative[];
  currently_due: string[];
  errors: PersonFutureRequirementsError[];
  eventually_due: string[];
  past_due: string[];
  pending_verification: string[];
}

export interface PersonRelationship {
  authorizer: null | boolean;
  director: null | boolean;
  executive: null | boolean;
  legal_guardian: null | boolean;
  owner: null | boolean;
  percent_ownership: null | number;
  representative: null | boolean;
  title: null | string;
}

export interface PersonRequirements {
  alternatives: null | PersonRequirementsAlternative[];
  currently_due: string[];
  errors: PersonRequirementsError[];
  eventually_due: string[];
  past_due: string[];
  pending_verification: string[];
}

export interface PersonUsCfpbData {
  ethnicity_details: null | PersonUsCfpbDataEthnicityDetails;
  race_details: null | PersonUsCfpbDataRaceDetails;
  self_identified_gender: null | string;
}

export interface PersonVerification {
  additional_document?: null | PersonVerificationAdditionalDocument;
  details?: null | string;
  details_code?: null | string;
  document?: PersonVerificationDocument;
  status: string;
}

export interface AccountRequirementsAlternative {
  alternative_fields_due: string[];
  original_fields_due: string[];
}

export interface AccountRequirementsError {
  code:
    | 'external_request'
    | 'information_missing'
    | 'invalid_address_city_state_postal_code'
    | 'invalid_address_cmra_address'
    | 'invalid_address_highway_contract_box'
    | 'invalid_address_private_mailbox'
    | 'invalid_address_registered_agent_address'
    | 'invalid_business_profile_name'
    | 'invalid_business_profile_name_denylisted'
    | 'invalid_company_name_denylisted'
    | 'invalid_dob_age_over_maximum'
    | 'invalid_dob_age_under_18'
    | 'invalid_dob_age_under_minimum'
    | 'invalid_product_description_length'
    | 'invalid_product_description_url_match'
    | 'invalid_representative_country'
    | 'invalid_signator'
    | 'invalid_statement_descriptor_business_mismatch'
    | 'invalid_statement_descriptor_denylisted'
    | 'invalid_statement_descriptor_length'
    | 'invalid_statement_descriptor_prefix_denylisted'
    | 'invalid_statement_descriptor_prefix_mismatch'
    | 'invalid_street_address'
    | 'invalid_tax_id'
    | 'invalid_tax_id_format'
    | 'invalid_tos_acceptance'
    | 'invalid_url_denylisted'
    | 'invalid_url_format'
    | 'invalid_url_length'
    | 'invalid_url_web_presence_detected'
    | 'invalid_url_website_business_information_mismatch'
    | 'invalid_url_website_empty'
    | 'invalid_url_website_inaccessible'
    | 'invalid_url_website_inaccessible_geoblocked'
    | 'invalid_url_website_inaccessible_password_protected'
    | 'invalid_url_website_incomplete'
    | 'invalid_url_website_incomplete_cancellation_policy'
    | 'invalid_url_website_incomplete_customer_service_details'
    | 'invalid_url_website_incomplete_legal_restrictions'
    | 'invalid_url_website_incomplete_refund_policy'
    | 'invalid_url_website_incomplete_return_policy'
    | 'invalid_url_website_incomplete_terms_and_conditions'
    | 'invalid_url_website_incomplete_under_construction'
    | 'invalid_url_website_other'
    | 'invalid_value_other'
    | 'unsupported_business_type'
    | 'verification_directors_mismatch'
    | 'verification_document_address_mismatch'
    | 'verification_document_address_missing'
    | 'verification_document_corrupt'
    | 'verification_document_country_not_supported'
    | 'verification_document_directors_mismatch'
    | 'verification_document_dob_mismatch'
    | 'verification_document_duplicate_type'
    | 'verification_document_expired'
    | 'verification_document_failed_copy'
    | 'verification_document_failed_greyscale'
    | 'verification_document_failed_other'
    | 'verification_document_failed_test_mode'
    | 'verification_document_fraudulent'
    | 'verification_document_id_number_mismatch'
    | 'verification_document_id_number_missing'
    | 'verification_document_incomplete'
    | 'verification_document_invalid'
    | 'verification_document_issue_or_expiry_date_missing'
    | 'verification_document_manipulated'
    | 'verification_document_missing_back'
    | 'verification_document_missing_front'
    | 'verification_document_name_mismatch'
    | 'verification_document_name_missing'
    | 'verification_document_nationality_mismatch'
    | 'verification_document_not_readable'
    | 'verification_document_not_signed'
    | 'verification_document_not_uploaded'
    | 'verification_document_photo_mismatch'
    | 'verification_document_too_large'
    | 'verification_document_type_not_supported'
    | 'verification_extraneous_directors'
    | 'verification_failed_address_match'
    | 'verification_failed_authorizer_authority'
    | 'verification_failed_business_iec_number'
    | 'verification_failed_document_match'
    | 'verification_failed_id_number_match'
    | 'verification_failed_keyed_identity'
    | 'verification_failed_keyed_match'
    | 'verification_failed_name_match'
    | 'verification_failed_other'
    | 'verification_failed_representative_authority'
    | 'verification_failed_residential_address'
    | 'verification_failed_tax_id_match'
    | 'verification_failed_tax_id_not_issued'
    | 'verification_legal_entity_structure_mismatch'
    | 'verification_missing_directors'
    | 'verification_missing_executives'
    | 'verification_missing_owners'
    | 'verification_rejected_ownership_exemption_reason'
    | 'verification_requires_additional_memorandum_of_associations'
    | 'verification_requires_additional_proof_of_registration'
    | 'verification_supportability';
  reason: string;
  requirement: string;
}

export interface AccountSettingsBacsDebitPayments {
  display_name: null | string;
  service_user_number: null | string;
}

export interface AccountSettingsBranding {
  icon: null | string;
  logo: null | string;
  primary_color: null | string;
  secondary_color: null | string;
}

export interface AccountSettingsCardIssuing {
  tos_acceptance?: AccountSettingsCardIssuingTosAcceptance;
}

export interface AccountSettingsCardPayments {
  decline_on?: AccountSettingsCardPaymentsDeclineOn;
  statement_descriptor_prefix: null | string;
  statement_descriptor_prefix_kana: null | string;
  statement_descriptor_prefix_kanji: null | string;
}

export interface AccountSettingsDashboard {
  display_name: null | string;
  timezone: null | string;
}

export interface AccountSettingsInvoices {
  default_account_tax_ids: null | string[];
  hosted_payment_method_save: 'always' | 'never' | 'offer' | null;
}

export interface AccountSettingsPayments {
  statement_descriptor: null | string;
  statement_descriptor_kana: null | string;
  statement_descriptor_kanji: null | string;
  statement_descriptor_prefix_kana: null | string;
  statement_descriptor_prefix_kanji: null | string;
}

export interface AccountSettingsPayouts {
  debit_negative_balances: boolean;
  schedule: AccountSettingsPayoutsSchedule;
  statement_descriptor: null | string;
}

export interface AccountSettingsPaypayPayments {
  additional_files?: string[];
  goods_type?: 'digital_content' | 'other';
  site?: AccountSettingsPaypayPaymentsSite;
}

export interface AccountSettingsSepaDebitPayments {
  creditor_id?: string;
}

export interface AccountSettingsTreasury {
  tos_acceptance?: AccountSettingsTreasuryTosAcceptance;
}

export interface SourceSourceOrderItem {
  amount: null | number;
  currency: null | string;
  description: null | string;
  parent: null | string;
  quantity?: number;
  type: null | string;
}

export interface SourceSourceOrderShipping {
  address?: Address;
  carrier?: null | string;
  name?: string;
  phone?: null | string;
  tracking_number?: null | string;
}

export interface PaymentMethodCardGeneratedFromPaymentMethodDetails {
  card_present?: PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresent;
  type: string;
}

export type PaymentMethodCardWalletAmexExpressCheckout = Record<string, unknown>;

export type PaymentMethodCardWalletApplePay = Record<string, unknown>;

export type PaymentMethodCardWalletGooglePay = Record<string, unknown>;

export type PaymentMethodCardWalletLink = Record<string, unknown>;

export interface PaymentMethodCardWalletMasterpass {
  billing_address: null | Address;
  email: null | string;
  name: null | string;
  shipping_address: null | Address;
}

export type PaymentMethodCardWalletSamsungPay = Record<string, unknown>;

export interface PaymentMethodCardWalletVisaCheckout {
  billing_address: null | Address;
  email: null | string;
  name: null | string;
  shipping_address: null | Address;
}

export interface PaymentMethodUsBankAccountStatusDetailsBlocked {
  network_code:
    | 'R02'
    | 'R03'
    | 'R04'
    | 'R05'
    | 'R07'
    | 'R08'
    | 'R10'
    | 'R11'
    | 'R16'
    | 'R20'
    | 'R29'
    | 'R31'
    | null;
  reason:
    | 'bank_account_closed'
    | 'bank_account_frozen'
    | 'bank_account_invalid_details'
    | 'bank_account_restricted'
    | 'bank_account_unusable'
    | 'debit_not_authorized'
    | 'tokenized_account_number_deactivated'
    | null;
}

export interface SetupIntentNextActionCashappHandleRedirectOrDisplayQrCodeQrCode {
  expires_at: number;
  image_url_png: string;
  image_url_svg: string;
}

export interface SetupIntentNextActionUpiHandleRedirectOrDisplayQrCodeQrCode {
  expires_at: number;
  image_url_png: string;
  image_url_svg: string;
}

export interface SetupIntentPaymentMethodOptionsAcssDebitMandateOptions {
  custom_mandate_url?: string;
  default_for?: Array<'invoice' | 'subscription'>;
  interval_description: null | string;
  payment_schedule: 'combined' | 'interval' | 'sporadic' | null;
  transaction_type: 'business' | 'personal' | null;
}

export interface SetupIntentPaymentMethodOptionsBacsDebitMandateOptions {
  reference_prefix?: string;
}

export interface SetupIntentPaymentMethodOptionsBlikMandateOptions {
  expires_at: null | number;
  type: 'off_session' | null;
}

export interface SetupIntentPaymentMethodOptionsCardMandateOptions {
  amount: number;
  amount_type: 'fixed' | 'maximum';
  currency: string;
  description: null | string;
  end_date: null | number;
  interval: 'day' | 'month' | 'sporadic' | 'week' | 'year';
  interval_count: null | number;
  reference: string;
  start_date: number;
  supported_types: null | Array<'india'>;
}

export interface SetupIntentPaymentMethodOptionsPaytoMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  end_date: null | string;
  payment_schedule:
    | 'adhoc'
    | 'annual'
    | 'daily'
    | 'fortnightly'
    | 'monthly'
    | 'quarterly'
    | 'semi_annual'
    | 'weekly'
    | null;
  payments_per_period: null | number;
  purpose:
    | 'dependant_support'
    | 'government'
    | 'loan'
    | 'mortgage'
    | 'other'
    | 'pension'
    | 'personal'
    | 'retail'
    | 'salary'
    | 'tax'
    | 'utility'
    | null;
  start_date: null | string;
}

export interface SetupIntentPaymentMethodOptionsPixMandateOptions {
  amount?: number;
  amount_includes_iof?: 'always' | 'never';
  amount_type?: 'fixed' | 'maximum';
  currency?: string;
  end_date?: string;
  payment_schedule?: 'halfyearly' | 'monthly' | 'quarterly' | 'weekly' | 'yearly';
  reference?: string;
  start_date?: string;
}

export interface SetupIntentPaymentMethodOptionsSepaDebitMandateOptions {
  reference_prefix?: string;
}

export interface SetupIntentPaymentMethodOptionsUpiMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  description: null | string;
  end_date: null | number;
}

export interface SetupIntentPaymentMethodOptionsUsBankAccountFinancialConnections {
  filters?: SetupIntentPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters;
  permissions?: Array<'balances' | 'ownership' | 'payment_method' | 'transactions'>;
  prefetch: null | Array<'balances' | 'ownership' | 'transactions'>;
  return_url?: string;
}

export interface SetupIntentPaymentMethodOptionsUsBankAccountMandateOptions {
  collection_method?: 'paper';
}

export interface PaymentIntentAmountDetailsLineItemPaymentMethodOptions {
  card?: PaymentIntentAmountDetailsLineItemPaymentMethodOptionsCard;
  card_present?: PaymentIntentAmountDetailsLineItemPaymentMethodOptionsCardPresent;
  klarna?: PaymentIntentAmountDetailsLineItemPaymentMethodOptionsKlarna;
  paypal?: PaymentIntentAmountDetailsLineItemPaymentMethodOptionsPaypal;
}

export interface PaymentIntentAmountDetailsLineItemTax {
  total_tax_amount: number;
}

export interface PaymentIntentHooksInputsTax {
  calculation: string;
}

export interface PaymentIntentNextActionCashappHandleRedirectOrDisplayQrCodeQrCode {
  expires_at: number;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddress {
  aba?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressAba;
  iban?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressIban;
  sort_code?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressSortCode;
  spei?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressSpei;
  supported_networks?: Array<
    'ach' | 'bacs' | 'chaps' | 'domestic_wire_us' | 'fps' | 'sepa' | 'spei' | 'swift' | 'zengin'
  >;
  swift?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressSwift;
  type: 'aba' | 'iban' | 'sort_code' | 'spei' | 'swift' | 'zengin';
  zengin?: PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressZengin;
}

export interface PaymentIntentNextActionKonbiniDisplayDetailsStores {
  familymart: null | PaymentIntentNextActionKonbiniDisplayDetailsStoresFamilymart;
  lawson: null | PaymentIntentNextActionKonbiniDisplayDetailsStoresLawson;
  ministop: null | PaymentIntentNextActionKonbiniDisplayDetailsStoresMinistop;
  seicomart: null | PaymentIntentNextActionKonbiniDisplayDetailsStoresSeicomart;
}

export interface PaymentIntentNextActionSwishHandleRedirectOrDisplayQrCodeQrCode {
  data: string;
  expires_at: number;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentNextActionUpiHandleRedirectOrDisplayQrCodeQrCode {
  expires_at: number;
  image_url_png: string;
  image_url_svg: string;
}

export interface PaymentIntentPaymentMethodOptionsAcssDebitMandateOptions {
  custom_mandate_url?: string;
  interval_description: null | string;
  payment_schedule: 'combined' | 'interval' | 'sporadic' | null;
  transaction_type: 'business' | 'personal' | null;
}

export interface PaymentIntentPaymentMethodOptionsBacsDebitMandateOptions {
  reference_prefix?: string;
}

export interface PaymentIntentPaymentMethodOptionsBillieCompanyDetails {
  registered_address?: Address;
  registered_name: null | string;
  registration_number: null | string;
  registration_type?:
    | 'ch_ein'
    | 'de_hrb'
    | 'dk_cvr'
    | 'es_cif'
    | 'fi_tunnus'
    | 'fr_siren'
    | 'fr_siret'
    | 'it_rea'
    | 'nl_kvk'
    | 'no_org_number'
    | 'no_pno'
    | 'se_org_number'
    | 'se_pno'
    | 'uk_crn';
  vat: null | string;
}

export interface PaymentIntentPaymentMethodOptionsBlikMandateOptions {
  expires_at: null | number;
  type: 'off_session' | null;
}

export interface PaymentIntentPaymentMethodOptionsCardInstallments {
  available_plans: null | PaymentIntentPaymentMethodOptionsCardInstallmentsAvailablePlan[];
  enabled: boolean;
  plan: null | PaymentIntentPaymentMethodOptionsCardInstallmentsPlan;
}

export interface PaymentIntentPaymentMethodOptionsCardMandateOptions {
  amount: number;
  amount_type: 'fixed' | 'maximum';
  description: null | string;
  end_date: null | number;
  interval: 'day' | 'month' | 'sporadic' | 'week' | 'year';
  interval_count: null | number;
  reference: string;
  start_date: number;
  supported_types: null | Array<'india'>;
}

export interface PaymentIntentPaymentMethodOptionsCardPresentRouting {
  requested_priority: 'domestic' | 'international' | null;
}

export interface PaymentIntentPaymentMethodOptionsCustomerBalanceBankTransfer {
  eu_bank_transfer?: PaymentIntentPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer;
  requested_address_types?: Array<
    'aba' | 'iban' | 'sepa' | 'sort_code' | 'spei' | 'swift' | 'zengin'
  >;
  type:
    | 'eu_bank_transfer'
    | 'gb_bank_transfer'
    | 'jp_bank_transfer'
    | 'mx_bank_transfer'
    | 'us_bank_transfer'
    | null;
}

export interface PaymentIntentPaymentMethodOptionsPaytoMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  end_date: null | string;
  payment_schedule:
    | 'adhoc'
    | 'annual'
    | 'daily'
    | 'fortnightly'
    | 'monthly'
    | 'quarterly'
    | 'semi_annual'
    | 'weekly'
    | null;
  payments_per_period: null | number;
  purpose:
    | 'dependant_support'
    | 'government'
    | 'loan'
    | 'mortgage'
    | 'other'
    | 'pension'
    | 'personal'
    | 'retail'
    | 'salary'
    | 'tax'
    | 'utility'
    | null;
}

export interface PaymentIntentPaymentMethodOptionsPixMandateOptions {
  amount?: number;
  amount_includes_iof?: 'always' | 'never';
  amount_type?: 'fixed' | 'maximum';
  currency?: string;
  end_date?: string;
  payment_schedule?: 'halfyearly' | 'monthly' | 'quarterly' | 'weekly' | 'yearly';
  reference?: string;
  start_date?: string;
}

export interface PaymentIntentPaymentMethodOptionsSepaDebitMandateOptions {
  reference_prefix?: string;
}

export interface PaymentIntentPaymentMethodOptionsUsBankAccountFinancialConnections {
  filters?: PaymentIntentPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters;
  permissions?: Array<'balances' | 'ownership' | 'payment_method' | 'transactions'>;
  prefetch: null | Array<'balances' | 'ownership' | 'transactions'>;
  return_url?: string;
}

export interface PaymentIntentPaymentMethodOptionsUsBankAccountMandateOptions {
  collection_method?: 'paper';
}

export interface PaymentIntentProcessingCardCustomerNotification {
  approval_requested: null | boolean;
  completes_at: null | number;
}

export interface ChargePaymentMethodDetailsAlmaInstallments {
  count: number;
}

export interface ChargePaymentMethodDetailsAmazonPayFunding {
  card?: ChargePaymentMethodDetailsAmazonPayFundingCard;
  type: 'card' | null;
}

export interface ChargePaymentMethodDetailsCardChecks {
  address_line1_check: null | string;
  address_postal_code_check: null | string;
  cvc_check: null | string;
}

export interface ChargePaymentMethodDetailsCardExtendedAuthorization {
  status: 'disabled' | 'enabled';
}

export interface ChargePaymentMethodDetailsCardIncrementalAuthorization {
  status: 'available' | 'unavailable';
}

export interface ChargePaymentMethodDetailsCardInstallments {
  plan: null | ChargePaymentMethodDetailsCardInstallmentsPlan;
}

export interface ChargePaymentMethodDetailsCardMulticapture {
  status: 'available' | 'unavailable';
}

export interface ChargePaymentMethodDetailsCardNetworkToken {
  used: boolean;
}

export interface ChargePaymentMethodDetailsCardOvercapture {
  maximum_amount_capturable: number;
  status: 'available' | 'unavailable';
}

export interface ChargePaymentMethodDetailsCardThreeDSecure {
  authentication_flow: 'challenge' | 'frictionless' | null;
  electronic_commerce_indicator: '01' | '02' | '05' | '06' | '07' | null;
  exemption_indicator: 'low_risk' | 'none' | null;
  exemption_indicator_applied?: boolean;
  result:
    | 'attempt_acknowledged'
    | 'authenticated'
    | 'data_share_only'
    | 'exempted'
    | 'failed'
    | 'not_supported'
    | 'processing_error'
    | null;
  result_reason:
    | 'abandoned'
    | 'bypassed'
    | 'canceled'
    | 'card_not_enrolled'
    | 'network_not_supported'
    | 'protocol_error'
    | 'rejected'
    | null;
  transaction_id: null | string;
  version: '1.0.2' | '2.1.0' | '2.2.0' | '2.3.0' | '2.3.1' | null;
}

export interface ChargePaymentMethodDetailsCardWallet {
  amex_express_checkout?: ChargePaymentMethodDetailsCardWalletAmexExpressCheckout;
  apple_pay?: ChargePaymentMethodDetailsCardWalletApplePay;
  dynamic_last4: null | string;
  google_pay?: ChargePaymentMethodDetailsCardWalletGooglePay;
  link?: ChargePaymentMethodDetailsCardWalletLink;
  masterpass?: ChargePaymentMethodDetailsCardWalletMasterpass;
  samsung_pay?: ChargePaymentMethodDetailsCardWalletSamsungPay;
  type:
    | 'amex_express_checkout'
    | 'apple_pay'
    | 'google_pay'
    | 'link'
    | 'masterpass'
    | 'samsung_pay'
    | 'visa_checkout';
  visa_checkout?: ChargePaymentMethodDetailsCardWalletVisaCheckout;
}

export interface ChargePaymentMethodDetailsCardPresentOffline {
  stored_at: null | number;
  type: 'deferred' | null;
}

export interface ChargePaymentMethodDetailsCardPresentReceipt {
  account_type?: 'checking' | 'credit' | 'prepaid' | 'unknown';
  application_cryptogram: null | string;
  application_preferred_name: null | string;
  authorization_code: null | string;
  authorization_response_code: null | string;
  cardholder_verification_method: null | string;
  dedicated_file_name: null | string;
  terminal_verification_results: null | string;
  transaction_status_information: null | string;
}

export interface ChargePaymentMethodDetailsCardPresentWallet {
  type: 'apple_pay' | 'google_pay' | 'samsung_pay' | 'unknown';
}

export interface ChargePaymentMethodDetailsInteracPresentReceipt {
  account_type?: 'checking' | 'savings' | 'unknown';
  application_cryptogram: null | string;
  application_preferred_name: null | string;
  authorization_code: null | string;
  authorization_response_code: null | string;
  cardholder_verification_method: null | string;
  dedicated_file_name: null | string;
  terminal_verification_results: null | string;
  transaction_status_information: null | string;
}

export interface ChargePaymentMethodDetailsKlarnaPayerDetails {
  address: null | ChargePaymentMethodDetailsKlarnaPayerDetailsAddress;
}

export interface ChargePaymentMethodDetailsKonbiniStore {
  chain: 'familymart' | 'lawson' | 'ministop' | 'seicomart' | null;
}

export interface ChargePaymentMethodDetailsMobilepayCard {
  brand: null | string;
  country: null | string;
  exp_month: null | number;
  exp_year: null | number;
  last4: null | string;
}

export interface ChargePaymentMethodDetailsPaypalSellerProtection {
  dispute_categories: null | Array<'fraudulent' | 'product_not_received'>;
  status: 'eligible' | 'not_eligible' | 'partially_eligible';
}

export interface ChargePaymentMethodDetailsRevolutPayFunding {
  card?: ChargePaymentMethodDetailsRevolutPayFundingCard;
  type: 'card' | null;
}

export interface RefundNextActionDisplayDetailsEmailSent {
  email_sent_at: number;
  email_sent_to: string;
}

export interface DisputeEvidenceAppealCard {
  reason_for_filing?: string;
  supporting_files?: string[];
}

export interface DisputeEvidenceEnhancedEvidenceMastercardCompliance {
  fee_acknowledged: boolean;
}

export interface DisputeEvidenceEnhancedEvidenceVisaCompellingEvidence3 {
  disputed_transaction: null | DisputeEvidenceEnhancedEvidenceVisaCompellingEvidence3DisputedTransaction;
  prior_undisputed_transactions: DisputeEvidenceEnhancedEvidenceVisaCompellingEvidence3PriorUndisputedTransaction[];
}

export interface DisputeEvidenceEnhancedEvidenceVisaCompliance {
  fee_acknowledged: boolean;
}

export interface DisputeEvidenceDetailsEnhancedEligibilityMastercardCompliance {
  status: 'fee_acknowledged' | 'requires_fee_acknowledgement';
}

export interface DisputeEvidenceDetailsEnhancedEligibilityVisaCompellingEvidence3 {
  required_actions: Array<
    | 'missing_customer_identifiers'
    | 'missing_disputed_transaction_description'
    | 'missing_merchandise_or_services'
    | 'missing_prior_undisputed_transaction_description'
    | 'missing_prior_undisputed_transactions'
  >;
  status: 'not_qualified' | 'qualified' | 'requires_action';
}

export interface DisputeEvidenceDetailsEnhancedEligibilityVisaCompliance {
  status: 'fee_acknowledged' | 'requires_fee_acknowledgement';
}

export interface InvoicePaymentSettingsPaymentMethodOptionsAcssDebit {
  mandate_options?: InvoicePaymentSettingsPaymentMethodOptionsAcssDebitMandateOptions;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface InvoicePaymentSettingsPaymentMethodOptionsBancontact {
  preferred_language: 'de' | 'en' | 'fr' | 'nl';
}

export interface InvoicePaymentSettingsPaymentMethodOptionsBillie {
  company_details?: InvoicePaymentSettingsPaymentMethodOptionsBillieCompanyDetails;
  reference?: null | string;
}

export type InvoicePaymentSettingsPaymentMethodOptionsBlik = Record<string, unknown>;

export interface InvoicePaymentSettingsPaymentMethodOptionsCard {
  installments?: InvoicePaymentSettingsPaymentMethodOptionsCardInstallments;
  request_three_d_secure: 'any' | 'automatic' | 'challenge' | null;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsCustomerBalance {
  bank_transfer?: InvoicePaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransfer;
  funding_type: 'bank_transfer' | null;
}

export type InvoicePaymentSettingsPaymentMethodOptionsKonbini = Record<string, unknown>;

export interface InvoicePaymentSettingsPaymentMethodOptionsPayto {
  mandate_options?: InvoicePaymentSettingsPaymentMethodOptionsPaytoMandateOptions;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsPix {
  amount_includes_iof: 'always' | 'never' | null;
  expires_after_seconds?: number;
}

export type InvoicePaymentSettingsPaymentMethodOptionsSepaDebit = Record<string, unknown>;

export interface InvoicePaymentSettingsPaymentMethodOptionsUpi {
  mandate_options?: InvoicePaymentSettingsPaymentMethodOptionsUpiMandateOptions;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsUsBankAccount {
  financial_connections?: InvoicePaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnections;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface LineItemParentInvoiceItemDetailsProrationDetails {
  credited_items: null | LineItemParentInvoiceItemDetailsProrationDetailsCreditedItems;
}

export interface LineItemParentSubscriptionItemDetailsProrationDetails {
  credited_items: null | LineItemParentSubscriptionItemDetailsProrationDetailsCreditedItems;
}

export interface InvoiceitemProrationDetailsCreditedItemsInvoiceLineItemDetails {
  invoice: string;
  invoice_line_items: string[];
}

export interface SubscriptionBillingScheduleBillUntilDuration {
  interval: 'day' | 'month' | 'week' | 'year';
  interval_count: null | number;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsAcssDebit {
  mandate_options?: SubscriptionPaymentSettingsPaymentMethodOptionsAcssDebitMandateOptions;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsBancontact {
  preferred_language: 'de' | 'en' | 'fr' | 'nl';
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsBillie {
  company_details?: SubscriptionPaymentSettingsPaymentMethodOptionsBillieCompanyDetails;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsBlik {
  mandate_options?: SubscriptionPaymentSettingsPaymentMethodOptionsBlikMandateOptions;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsCard {
  mandate_options?: SubscriptionPaymentSettingsPaymentMethodOptionsCardMandateOptions;
  network:
    | 'amex'
    | 'cartes_bancaires'
    | 'diners'
    | 'discover'
    | 'eftpos_au'
    | 'girocard'
    | 'interac'
    | 'jcb'
    | 'link'
    | 'mastercard'
    | 'unionpay'
    | 'unknown'
    | 'visa'
    | null;
  request_three_d_secure: 'any' | 'automatic' | 'challenge' | null;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsCustomerBalance {
  bank_transfer?: SubscriptionPaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransfer;
  funding_type: 'bank_transfer' | null;
}

export type SubscriptionPaymentSettingsPaymentMethodOptionsKonbini = Record<string, unknown>;

export interface SubscriptionPaymentSettingsPaymentMethodOptionsPayto {
  mandate_options?: SubscriptionPaymentSettingsPaymentMethodOptionsPaytoMandateOptions;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsPix {
  expires_after_seconds?: number;
  mandate_options?: SubscriptionPaymentSettingsPaymentMethodOptionsPixMandateOptions;
}

export type SubscriptionPaymentSettingsPaymentMethodOptionsSepaDebit = Record<string, unknown>;

export interface SubscriptionPaymentSettingsPaymentMethodOptionsUpi {
  mandate_options?: SubscriptionPaymentSettingsPaymentMethodOptionsUpiMandateOptions;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsUsBankAccount {
  financial_connections?: SubscriptionPaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnections;
  verification_method?: 'automatic' | 'instant' | 'microdeposits';
}

export interface SubscriptionStatusDetailsPausedSubscription {
  type:
    | 'final_payment_failure'
    | 'first_payment_failure'
    | 'pause_requested'
    | 'system'
    | 'trial_end_without_payment_method';
}

export interface CreditNoteLineItemTaxTaxRateDetails {
  tax_rate: string;
}

export interface PaymentLinkCustomFieldDropdownOption {
  label: string;
  value: string;
}

export interface PaymentLinkInvoiceCreationInvoiceDataCustomField {
  name: string;
  value: string;
}

export interface PaymentLinkInvoiceCreationInvoiceDataIssuer {
  account?: string;
  type: 'account' | 'self';
}

export interface PaymentLinkInvoiceCreationInvoiceDataRenderingOptions {
  amount_tax_display: null | string;
  template: null | string;
}

export interface PaymentLinkPaymentMethodOptionsCardRestrictions {
  brands_blocked: Array<'american_express' | 'discover_global_network' | 'mastercard' | 'visa'>;
}

export interface PaymentLinkSubscriptionDataInvoiceSettingsCustomField {
  name: string;
  value: string;
}

export interface PaymentLinkSubscriptionDataInvoiceSettingsIssuer {
  account?: string;
  type: 'account' | 'self';
}

export interface PaymentLinkSubscriptionDataTrialSettingsEndBehavior {
  missing_payment_method: 'cancel' | 'create_invoice' | 'pause';
}

export interface CheckoutSessionCustomFieldDropdownOption {
  label: string;
  value: string;
}

export interface CheckoutSessionInvoiceCreationInvoiceDataCustomField {
  name: string;
  value: string;
}

export interface CheckoutSessionInvoiceCreationInvoiceDataIssuer {
  account?: string;
  type: 'account' | 'self';
}

export interface CheckoutSessionInvoiceCreationInvoiceDataRenderingOptions {
  amount_tax_display: null | string;
  template: null | string;
}

export interface CheckoutSessionPaymentMethodOptionsAcssDebitMandateOptions {
  custom_mandate_url?: string;
  default_for?: Array<'invoice' | 'subscription'>;
  interval_description: null | string;
  payment_schedule: 'combined' | 'interval' | 'sporadic' | null;
  transaction_type: 'business' | 'personal' | null;
}

export interface CheckoutSessionPaymentMethodOptionsBacsDebitMandateOptions {
  reference_prefix?: string;
}

export interface CheckoutSessionPaymentMethodOptionsCardInstallments {
  enabled?: boolean;
}

export interface CheckoutSessionPaymentMethodOptionsCardRestrictions {
  brands_blocked?: Array<'american_express' | 'discover_global_network' | 'mastercard' | 'visa'>;
  funding_types_blocked?: Array<'credit' | 'debit' | 'prepaid'>;
}

export interface CheckoutSessionPaymentMethodOptionsCustomerBalanceBankTransfer {
  eu_bank_transfer?: CheckoutSessionPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer;
  requested_address_types?: Array<
    'aba' | 'iban' | 'sepa' | 'sort_code' | 'spei' | 'swift' | 'zengin'
  >;
  type:
    | 'eu_bank_transfer'
    | 'gb_bank_transfer'
    | 'jp_bank_transfer'
    | 'mx_bank_transfer'
    | 'us_bank_transfer'
    | null;
}

export interface CheckoutSessionPaymentMethodOptionsPaytoMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  end_date: null | string;
  payment_schedule:
    | 'adhoc'
    | 'annual'
    | 'daily'
    | 'fortnightly'
    | 'monthly'
    | 'quarterly'
    | 'semi_annual'
    | 'weekly'
    | null;
  payments_per_period: null | number;
  purpose:
    | 'dependant_support'
    | 'government'
    | 'loan'
    | 'mortgage'
    | 'other'
    | 'pension'
    | 'personal'
    | 'retail'
    | 'salary'
    | 'tax'
    | 'utility'
    | null;
  start_date: null | string;
}

export interface CheckoutSessionPaymentMethodOptionsPixMandateOptions {
  amount?: number;
  amount_includes_iof?: 'always' | 'never';
  amount_type?: 'fixed' | 'maximum';
  currency?: string;
  end_date?: string;
  payment_schedule?: 'halfyearly' | 'monthly' | 'quarterly' | 'weekly' | 'yearly';
  reference?: string;
  start_date?: string;
}

export interface CheckoutSessionPaymentMethodOptionsSepaDebitMandateOptions {
  reference_prefix?: string;
}

export interface CheckoutSessionPaymentMethodOptionsUpiMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  description: null | string;
  end_date: null | number;
}

export interface CheckoutSessionPaymentMethodOptionsUsBankAccountFinancialConnections {
  filters?: CheckoutSessionPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters;
  permissions?: Array<'balances' | 'ownership' | 'payment_method' | 'transactions'>;
  prefetch: null | Array<'balances' | 'ownership' | 'transactions'>;
  return_url?: string;
}

export interface CheckoutSessionTotalDetailsBreakdownDiscount {
  amount: number;
  discount: Discount;
}

export interface CheckoutSessionTotalDetailsBreakdownTax {
  amount: number;
  rate: TaxRate;
  taxability_reason:
    | 'customer_exempt'
    | 'not_collecting'
    | 'not_subject_to_tax'
    | 'not_supported'
    | 'portion_product_exempt'
    | 'portion_reduced_rated'
    | 'portion_standard_rated'
    | 'product_exempt'
    | 'product_exempt_holiday'
    | 'proportionally_rated'
    | 'reduced_rated'
    | 'reverse_charge'
    | 'standard_rated'
    | 'taxable_basis_reduced'
    | 'zero_rated'
    | null;
  taxable_amount: null | number;
}

export interface AccountCompanyVerificationDocument {
  back: null | string;
  details: null | string;
  details_code: null | string;
  front: null | string;
}

export interface PersonAdditionalTosAcceptancesAccount {
  date: null | number;
  ip: null | string;
  user_agent: null | string;
}

export interface PersonFutureRequirementsAlternative {
  alternative_fields_due: string[];
  original_fields_due: string[];
}

export interface PersonFutureRequirementsError {
  code:
    | 'external_request'
    | 'information_missing'
    | 'invalid_address_city_state_postal_code'
    | 'invalid_address_cmra_address'
    | 'invalid_address_highway_contract_box'
    | 'invalid_address_private_mailbox'
    | 'invalid_address_registered_agent_address'
    | 'invalid_business_profile_name'
    | 'invalid_business_profile_name_denylisted'
    | 'invalid_company_name_denylisted'
    | 'invalid_dob_age_over_maximum'
    | 'invalid_dob_age_under_18'
    | 'invalid_dob_age_under_minimum'
    | 'invalid_product_description_length'
    | 'invalid_product_description_url_match'
    | 'invalid_representative_country'
    | 'invalid_signator'
    | 'invalid_statement_descriptor_business_mismatch'
    | 'invalid_statement_descriptor_denylisted'
    | 'invalid_statement_descriptor_length'
    | 'invalid_statement_descriptor_prefix_denylisted'
    | 'invalid_statement_descriptor_prefix_mismatch'
    | 'invalid_street_address'
    | 'invalid_tax_id'
    | 'invalid_tax_id_format'
    | 'invalid_tos_acceptance'
    | 'invalid_url_denylisted'
    | 'invalid_url_format'
    | 'invalid_url_length'
    | 'invalid_url_web_presence_detected'
    | 'invalid_url_website_business_information_mismatch'
    | 'invalid_url_website_empty'
    | 'invalid_url_website_inaccessible'
    | 'invalid_url_website_inaccessible_geoblocked'
    | 'invalid_url_website_inaccessible_password_protected'
    | 'invalid_url_website_incomplete'
    | 'invalid_url_website_incomplete_cancellation_policy'
    | 'invalid_url_website_incomplete_customer_service_details'
    | 'invalid_url_website_incomplete_legal_restrictions'
    | 'invalid_url_website_incomplete_refund_policy'
    | 'invalid_url_website_incomplete_return_policy'
    | 'invalid_url_website_incomplete_terms_and_conditions'
    | 'invalid_url_website_incomplete_under_construction'
    | 'invalid_url_website_other'
    | 'invalid_value_other'
    | 'unsupported_business_type'
    | 'verification_directors_mismatch'
    | 'verification_document_address_mismatch'
    | 'verification_document_address_missing'
    | 'verification_document_corrupt'
    | 'verification_document_country_not_supported'
    | 'verification_document_directors_mismatch'
    | 'verification_document_dob_mismatch'
    | 'verification_document_duplicate_type'
    | 'verification_document_expired'
    | 'verification_document_failed_copy'
    | 'verification_document_failed_greyscale'
    | 'verification_document_failed_other'
    | 'verification_document_failed_test_mode'
    | 'verification_document_fraudulent'
    | 'verification_document_id_number_mismatch'
    | 'verification_document_id_number_missing'
    | 'verification_document_incomplete'
    | 'verification_document_invalid'
    | 'verification_document_issue_or_expiry_date_missing'
    | 'verification_document_manipulated'
    | 'verification_document_missing_back'
    | 'verification_document_missing_front'
    | 'verification_document_name_mismatch'
    | 'verification_document_name_missing'
    | 'verification_document_nationality_mismatch'
    | 'verification_document_not_readable'
    | 'verification_document_not_signed'
    | 'verification_document_not_uploaded'
    | 'verification_document_photo_mismatch'
    | 'verification_document_too_large'
    | 'verification_document_type_not_supported'
    | 'verification_extraneous_directors'
    | 'verification_failed_address_match'
    | 'verification_failed_authorizer_authority'
    | 'verification_failed_business_iec_number'
    | 'verification_failed_document_match'
    | 'verification_failed_id_number_match'
    | 'verification_failed_keyed_identity'
    | 'verification_failed_keyed_match'
    | 'verification_failed_name_match'
    | 'verification_failed_other'
    | 'verification_failed_representative_authority'
    | 'verification_failed_residential_address'
    | 'verification_failed_tax_id_match'
    | 'verification_failed_tax_id_not_issued'
    | 'verification_legal_entity_structure_mismatch'
    | 'verification_missing_directors'
    | 'verification_missing_executives'
    | 'verification_missing_owners'
    | 'verification_rejected_ownership_exemption_reason'
    | 'verification_requires_additional_memorandum_of_associations'
    | 'verification_requires_additional_proof_of_registration'
    | 'verification_supportability';
  reason: string;
  requirement: string;
}

export interface PersonRequirementsAlternative {
  alternative_fields_due: string[];
  original_fields_due: string[];
}

export interface PersonRequirementsError {
  code:
    | 'external_request'
    | 'information_missing'
    | 'invalid_address_city_state_postal_code'
    | 'invalid_address_cmra_address'
    | 'invalid_address_highway_contract_box'
    | 'invalid_address_private_mailbox'
    | 'invalid_address_registered_agent_address'
    | 'invalid_business_profile_name'
    | 'invalid_business_profile_name_denylisted'
    | 'invalid_company_name_denylisted'
    | 'invalid_dob_age_over_maximum'
    | 'invalid_dob_age_under_18'
    | 'invalid_dob_age_under_minimum'
    | 'invalid_product_description_length'
    | 'invalid_product_description_url_match'
    | 'invalid_representative_country'
    | 'invalid_signator'
    | 'invalid_statement_descriptor_business_mismatch'
    | 'invalid_statement_descriptor_denylisted'
    | 'invalid_statement_descriptor_length'
    | 'invalid_statement_descriptor_prefix_denylisted'
    | 'invalid_statement_descriptor_prefix_mismatch'
    | 'invalid_street_address'
    | 'invalid_tax_id'
    | 'invalid_tax_id_format'
    | 'invalid_tos_acceptance'
    | 'invalid_url_denylisted'
    | 'invalid_url_format'
    | 'invalid_url_length'
    | 'invalid_url_web_presence_detected'
    | 'invalid_url_website_business_information_mismatch'
    | 'invalid_url_website_empty'
    | 'invalid_url_website_inaccessible'
    | 'invalid_url_website_inaccessible_geoblocked'
    | 'invalid_url_website_inaccessible_password_protected'
    | 'invalid_url_website_incomplete'
    | 'invalid_url_website_incomplete_cancellation_policy'
    | 'invalid_url_website_incomplete_customer_service_details'
    | 'invalid_url_website_incomplete_legal_restrictions'
    | 'invalid_url_website_incomplete_refund_policy'
    | 'invalid_url_website_incomplete_return_policy'
    | 'invalid_url_website_incomplete_terms_and_conditions'
    | 'invalid_url_website_incomplete_under_construction'
    | 'invalid_url_website_other'
    | 'invalid_value_other'
    | 'unsupported_business_type'
    | 'verification_directors_mismatch'
    | 'verification_document_address_mismatch'
    | 'verification_document_address_missing'
    | 'verification_document_corrupt'
    | 'verification_document_country_not_supported'
    | 'verification_document_directors_mismatch'
    | 'verification_document_dob_mismatch'
    | 'verification_document_duplicate_type'
    | 'verification_document_expired'
    | 'verification_document_failed_copy'
    | 'verification_document_failed_greyscale'
    | 'verification_document_failed_other'
    | 'verification_document_failed_test_mode'
    | 'verification_document_fraudulent'
    | 'verification_document_id_number_mismatch'
    | 'verification_document_id_number_missing'
    | 'verification_document_incomplete'
    | 'verification_document_invalid'
    | 'verification_document_issue_or_expiry_date_missing'
    | 'verification_document_manipulated'
    | 'verification_document_missing_back'
    | 'verification_document_missing_front'
    | 'verification_document_name_mismatch'
    | 'verification_document_name_missing'
    | 'verification_document_nationality_mismatch'
    | 'verification_document_not_readable'
    | 'verification_document_not_signed'
    | 'verification_document_not_uploaded'
    | 'verification_document_photo_mismatch'
    | 'verification_document_too_large'
    | 'verification_document_type_not_supported'
    | 'verification_extraneous_directors'
    | 'verification_failed_address_match'
    | 'verification_failed_authorizer_authority'
    | 'verification_failed_business_iec_number'
    | 'verification_failed_document_match'
    | 'verification_failed_id_number_match'
    | 'verification_failed_keyed_identity'
    | 'verification_failed_keyed_match'
    | 'verification_failed_name_match'
    | 'verification_failed_other'
    | 'verification_failed_representative_authority'
    | 'verification_failed_residential_address'
    | 'verification_failed_tax_id_match'
    | 'verification_failed_tax_id_not_issued'
    | 'verification_legal_entity_structure_mismatch'
    | 'verification_missing_directors'
    | 'verification_missing_executives'
    | 'verification_missing_owners'
    | 'verification_rejected_ownership_exemption_reason'
    | 'verification_requires_additional_memorandum_of_associations'
    | 'verification_requires_additional_proof_of_registration'
    | 'verification_supportability';
  reason: string;
  requirement: string;
}

export interface PersonUsCfpbDataEthnicityDetails {
  ethnicity: null | Array<
    | 'cuban'
    | 'hispanic_or_latino'
    | 'mexican'
    | 'not_hispanic_or_latino'
    | 'other_hispanic_or_latino'
    | 'prefer_not_to_answer'
    | 'puerto_rican'
  >;
  ethnicity_other: null | string;
}

export interface PersonUsCfpbDataRaceDetails {
  race: null | Array<
    | 'african_american'
    | 'american_indian_or_alaska_native'
    | 'asian'
    | 'asian_indian'
    | 'black_or_african_american'
    | 'chinese'
    | 'ethiopian'
    | 'filipino'
    | 'guamanian_or_chamorro'
    | 'haitian'
    | 'jamaican'
    | 'japanese'
    | 'korean'
    | 'native_hawaiian'
    | 'native_hawaiian_or_other_pacific_islander'
    | 'nigerian'
    | 'other_asian'
    | 'other_black_or_african_american'
    | 'other_pacific_islander'
    | 'prefer_not_to_answer'
    | 'samoan'
    | 'somali'
    | 'vietnamese'
    | 'white'
  >;
  race_other: null | string;
}

export interface PersonVerificationAdditionalDocument {
  back: null | string;
  details: null | string;
  details_code: null | string;
  front: null | string;
}

export interface PersonVerificationDocument {
  back: null | string;
  details: null | string;
  details_code: null | string;
  front: null | string;
}

export interface AccountSettingsCardIssuingTosAcceptance {
  date: null | number;
  ip: null | string;
  user_agent?: string;
}

export interface AccountSettingsCardPaymentsDeclineOn {
  avs_failure: boolean;
  cvc_failure: boolean;
}

export interface AccountSettingsPayoutsSchedule {
  delay_days: number;
  interval: string;
  monthly_anchor?: number;
  monthly_payout_days?: number[];
  weekly_anchor?: string;
  weekly_payout_days?: Array<'friday' | 'monday' | 'thursday' | 'tuesday' | 'wednesday'>;
}

export interface AccountSettingsPaypayPaymentsSite {
  accessible?: AccountSettingsPaypayPaymentsSiteAccessible;
  in_development?: AccountSettingsPaypayPaymentsSiteInDevelopment;
  restricted?: AccountSettingsPaypayPaymentsSiteRestricted;
  type?: 'accessible' | 'in_development' | 'restricted';
}

export interface AccountSettingsTreasuryTosAcceptance {
  date: null | number;
  ip: null | string;
  user_agent?: string;
}

export interface PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresent {
  amount_authorized: null | number;
  brand: null | string;
  brand_product: null | string;
  capture_before?: number;
  cardholder_name: null | string;
  country: null | string;
  description?: null | string;
  emv_auth_data: null | string;
  exp_month: number;
  exp_year: number;
  fingerprint: null | string;
  funding: null | string;
  generated_card: null | string;
  iin?: null | string;
  incremental_authorization_supported: boolean;
  issuer?: null | string;
  last4: null | string;
  location?: string;
  network: null | string;
  network_transaction_id: null | string;
  offline: null | PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresentOffline;
  overcapture_supported: boolean;
  preferred_locales: null | string[];
  read_method:
    | 'contact_emv'
    | 'contactless_emv'
    | 'contactless_magstripe_mode'
    | 'magnetic_stripe_fallback'
    | 'magnetic_stripe_track2'
    | null;
  reader?: string;
  receipt: null | PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresentReceipt;
  wallet?: PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresentWallet;
}

export interface SetupIntentPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters {
  account_subcategories?: Array<'checking' | 'savings'>;
}

export interface PaymentIntentAmountDetailsLineItemPaymentMethodOptionsCard {
  commodity_code: null | string;
}

export interface PaymentIntentAmountDetailsLineItemPaymentMethodOptionsCardPresent {
  commodity_code: null | string;
}

export interface PaymentIntentAmountDetailsLineItemPaymentMethodOptionsKlarna {
  image_url: null | string;
  product_url: null | string;
  reference: null | string;
  subscription_reference: null | string;
}

export interface PaymentIntentAmountDetailsLineItemPaymentMethodOptionsPaypal {
  category?: 'digital_goods' | 'donation' | 'physical_goods';
  description?: string;
  sold_by?: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressAba {
  account_holder_address: Address;
  account_holder_name: string;
  account_number: string;
  account_type: string;
  bank_address: Address;
  bank_name: string;
  routing_number: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressIban {
  account_holder_address: Address;
  account_holder_name: string;
  bank_address: Address;
  bic: string;
  country: string;
  iban: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressSortCode {
  account_holder_address: Address;
  account_holder_name: string;
  account_number: string;
  bank_address: Address;
  sort_code: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressSpei {
  account_holder_address: Address;
  account_holder_name: string;
  bank_address: Address;
  bank_code: string;
  bank_name: string;
  clabe: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressSwift {
  account_holder_address: Address;
  account_holder_name: string;
  account_number: string;
  account_type: string;
  bank_address: Address;
  bank_name: string;
  swift_code: string;
}

export interface PaymentIntentNextActionDisplayBankTransferInstructionsFinancialAddressZengin {
  account_holder_address: Address;
  account_holder_name: null | string;
  account_number: null | string;
  account_type: null | string;
  bank_address: Address;
  bank_code: null | string;
  bank_name: null | string;
  branch_code: null | string;
  branch_name: null | string;
}

export interface PaymentIntentNextActionKonbiniDisplayDetailsStoresFamilymart {
  confirmation_number?: string;
  payment_code: string;
}

export interface PaymentIntentNextActionKonbiniDisplayDetailsStoresLawson {
  confirmation_number?: string;
  payment_code: string;
}

export interface PaymentIntentNextActionKonbiniDisplayDetailsStoresMinistop {
  confirmation_number?: string;
  payment_code: string;
}

export interface PaymentIntentNextActionKonbiniDisplayDetailsStoresSeicomart {
  confirmation_number?: string;
  payment_code: string;
}

export interface PaymentIntentPaymentMethodOptionsCardInstallmentsAvailablePlan {
  count: null | number;
  interval: 'month' | null;
  type: 'bonus' | 'fixed_count' | 'revolving';
}

export interface PaymentIntentPaymentMethodOptionsCardInstallmentsPlan {
  count: null | number;
  interval: 'month' | null;
  type: 'bonus' | 'fixed_count' | 'revolving';
}

export interface PaymentIntentPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer {
  country: 'BE' | 'DE' | 'ES' | 'FR' | 'IE' | 'NL';
}

export interface PaymentIntentPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters {
  account_subcategories?: Array<'checking' | 'savings'>;
}

export interface ChargePaymentMethodDetailsAmazonPayFundingCard {
  brand: null | string;
  country: null | string;
  exp_month: null | number;
  exp_year: null | number;
  funding: null | string;
  last4: null | string;
}

export interface ChargePaymentMethodDetailsCardInstallmentsPlan {
  count: null | number;
  interval: 'month' | null;
  type: 'bonus' | 'fixed_count' | 'revolving';
}

export type ChargePaymentMethodDetailsCardWalletAmexExpressCheckout = Record<string, unknown>;

export type ChargePaymentMethodDetailsCardWalletApplePay = Record<string, unknown>;

export type ChargePaymentMethodDetailsCardWalletGooglePay = Record<string, unknown>;

export interface ChargePaymentMethodDetailsCardWalletLink {
  funding_source_group: null | string;
}

export interface ChargePaymentMethodDetailsCardWalletMasterpass {
  billing_address: null | Address;
  email: null | string;
  name: null | string;
  shipping_address: null | Address;
}

export type ChargePaymentMethodDetailsCardWalletSamsungPay = Record<string, unknown>;

export interface ChargePaymentMethodDetailsCardWalletVisaCheckout {
  billing_address: null | Address;
  email: null | string;
  name: null | string;
  shipping_address: null | Address;
}

export interface ChargePaymentMethodDetailsKlarnaPayerDetailsAddress {
  country: null | string;
}

export interface ChargePaymentMethodDetailsRevolutPayFundingCard {
  brand: null | string;
  country: null | string;
  exp_month: null | number;
  exp_year: null | number;
  funding: null | string;
  last4: null | string;
}

export interface DisputeEvidenceEnhancedEvidenceVisaCompellingEvidence3DisputedTransaction {
  customer_account_id: null | string;
  customer_device_fingerprint: null | string;
  customer_device_id: null | string;
  customer_email_address: null | string;
  customer_purchase_ip: null | string;
  merchandise_or_services: 'merchandise' | 'services' | null;
  product_description: null | string;
  shipping_address: null | Address;
}

export interface DisputeEvidenceEnhancedEvidenceVisaCompellingEvidence3PriorUndisputedTransaction {
  charge: string;
  customer_account_id: null | string;
  customer_device_fingerprint: null | string;
  customer_device_id: null | string;
  customer_email_address: null | string;
  customer_purchase_ip: null | string;
  product_description: null | string;
  shipping_address: null | Address;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsAcssDebitMandateOptions {
  transaction_type: 'business' | 'personal' | null;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsBillieCompanyDetails {
  registered_address?: Address;
  registered_name: null | string;
  registration_number: null | string;
  registration_type?:
    | 'ch_ein'
    | 'de_hrb'
    | 'dk_cvr'
    | 'es_cif'
    | 'fi_tunnus'
    | 'fr_siren'
    | 'fr_siret'
    | 'it_rea'
    | 'nl_kvk'
    | 'no_org_number'
    | 'no_pno'
    | 'se_org_number'
    | 'se_pno'
    | 'uk_crn';
  vat: null | string;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsCardInstallments {
  enabled: null | boolean;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransfer {
  eu_bank_transfer?: InvoicePaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer;
  type: null | string;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsPaytoMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  purpose:
    | 'dependant_support'
    | 'government'
    | 'loan'
    | 'mortgage'
    | 'other'
    | 'pension'
    | 'personal'
    | 'retail'
    | 'salary'
    | 'tax'
    | 'utility'
    | null;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsUpiMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  description: null | string;
  end_date: null | number;
}

export interface InvoicePaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnections {
  filters?: InvoicePaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters;
  permissions?: Array<'balances' | 'ownership' | 'payment_method' | 'transactions'>;
  prefetch: null | Array<'balances' | 'ownership' | 'transactions'>;
}

export interface LineItemParentInvoiceItemDetailsProrationDetailsCreditedItems {
  invoice: string;
  invoice_line_items: string[];
}

export interface LineItemParentSubscriptionItemDetailsProrationDetailsCreditedItems {
  invoice: string;
  invoice_line_items: string[];
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsAcssDebitMandateOptions {
  transaction_type: 'business' | 'personal' | null;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsBillieCompanyDetails {
  registered_address?: Address;
  registered_name: null | string;
  registration_number: null | string;
  registration_type?:
    | 'ch_ein'
    | 'de_hrb'
    | 'dk_cvr'
    | 'es_cif'
    | 'fi_tunnus'
    | 'fr_siren'
    | 'fr_siret'
    | 'it_rea'
    | 'nl_kvk'
    | 'no_org_number'
    | 'no_pno'
    | 'se_org_number'
    | 'se_pno'
    | 'uk_crn';
  vat: null | string;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsBlikMandateOptions {
  expires_at: null | number;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsCardMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  description: null | string;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransfer {
  eu_bank_transfer?: SubscriptionPaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer;
  type: null | string;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsPaytoMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  purpose:
    | 'dependant_support'
    | 'government'
    | 'loan'
    | 'mortgage'
    | 'other'
    | 'pension'
    | 'personal'
    | 'retail'
    | 'salary'
    | 'tax'
    | 'utility'
    | null;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsPixMandateOptions {
  amount: null | number;
  amount_includes_iof: 'always' | 'never' | null;
  end_date: null | string;
  payment_schedule: 'halfyearly' | 'monthly' | 'quarterly' | 'weekly' | 'yearly' | null;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsUpiMandateOptions {
  amount: null | number;
  amount_type: 'fixed' | 'maximum' | null;
  description: null | string;
  end_date: null | number;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnections {
  filters?: SubscriptionPaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters;
  permissions?: Array<'balances' | 'ownership' | 'payment_method' | 'transactions'>;
  prefetch: null | Array<'balances' | 'ownership' | 'transactions'>;
}

export interface CheckoutSessionPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer {
  country: 'BE' | 'DE' | 'ES' | 'FR' | 'IE' | 'NL';
}

export interface CheckoutSessionPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters {
  account_subcategories?: Array<'checking' | 'savings'>;
}

export type AccountSettingsPaypayPaymentsSiteAccessible = Record<string, unknown>;

export interface AccountSettingsPaypayPaymentsSiteInDevelopment {
  password_provided?: boolean;
  username: null | string;
}

export interface AccountSettingsPaypayPaymentsSiteRestricted {
  payment_flow_file: null | string;
}

export interface PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresentOffline {
  stored_at: null | number;
  type: 'deferred' | null;
}

export interface PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresentReceipt {
  account_type?: 'checking' | 'credit' | 'prepaid' | 'unknown';
  application_cryptogram: null | string;
  application_preferred_name: null | string;
  authorization_code: null | string;
  authorization_response_code: null | string;
  cardholder_verification_method: null | string;
  dedicated_file_name: null | string;
  terminal_verification_results: null | string;
  transaction_status_information: null | string;
}

export interface PaymentMethodCardGeneratedFromPaymentMethodDetailsCardPresentWallet {
  type: 'apple_pay' | 'google_pay' | 'samsung_pay' | 'unknown';
}

export interface InvoicePaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer {
  country: 'BE' | 'DE' | 'ES' | 'FR' | 'IE' | 'NL';
}

export interface InvoicePaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters {
  account_subcategories?: Array<'checking' | 'savings'>;
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsCustomerBalanceBankTransferEuBankTransfer {
  country: 'BE' | 'DE' | 'ES' | 'FR' | 'IE' | 'NL';
}

export interface SubscriptionPaymentSettingsPaymentMethodOptionsUsBankAccountFinancialConnectionsFilters {
  account_subcategories?: Array<'checking' | 'savings'>;
}

/** Stripe World's `test_helpers.webhook_delivery` object. */
export interface TestHelpersWebhookDelivery {
  id: string;
  object: 'test_helpers.webhook_delivery';
  created: number;
  event: string;
  event_type: string;
  webhook_endpoint: string;
  url: string;
  target: string;
  status: string;
  attempts: Array<{ attempted_at: number; status_code: number | null; error: string | null }>;
  next_attempt: number | null;
  livemode: boolean;
}

/** The object type each resource table holds in its `data` column. */
export interface Tables {
  customers: Customer;
  customer_balance_transactions: CustomerBalanceTransaction;
  products: Product;
  prices: Price;
  coupons: Coupon;
  promotion_codes: PromotionCode;
  tax_rates: TaxRate;
  tax_ids: TaxId;
  payment_methods: PaymentMethod;
  setup_intents: SetupIntent;
  payment_intents: PaymentIntent;
  charges: Charge;
  refunds: Refund;
  disputes: Dispute;
  balance_transactions: BalanceTransaction;
  payouts: Payout;
  events: Event;
  invoices: Invoice;
  invoice_line_items: LineItem;
  invoiceitems: Invoiceitem;
  subscriptions: Subscription;
  subscription_items: SubscriptionItem;
  credit_notes: CreditNote;
  payment_links: PaymentLink;
  checkout_sessions: CheckoutSession;
  invoice_payments: InvoicePayment;
  webhook_endpoints: WebhookEndpoint;
  webhook_deliveries: TestHelpersWebhookDelivery;
  test_clocks: TestHelpersTestClock;
}
