import { describe, expect, it } from 'vitest';
import { CallHistory } from '../call-history.ts';

describe('CallHistory', () => {
  it('keeps every record exactly, across growth and multi-byte text', () => {
    const h = new CallHistory();
    const expected: unknown[] = [];
    for (let i = 1; i <= 700; i++) {
      const args = { note: `ünïcødé ✓ ${'x'.repeat(i % 37)} 😀`, i };
      const ok = i % 7 !== 0;
      const outcome = ok
        ? { rows: [i, 'é'.repeat(i % 5)] }
        : { code: 'not_found', message: `no ${i}` };
      h.push(
        i % 11 === 0 ? 0 : i,
        ok,
        `tool_${i % 3}`,
        JSON.stringify(args),
        JSON.stringify(outcome),
      );
      const entry: Record<string, unknown> =
        i % 11 === 0
          ? { tool: `tool_${i % 3}`, args, ok }
          : { index: i, tool: `tool_${i % 3}`, args, ok };
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
      {
        index: 2,
        tool: 'del',
        args: { id: 9 },
        ok: false,
        error: { code: 'not_found', message: 'none' },
      },
    ]);
  });

  it('keeps records bigger than a chunk, and records that cross from one chunk into the next', () => {
    const h = new CallHistory();
    const big = JSON.stringify({ text: 'ä'.repeat(30_000) });
    const mid = JSON.stringify({ text: 'y'.repeat(9_000) });
    const outcomes = [mid, big, mid, mid, '{"ok":true}', big, mid];
    outcomes.forEach((o, i) => h.push(i + 1, true, 'read', `{"i":${i}}`, o));
    expect(h.entries().map((e) => e.result)).toEqual(outcomes.map((o) => JSON.parse(o)));
    const copy = new CallHistory(h);
    copy.push(8, true, 'read', '{"i":7}', mid);
    expect(copy.entries().map((e) => e.result)).toEqual(
      [...outcomes, mid].map((o) => JSON.parse(o)),
    );
    expect(h.length).toBe(7);
  });

  it('chunks released by one log are reused by the next without mixing records', () => {
    const fill = (h: CallHistory, tag: string, n: number) => {
      for (let i = 1; i <= n; i++)
        h.push(
          i,
          true,
          't',
          `{"tag":"${tag}","i":${i}}`,
          JSON.stringify({ tag, i, pad: tag.repeat(200) }),
        );
    };
    const a = new CallHistory();
    fill(a, 'a', 300);
    const keep = new CallHistory();
    fill(keep, 'k', 300);
    a.release();
    expect(a.length).toBe(0);
    expect(a.entries()).toEqual([]);
    const b = new CallHistory();
    fill(b, 'b', 500);
    expect(
      b
        .entries()
        .every(
          (e, i) =>
            (e.args as { tag: string; i: number }).tag === 'b' &&
            (e.result as { i: number }).i === i + 1,
        ),
    ).toBe(true);
    expect(
      keep
        .entries()
        .every(
          (e, i) =>
            (e.result as { tag: string; i: number; pad: string }).tag === 'k' &&
            (e.result as { pad: string }).pad === 'k'.repeat(200) &&
            (e.args as { i: number }).i === i + 1,
        ),
    ).toBe(true);
  });

  it('keeps at most its bound of outcomes: the oldest are dropped, with their size, and every call keeps its arguments', () => {
    const h = new CallHistory(undefined, 64 * 1024);
    const result = (i: number) => JSON.stringify({ i, pad: 'r'.repeat(5_000) });
    for (let i = 1; i <= 200; i++) h.push(i, i % 10 !== 0, 'read', `{"i":${i}}`, result(i));
    const entries = h.entries();
    expect(entries.map((e) => e.args)).toEqual(
      Array.from({ length: 200 }, (_, i) => ({ i: i + 1 })),
    );
    const kept = entries.filter((e) => !e.result_dropped);
    const dropped = entries.filter((e) => e.result_dropped);
    // The newest are kept, in one run at the end; what they hold stays within the bound.
    expect(kept.length).toBeGreaterThan(5);
    expect(entries.slice(-kept.length)).toEqual(kept);
    expect(
      kept.reduce((n, e) => n + JSON.stringify(e.result ?? e.error).length, 0),
    ).toBeLessThanOrEqual(64 * 1024 + 16 * 1024);
    expect(kept.at(-1)).toMatchObject({ index: 200, ok: false, error: { i: 200 } });
    expect(dropped[0]).toEqual({
      index: 1,
      tool: 'read',
      args: { i: 1 },
      ok: true,
      result_dropped: true,
      result_bytes: result(1).length,
    });
    expect(dropped.every((e) => e.result === undefined && e.error === undefined)).toBe(true);
    // A copy keeps the bound and what was dropped.
    const fork = new CallHistory(h);
    fork.push(201, true, 'read', '{"i":201}', result(201));
    expect(fork.entries().filter((e) => !e.result_dropped).length).toBeLessThanOrEqual(
      kept.length + 1,
    );
    expect(fork.entries()[0]).toEqual(dropped[0]);
    expect(fork.entries().at(-1)).toMatchObject({ index: 201, result: { i: 201 } });
  });

  it('drops even a single outcome larger than the bound, and writes the next one fresh', () => {
    const h = new CallHistory(undefined, 1024);
    h.push(1, true, 'big', '{}', JSON.stringify('x'.repeat(4_000)));
    h.push(2, true, 'small', '{}', '{"ok":1}');
    expect(h.entries()).toEqual([
      { index: 1, tool: 'big', args: {}, ok: true, result_dropped: true, result_bytes: 4_002 },
      { index: 2, tool: 'small', args: {}, ok: true, result: { ok: 1 } },
    ]);
  });
});
