import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildReference } from './reference-build.ts';

// The committed reference facts (reference/operations.json and shapes.json) are what reference-build.ts makes from
// Stripe's published material, where that material is beside the repository.

const SOURCE = fileURLToPath(new URL('../../../../shared/stripe/operations.json', import.meta.url));
const present = existsSync(SOURCE);
if (!present)
  console.log(
    "reference.test.ts: skipped, Stripe's published operation list is not beside the repository (../shared/stripe)",
  );

describe.skipIf(!present)('the reference facts', () => {
  it('are up to date with their source', () => {
    const built = buildReference();
    const read = (f: string) =>
      JSON.parse(
        readFileSync(fileURLToPath(new URL(`../reference/${f}`, import.meta.url)), 'utf8'),
      ) as unknown;
    expect(read('operations.json')).toEqual(built.operations);
    expect(read('shapes.json')).toEqual(built.shapes);
  });
});
