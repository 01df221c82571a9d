import { describe, expect, it } from 'vitest';
import { CallHistory } from '../call-history.ts';

describe('CallHistory', () => {
  it('keeps every record exactly, across growth and multi-byte text', () => {
    const h = new CallHistory();
    const expected: unknown[] = [];
    for (let i = 1; i <= 700; i++) {
      const args = { note: `ünïcødé ✓ ${'x'.repeat(i % 37)} 😀`, i };
      const ok = i % 7 !== 0;
      const outcome = ok ? { rows: [i, 'é'.repeat(i % 5)] } : { code: 'not_found', message: `no ${i}` };
      h.push(i % 11 === 0 ? 0 : i, ok, `tool_${i % 3}`, JSON.stringify(args), JSON.stringify(outcome));
      const entry: Record<string, unknown> = i % 11 === 0 ? { tool: `tool_${i % 3}`, args, ok } : { index: i, tool: `tool_${i % 3}`, args, ok };
      entry[ok ? 'result' : 'error'] = outcome;
      expected.push(entry);
    }
    expect(h.length).toBe(700);
    expect(h.entries()).toEqual(expected);
  });

  it('a copy goes on independently of its source', () => {
    const a = new CallHistory();
    a.push(1, true, 'get', '{"id":1}', '{"id":1}');
    const b = new CallHistory(a);
    a.push(2, true, 'get', '{"id":2}', '{"id":2}');
    b.push(2, false, 'del', '{"id":9}', '{"code":"not_found","message":"none"}');
    expect(a.entries().map((e) => e.tool)).toEqual(['get', 'get']);
    expect(b.entries()).toEqual([
      { index: 1, tool: 'get', args: { id: 1 }, ok: true, result: { id: 1 } },
      { index: 2, tool: 'del', args: { id: 9 }, ok: false, error: { code: 'not_found', message: 'none' } },
    ]);
  });
});
