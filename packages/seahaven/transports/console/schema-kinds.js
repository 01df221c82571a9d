// @ts-check
/**
 * Reading JSON Schemas for the generated forms: local `$ref`s followed, `X | null` split into X and a nullable flag,
 * the kind of control a schema gets, and the short type label shown beside a field.
 */

/**
 * @typedef {{
 *   type?: string | string[], enum?: unknown[], const?: unknown, properties?: Record<string, Schema>, required?: string[],
 *   items?: Schema | Schema[], prefixItems?: Schema[], default?: unknown, description?: string, title?: string,
 *   anyOf?: Schema[], oneOf?: Schema[], allOf?: Schema[], $ref?: string, minimum?: number, maximum?: number,
 *   exclusiveMinimum?: number, exclusiveMaximum?: number, minLength?: number, maxLength?: number, pattern?: string,
 *   format?: string, additionalProperties?: boolean | Schema, $defs?: Record<string, Schema>, definitions?: Record<string, Schema>
 * }} Schema
 */
/** @typedef {'enum' | 'const' | 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'json'} Kind */

/**
 * Follow local `$ref`s (`#/$defs/x`, `#/definitions/x`) against the root schema.
 * @param {Schema} schema
 * @param {Schema} root
 * @returns {Schema}
 */
export function resolve(schema, root) {
  let s = schema;
  for (let hops = 0; s && typeof s.$ref === 'string' && hops < 16; hops++) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
    const target = m
      ? root[/** @type {'$defs' | 'definitions'} */ (m[1])]?.[decodeURIComponent(m[2])]
      : undefined;
    if (target === undefined) return {};
    const { $ref: _ref, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s ?? {};
}

/**
 * Split `X | null` (a `type` list or an `anyOf`/`oneOf` with a null branch) into X and a nullable flag.
 * @param {Schema} schema
 * @returns {{ schema: Schema, nullable: boolean }}
 */
export function splitNullable(schema) {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((t) => t !== 'null');
    if (rest.length === 1) return { schema: { ...schema, type: rest[0] }, nullable: true };
  }
  for (const key of /** @type {const} */ (['anyOf', 'oneOf'])) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length === 2) {
      const other = branches.find((b) => b?.type !== 'null');
      if (other !== undefined && branches.some((b) => b?.type === 'null')) {
        const { [key]: _branches, ...rest } = schema;
        return { schema: { ...rest, ...other }, nullable: true };
      }
    }
  }
  return { schema, nullable: false };
}

/**
 * The kind of control a schema gets.
 * @param {Schema} s
 * @returns {Kind}
 */
export function kindOf(s) {
  if (Array.isArray(s.enum) && s.enum.length > 0) return 'enum';
  if ('const' in s) return 'const';
  if (s.anyOf || s.oneOf || s.allOf || Array.isArray(s.type)) return 'json';
  if (s.type === 'string' || s.type === 'number' || s.type === 'integer' || s.type === 'boolean')
    return s.type;
  if (
    s.type === 'object' &&
    s.properties &&
    (s.additionalProperties === undefined || s.additionalProperties === false)
  )
    return 'object';
  if (s.type === 'array' && s.items && !Array.isArray(s.items) && !s.prefixItems) return 'array';
  return 'json';
}

/**
 * A short type label for a field: `string`, `integer ≥ 1`, `email`, `one of 4`…
 * @param {Schema} s
 * @param {boolean} nullable
 */
export function typeLabel(s, nullable) {
  const kind = kindOf(s);
  let label = kind === 'enum' ? 'choice' : kind === 'json' ? 'JSON' : kind;
  if (kind === 'string' && s.format) label = s.format;
  if (
    (kind === 'number' || kind === 'integer') &&
    (s.minimum !== undefined || s.maximum !== undefined)
  ) {
    const lo =
      s.minimum !== undefined && s.minimum > -Number.MAX_SAFE_INTEGER ? `${s.minimum}` : '';
    const hi = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? `${s.maximum}` : '';
    if (lo && hi) label += ` ${lo}–${hi}`;
    else if (lo) label += ` ≥ ${lo}`;
    else if (hi) label += ` ≤ ${hi}`;
  }
  return nullable ? `${label} or null` : label;
}
