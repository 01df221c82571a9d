import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../operations.ts';
import { BEYOND_REFERENCE, drives } from './operations-table.ts';

// Conformance of the operation set with the reference list (reference/operations.json, made by test/reference-build.ts
// from Stripe's published operation list): Stripe World serves exactly its 155 operations, with Stripe's methods and
// paths, and each one is driven through its official stripe-node method by some test. Besides those the face may
// serve the Stripe operations of BEYOND_REFERENCE (operations-table.ts: ones the reference list leaves out, as
// stripe-node 23 calls them), equally driven, and world hooks under /v1/test_helpers/.

interface Row {
  table: string;
  http: string;
  path: string;
  opid: string;
  sdk: string;
}

const REFERENCE = fileURLToPath(new URL('../reference/operations.json', import.meta.url));
const TESTS = fileURLToPath(new URL('.', import.meta.url));

const BEYOND_ROWS: Row[] = BEYOND_REFERENCE.map((r) => ({
  table: r.table,
  http: r.method,
  path: r.path,
  opid: r.operationId,
  sdk: r.sdk,
}));

function reference(): Row[] {
  const rows = JSON.parse(readFileSync(REFERENCE, 'utf8')) as {
    table: string;
    method: string;
    path: string;
    operationId: string;
    sdk: string;
  }[];
  return rows.map((r) => ({
    table: r.table,
    http: r.method,
    path: r.path,
    opid: r.operationId,
    sdk: r.sdk,
  }));
}

/** World-only hooks for what has no API in Stripe (3D Secure, the hosted checkout page): under `/v1/test_helpers/`. */
const isWorldHook = (path: string) => path.startsWith('/v1/test_helpers/');

describe('operation coverage', () => {
  it("serves all 155 operations, with Stripe's methods and paths", () => {
    const expected = reference();
    expect(expected).toHaveLength(155);
    const all = new Map([...expected, ...BEYOND_ROWS].map((r) => [r.opid, `${r.http} ${r.path}`]));
    const have = new Map(operations.map((o) => [o.id, `${o.method} ${o.path}`]));
    const missing = [...all.keys()].filter((id) => !have.has(id)).sort();
    const extra = [...have]
      .filter(([id, route]) => !all.has(id) && !isWorldHook(route.split(' ')[1]))
      .map(([id]) => id)
      .sort();
    const mismatched = [...have]
      .filter(([id, route]) => all.has(id) && all.get(id) !== route)
      .map(([id, route]) => `${id}: Stripe has ${all.get(id)}, served as ${route}`);
    expect({ missing, extra, mismatched }).toEqual({ missing: [], extra: [], mismatched: [] });
    expect(operations.length, 'an operationId defined twice').toBe(have.size);
  });

  it('drives every operation through its stripe-node method in some test', () => {
    // Calls may be split across lines (`s.customers\n  .create(`); whitespace before a dot is dropped.
    const text = readdirSync(TESTS)
      .filter((f) => f.endsWith('.test.ts') && f !== 'coverage.test.ts')
      .map((f) => readFileSync(`${TESTS}/${f}`, 'utf8').replace(/\s+(?=\.)/g, ''))
      .join('\n');
    const undriven = [...reference(), ...BEYOND_ROWS]
      .filter((r) => !drives(text, { method: r.http, path: r.path, sdk: r.sdk }))
      .map((r) => `${r.opid} (${r.sdk})`)
      .sort();
    expect(undriven).toEqual([]);
  });
});
