import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  END,
  REGENERATE,
  documentedTable,
  generateTable,
  withTable,
} from './operations-table.ts';

// docs/stripe.md carries the table of all operations; it must be what operations-table.ts makes from the reference list
// and the tests as they stand.

describe('the operations table in docs/stripe.md', () => {
  it('lists all 187 operations: the 155 of the reference list, the 5 of webhook endpoints, the 8 of tax IDs, the 5 of test clocks, the 12 of card tokens, sources and cards and the 2 of subscriptions under a customer', () => {
    expect(generateTable().split('\n').slice(2)).toHaveLength(187);
  });

  it('is up to date', () => {
    const documented = documentedTable();
    expect(documented, `docs/stripe.md has no ${BEGIN} … ${END} markers`).toBeDefined();
    expect(
      documented === generateTable(),
      `the operations table in docs/stripe.md is stale; regenerate it with \`${REGENERATE}\``,
    ).toBe(true);
  });

  it('replaces only what lies between the markers', () => {
    const text = `intro\n${BEGIN}\nold\n${END}\noutro\n`;
    expect(withTable(text, 'new')).toBe(`intro\n${BEGIN}\nnew\n${END}\noutro\n`);
    expect(() => withTable('no markers', 'x')).toThrow(/markers/);
  });
});
