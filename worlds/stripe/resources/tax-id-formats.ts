/**
 * Tax ID types and value formats: the `type` values Stripe accepts (its 2026-10-28 enum), the country each belongs to,
 * and the formats of the common ones, checked as Stripe checks them on create (a value that does not fit is 400
 * `tax_id_invalid`). Formats follow the examples of Stripe's "Customer tax IDs" guide; a type without a format here is
 * accepted as given. Which types Stripe verifies with a government registry (`verification`) is here too.
 */
import type { TaxId } from '../lib/objects.ts';

/** A tax ID's `type`, as the SDK declares it. */
export type TaxIdType = TaxId['type'];

/** Every `type` a tax ID can be created with (`unknown` is only for legacy ids, so it is not accepted). */
export const TAX_ID_TYPES: readonly TaxIdType[] = [
  'ad_nrt',
  'ae_trn',
  'al_tin',
  'am_tin',
  'ao_tin',
  'ar_cuit',
  'au_abn',
  'au_acn',
  'au_arn',
  'au_wpn',
  'aw_tin',
  'az_tin',
  'ba_tin',
  'bb_tin',
  'bd_bin',
  'bf_ifu',
  'bg_uic',
  'bh_vat',
  'bj_ifu',
  'bo_tin',
  'br_cnpj',
  'br_cpf',
  'bs_tin',
  'bw_vat',
  'by_tin',
  'ca_bn',
  'ca_gst_hst',
  'ca_pst_bc',
  'ca_pst_mb',
  'ca_pst_sk',
  'ca_qst',
  'cd_nif',
  'ch_uid',
  'ch_vat',
  'ci_vat',
  'cl_tin',
  'cm_niu',
  'cn_tin',
  'co_nit',
  'cr_tin',
  'cv_nif',
  'cz_dic',
  'de_stn',
  'do_rcn',
  'ec_ruc',
  'eg_tin',
  'es_cif',
  'et_tin',
  'eu_oss_vat',
  'eu_vat',
  'fo_vat',
  'fr_siren',
  'fr_siret',
  'fr_spi',
  'gb_vat',
  'ge_vat',
  'gh_tin',
  'gi_tin',
  'gn_nif',
  'hk_br',
  'hr_oib',
  'hu_tin',
  'ic_nif',
  'id_npwp',
  'il_vat',
  'in_gst',
  'is_kt',
  'is_vat',
  'it_cf',
  'jp_cn',
  'jp_rn',
  'jp_trn',
  'ke_pin',
  'kg_tin',
  'kh_tin',
  'kr_brn',
  'kz_bin',
  'la_tin',
  'li_uid',
  'li_vat',
  'lk_vat',
  'ma_vat',
  'md_cf',
  'md_vat',
  'me_pib',
  'mk_vat',
  'mr_nif',
  'mu_vat',
  'mx_rfc',
  'my_frp',
  'my_itn',
  'my_sst',
  'mz_nuit',
  'ng_tin',
  'no_vat',
  'no_voec',
  'np_pan',
  'nz_bn',
  'nz_gst',
  'om_vat',
  'pe_ruc',
  'ph_tin',
  'pl_nip',
  'pt_nif',
  'py_ruc',
  'ro_tin',
  'rs_pib',
  'ru_inn',
  'ru_kpp',
  'sa_vat',
  'sg_gst',
  'sg_uen',
  'si_tin',
  'sm_coe',
  'sn_ninea',
  'sr_fin',
  'sv_nit',
  'th_vat',
  'tj_tin',
  'tr_tin',
  'tt_bir',
  'tt_vat',
  'tw_vat',
  'tz_vat',
  'ua_vat',
  'ug_tin',
  'us_ein',
  'uy_ruc',
  'uz_tin',
  'uz_vat',
  've_rif',
  'vn_tin',
  'za_vat',
  'zm_tin',
  'zw_tin',
];

/** The national part of an EU VAT number, by its two-letter prefix (`EL` is Greece, `XI` Northern Ireland). */
const EU_VAT: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}(\d{3})?$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** Formats of the common types, whole values (upper-cased, as Stripe compares them). */
const FORMATS: Record<string, RegExp> = {
  ae_trn: /^\d{15}$/,
  au_abn: /^\d{11}$/,
  au_arn: /^\d{12}$/,
  br_cnpj: /^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/,
  br_cpf: /^\d{3}\.\d{3}\.\d{3}-\d{2}$/,
  ca_bn: /^\d{9}$/,
  ca_gst_hst: /^\d{9}RT\d{4}$/,
  ca_pst_bc: /^PST-\d{4}-\d{4}$/,
  ca_pst_mb: /^\d{6}-\d$/,
  ca_pst_sk: /^\d{7}$/,
  ca_qst: /^\d{10}TQ\d{4}$/,
  ch_vat: /^CHE-\d{3}\.\d{3}\.\d{3} (MWST|TVA|IVA)$/,
  de_stn: /^\d{10,11}$/,
  gb_vat: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  hk_br: /^\d{8}$/,
  in_gst: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
  jp_cn: /^\d{13}$/,
  jp_trn: /^T\d{13}$/,
  kr_brn: /^\d{3}-\d{2}-\d{5}$/,
  li_uid: /^CHE\d{9}$/,
  mx_rfc: /^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/,
  no_vat: /^\d{9}MVA$/,
  nz_gst: /^\d{8,9}$/,
  sa_vat: /^\d{15}$/,
  sg_gst: /^M\d{8}[A-Z]$/,
  sg_uen: /^\d{9}[A-Z]$/,
  us_ein: /^\d{2}-?\d{7}$/,
  za_vat: /^4\d{9}$/,
};

/** Types Stripe verifies with the government's registry (VIES, HMRC, the ABR); other types are `unavailable`. */
const VERIFIED_TYPES = new Set(['eu_vat', 'gb_vat', 'au_abn']);

/** Whether a value fits its type's format (a type without a known format takes any value). */
export function validTaxIdValue(type: string, value: string): boolean {
  const v = value.toUpperCase();
  if (type === 'eu_vat') {
    const national = EU_VAT[v.slice(0, 2)];
    return national !== undefined && national.test(v.slice(2));
  }
  const format = FORMATS[type];
  return format ? format.test(v) : v.trim().length > 0;
}

/** The country of a tax ID: an EU VAT number's prefix (`EL` → GR, `XI` → GB), else the type's own. */
export function countryOfTaxId(type: string, value: string): string | null {
  if (type === 'eu_vat') {
    const prefix = value.slice(0, 2).toUpperCase();
    return prefix === 'EL' ? 'GR' : prefix === 'XI' ? 'GB' : prefix;
  }
  if (type === 'eu_oss_vat') return null;
  return type.slice(0, 2).toUpperCase();
}

/** Whether Stripe checks a type with a registry, so its verification starts `pending`. */
export function isVerifiedType(type: string): boolean {
  return VERIFIED_TYPES.has(type);
}

/**
 * The registry's answer in test mode, by the value's digits: Stripe's test numbers `000000000` verify and `111111111`
 * do not; any other number stays `pending`, as a test-mode registry never answers for it.
 */
export function testVerification(value: string): 'verified' | 'unverified' | 'pending' {
  const digits = value.replace(/\D/g, '');
  if (/^0{9,}$/.test(digits)) return 'verified';
  if (/^1{9,}$/.test(digits)) return 'unverified';
  return 'pending';
}
