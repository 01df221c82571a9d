import { describe, expect, it } from 'vitest';
import { callOkFrame, callOkObservation, stepPayload } from './payload.ts';

const textFrame = (tool: string, result: unknown, reward: number | null, metadata?: string) =>
  '{"type":"observation","data":' + stepPayload(callOkObservation(tool, result), reward, false, metadata) + '}';

describe('callOkFrame', () => {
  const results: [string, unknown][] = [
    ['an ASCII row', { id: 'deal_1', amount_cents: 4_200_000, stage: 'proposal', close_date: null }],
    ['non-ASCII text', { title: 'Annual license – Pioneer Cloud', city: 'Zürich', note: '契約 🎉' }],
    ['characters JSON escapes', { s: 'quote " backslash \\ newline \n tab \t nul \u0000 sep \u2028 lone \ud800 end' }],
    ['a nested object', { deals: [{ id: 'a', tags: ['x', 'y'] }, { id: 'b', tags: [] }], next_cursor: null }],
    ['an array', [1, 'two', { three: 3 }]],
    ['a string', 'just "text"'],
    ['a number', 42],
    ['null', null],
    ['a result larger than the buffer pool', { rows: Array.from({ length: 400 }, (_, i) => ({ id: `row_${i}`, name: `Näme ${i}` })) }],
  ];

  for (const [what, result] of results) {
    it(`is byte for byte the text frame for ${what}`, () => {
      const json = JSON.stringify(result);
      const bytes = callOkFrame('get_deal', result, json, 0);
      expect(bytes.toString('utf8')).toBe(textFrame('get_deal', result, 0));
      expect(Buffer.compare(bytes, Buffer.from(textFrame('get_deal', result, 0)))).toBe(0);
      const frame = JSON.parse(bytes.toString('utf8'));
      expect(frame.data.observation.result.content[0].text).toBe(json);
      expect(frame.data.observation.result.data).toEqual(JSON.parse(json));
    });
  }

  it('carries rewards, metadata and any tool name', () => {
    const result = { ok: true };
    const json = JSON.stringify(result);
    for (const [tool, reward, metadata] of [['get_deal', 0.5, '{}'], ['outil « spécial »', 1, '{"seahaven_grade_error":"boom"}'], ['q"uote', null, '{}'], ['get_deal', 0, '{"x":1}']] as const) {
      expect(callOkFrame(tool, result, json, reward, metadata).toString('utf8')).toBe(textFrame(tool, result, reward, metadata));
    }
    // The head cached for a tool name is reused, not confused with another tool's.
    expect(callOkFrame('get_company', result, json, 0).toString('utf8')).toBe(textFrame('get_company', result, 0));
    expect(callOkFrame('get_deal', result, json, 0).toString('utf8')).toBe(textFrame('get_deal', result, 0));
  });
});
