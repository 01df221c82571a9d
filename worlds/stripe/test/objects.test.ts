// lib/objects.ts is what test/objects-build.ts prints from the stripe package's type declarations, and its `Tables`
// names one object type for every resource table the store writes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../lib/store.ts';
import { interfaceName, objectsSource, TABLE_OBJECTS } from './objects-build.ts';

const COMMITTED = new URL('../lib/objects.ts', import.meta.url);

describe('lib/objects.ts', () => {
  it('is what objects-build.ts prints from the stripe package declarations', async () => {
    expect(
      readFileSync(COMMITTED, 'utf8') === (await objectsSource()),
      'lib/objects.ts is stale: regenerate it with `npx tsx worlds/stripe/test/objects-build.ts > worlds/stripe/lib/objects.ts`',
    ).toBe(true);
  });

  it('maps every resource table of the store to an object type', () => {
    expect(Object.keys(TABLE_OBJECTS).sort()).toEqual(Object.keys(COLUMNS).sort());
  });

  it('names interfaces after their object types', () => {
    expect(interfaceName('checkout.session')).toBe('CheckoutSession');
    expect(interfaceName('line_item')).toBe('LineItem');
    expect(interfaceName('invoiceitem')).toBe('Invoiceitem');
  });
});
