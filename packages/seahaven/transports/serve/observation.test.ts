import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../core/instance-internals.ts';
import { callObservation, toolCallResult } from './observation.ts';
import { stepPayload } from './payload.ts';

// The plain path the byte writer must equal: objects serialised by JSON.stringify, the reward written as OpenEnv's
// clients read it (stepPayload).
const plainResult = (result: unknown) => ({
  content: [{ type: 'text', text: JSON.stringify(result) }],
  structured_content:
    result !== null && typeof result === 'object' && !Array.isArray(result) ? result : null,
  data: result,
  is_error: false,
});
const plainPayload = (tool: string, result: unknown, reward: number | null, metadata = '{}') =>
  stepPayload(
    JSON.stringify({ tool_name: tool, result: plainResult(result), error: null }),
    reward,
    false,
    metadata,
  );
const plainFrame = (tool: string, result: unknown, reward: number | null, metadata?: string) =>
  '{"type":"observation","data":' + plainPayload(tool, result, reward, metadata) + '}';

const ok = (result: unknown): CallOutcome => ({ ok: true, result, json: JSON.stringify(result) });
const text = (reply: string | Buffer) =>
  typeof reply === 'string' ? reply : reply.toString('utf8');

const results: [string, unknown][] = [
  ['an ASCII row', { id: 'deal_1', amount_cents: 4_200_000, stage: 'proposal', close_date: null }],
  ['non-ASCII text', { title: 'Annual license – Pioneer Cloud', city: 'Zürich', note: '契約 🎉' }],
  [
    'characters JSON escapes',
    { s: 'quote " backslash \\ newline \n tab \t nul \u0000 sep \u2028 lone \ud800 end' },
  ],
  [
    'a nested object',
    {
      deals: [
        { id: 'a', tags: ['x', 'y'] },
        { id: 'b', tags: [] },
      ],
      next_cursor: null,
    },
  ],
  ['an array', [1, 'two', { three: 3 }]],
  ['a string', 'just "text"'],
  ['a number', 42],
  ['null', null],
  [
    'a result larger than the buffer pool',
    { rows: Array.from({ length: 400 }, (_, i) => ({ id: `row_${i}`, name: `Näme ${i}` })) },
  ],
];

describe('callObservation', () => {
  for (const [what, result] of results) {
    it(`writes ${what} byte for byte as the plain JSON, in every envelope`, () => {
      const outcome = ok(result);
      const frame = callObservation('get_deal', outcome, {
        transport: 'ws',
        reward: null,
        metadata: '{}',
      });
      expect(Buffer.isBuffer(frame)).toBe(true);
      expect(text(frame)).toBe(plainFrame('get_deal', result, null));
      expect(
        Buffer.compare(frame as Buffer, Buffer.from(plainFrame('get_deal', result, null))),
      ).toBe(0);
      const parsed = JSON.parse(text(frame));
      expect(parsed.data.observation.result.content[0].text).toBe(outcome.json);
      expect(parsed.data.observation.result.data).toEqual(JSON.parse(outcome.json));
      expect(
        text(
          callObservation('get_deal', outcome, { transport: 'http', reward: null, metadata: '{}' }),
        ),
      ).toBe(plainPayload('get_deal', result, null));
      expect(
        text(callObservation('get_deal', outcome, { transport: 'rpc', id: 7, inFrame: false })),
      ).toBe(JSON.stringify({ jsonrpc: '2.0', id: 7, result: plainResult(result) }));
      expect(
        text(callObservation('get_deal', outcome, { transport: 'rpc', id: 'r-1', inFrame: true })),
      ).toBe(
        JSON.stringify({
          type: 'mcp',
          data: { jsonrpc: '2.0', id: 'r-1', result: plainResult(result) },
        }),
      );
    });
  }

  it('carries rewards, metadata and any tool name', () => {
    const outcome = ok({ ok: true });
    for (const [tool, reward, metadata] of [
      ['get_deal', 0.5, '{}'],
      ['outil « spécial »', 1, '{"seahaven_grade_error":"boom"}'],
      ['q"uote', -0.25, '{}'],
      ['get_deal', 0, '{"x":1}'],
      ['get_deal', 0, '{}'],
      ['get_deal', null, '{"x":1}'],
    ] as const) {
      expect(text(callObservation(tool, outcome, { transport: 'ws', reward, metadata }))).toBe(
        plainFrame(tool, { ok: true }, reward, metadata),
      );
      expect(text(callObservation(tool, outcome, { transport: 'http', reward, metadata }))).toBe(
        plainPayload(tool, { ok: true }, reward, metadata),
      );
    }
    // The head kept for a tool name is reused, not confused with another tool's or another envelope's.
    expect(
      text(
        callObservation('get_company', outcome, { transport: 'ws', reward: null, metadata: '{}' }),
      ),
    ).toBe(plainFrame('get_company', { ok: true }, null));
    expect(
      text(
        callObservation('get_deal', outcome, { transport: 'http', reward: null, metadata: '{}' }),
      ),
    ).toBe(plainPayload('get_deal', { ok: true }, null));
    expect(
      text(callObservation('get_deal', outcome, { transport: 'ws', reward: null, metadata: '{}' })),
    ).toBe(plainFrame('get_deal', { ok: true }, null));
  });

  it("shows a failure as OpenEnv's failed call (error_type and message only) or a JSON-RPC error, the world's error beside it", () => {
    const error = { code: 'not_found', message: 'No deal deal_9.', details: { id: 'deal_9' } };
    const failed: CallOutcome = { ok: false, error, json: JSON.stringify(error) };
    const observation = {
      tool_name: 'get_deal',
      result: null,
      error: { error_type: 'execution_error', message: 'No deal deal_9.' },
    };
    const payload = stepPayload(
      JSON.stringify(observation),
      0,
      false,
      JSON.stringify({ seahaven_error: error }),
    );
    expect(
      callObservation('get_deal', failed, { transport: 'http', reward: 0, metadata: '{}' }),
    ).toBe(payload);
    expect(
      callObservation('get_deal', failed, { transport: 'ws', reward: 0, metadata: '{"x":1}' }),
    ).toBe('{"type":"observation","data":' + payload + '}');
    const rpcError = {
      code: -32603,
      message: "Tool 'get_deal' failed: No deal deal_9.",
      data: { error_type: 'execution_error', seahaven_error: error },
    };
    expect(
      JSON.parse(
        text(callObservation('get_deal', failed, { transport: 'rpc', id: null, inFrame: false })),
      ),
    ).toEqual({ jsonrpc: '2.0', id: null, error: rpcError });
    expect(
      JSON.parse(
        text(callObservation('get_deal', failed, { transport: 'rpc', id: 3, inFrame: true })),
      ),
    ).toEqual({ type: 'mcp', data: { jsonrpc: '2.0', id: 3, error: rpcError } });
    const unknown = { code: 'unknown_tool', message: 'Unknown tool "x".' };
    expect(
      JSON.parse(
        text(
          callObservation(
            'x',
            { ok: false, error: unknown, json: JSON.stringify(unknown) },
            { transport: 'http', reward: 0, metadata: '{}' },
          ),
        ),
      ).observation.error.error_type,
    ).toBe('tool_not_found');
  });
});

describe('toolCallResult (MCP)', () => {
  it('is made of the same pieces: the JSON text, and the result as structured content when it is an object', () => {
    expect(toolCallResult(ok({ id: 'deal_1' }))).toEqual({
      content: [{ type: 'text', text: '{"id":"deal_1"}' }],
      structuredContent: { id: 'deal_1' },
    });
    expect(toolCallResult(ok('text'))).toEqual({ content: [{ type: 'text', text: '"text"' }] });
  });

  it('keeps non-object results out of structuredContent', () => {
    expect(toolCallResult(ok([1, 2]))).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(toolCallResult(ok(null))).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });

  it('shows a failure as an isError result carrying the error', () => {
    const error = { code: 'not_found', message: 'No contact con_1.' };
    expect(toolCallResult({ ok: false, error, json: JSON.stringify(error) })).toEqual({
      content: [{ type: 'text', text: '{"code":"not_found","message":"No contact con_1."}' }],
      structuredContent: error,
      isError: true,
    });
  });
});
