import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../operations.ts';

// Conformance of the operation set with the reference list (reference/operations.json, made by test/reference-build.ts
// from Stripe's published operation list): this part of Stripe World serves exactly the operations of every table but the billing documents
// (invoices and their lines, items and payments, subscriptions and their items, credit notes, payment links,
// checkout sessions), with Stripe's methods and paths; and each one is driven through the official SDK by some test.
// Besides those the face may serve only the billing part's operations and world hooks under /v1/test_helpers/.

interface Row {
  table: string;
  http: string;
  path: string;
  opid: string;
  sdk: string;
}

const REFERENCE = fileURLToPath(new URL('../reference/operations.json', import.meta.url));
const TESTS = fileURLToPath(new URL('.', import.meta.url));

/** The billing-document tables another part of the world serves. */
const LATER = new Set(['invoices', 'invoice_line_items', 'invoiceitems', 'subscriptions', 'subscription_items', 'credit_notes', 'payment_links', 'checkout_sessions']);

function reference(): Row[] {
  const rows = JSON.parse(readFileSync(REFERENCE, 'utf8')) as { table: string; method: string; path: string; operationId: string; sdk: string }[];
  return rows.map((r) => ({ table: r.table, http: r.method, path: r.path, opid: r.operationId, sdk: r.sdk }));
}

function thisPart(): Row[] {
  return reference().filter((r) => !LATER.has(r.table) && !r.table.includes('invoice_payments'));
}

/** World-only hooks for what has no API in Stripe (completing 3D Secure without a browser): under `/v1/test_helpers/`. */
const isWorldHook = (path: string) => path.startsWith('/v1/test_helpers/');

describe('operation coverage', () => {
  it('serves exactly the 96 operations of this part, with Stripe\'s methods and paths', () => {
    const expected = thisPart();
    expect(expected).toHaveLength(96);
    const all = new Map(reference().map((r) => [r.opid, `${r.http} ${r.path}`]));
    const want = new Set(expected.map((r) => r.opid));
    const have = new Map(operations.map((o) => [o.id, `${o.method} ${o.path}`]));
    const missing = [...want].filter((id) => !have.has(id)).sort();
    // Operations of the billing part may be served too (once it lands); anything else must be a world hook.
    const extra = [...have].filter(([id, route]) => !all.has(id) && !isWorldHook(route.split(' ')[1])).map(([id]) => id).sort();
    const mismatched = [...have].filter(([id, route]) => all.has(id) && all.get(id) !== route).map(([id, route]) => `${id}: Stripe has ${all.get(id)}, served as ${route}`);
    expect({ missing, extra, mismatched }).toEqual({ missing: [], extra: [], mismatched: [] });
    expect(operations.length, 'an operationId defined twice').toBe(have.size);
  });

  it('drives every operation through its stripe-node method in some test', () => {
    // Calls may be split across lines (`s.customers\n  .create(`); whitespace before a dot is dropped.
    const text = readdirSync(TESTS)
      .filter((f) => f.endsWith('.ts') && f !== 'coverage.test.ts')
      .map((f) => readFileSync(`${TESTS}/${f}`, 'utf8').replace(/\s+(?=\.)/g, ''))
      .join('\n');
    const undriven = thisPart()
      .filter((r) => !text.includes(`${r.sdk.replace(/^stripe/, '')}(`))
      .map((r) => `${r.opid} (${r.sdk})`)
      .sort();
    expect(undriven).toEqual([]);
  });
});
