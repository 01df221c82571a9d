import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { quoteIdent } from '../../core/schema.ts';
import { startServer, type RunningServer, type Session } from './index.ts';
import { WireProbe } from './wire-probe.ts';

// Property-based fuzzing of everything a client can send: WebSocket frames, HTTP bodies, JSON-RPC requests and tool
// arguments. `npm test` runs a fixed number of cases per property from a fixed seed, so it passes or fails the same
// way on every run; SEAHAVEN_FUZZ_RUNS=5000 runs more cases from a fresh seed each time, and SEAHAVEN_FUZZ_SEED=<n>
// replays the seed a failure printed (docs/reliability.md).

const RUNS = Number(process.env.SEAHAVEN_FUZZ_RUNS) || undefined;
const SEED =
  process.env.SEAHAVEN_FUZZ_SEED === undefined
    ? RUNS === undefined
      ? 20261201
      : undefined
    : Number(process.env.SEAHAVEN_FUZZ_SEED);
const params = (runs: number) => ({
  numRuns: RUNS ?? runs,
  ...(SEED === undefined ? {} : { seed: SEED }),
});
const timeout = (runs: number) => Math.max(30_000, (RUNS ?? runs) * 60);

const TOOLS = crm.tools.map((t) => t.name);
const NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'small_startup',
  'big_co',
  'empty',
  'add_lead',
  'crm-basics',
  ...TOOLS,
];
const ERROR_CODES = ['INVALID_JSON', 'UNKNOWN_TYPE', 'VALIDATION_ERROR'];
const RPC_CODES = [-32700, -32600, -32601, -32602, -32603, -32000];

const json = fc.jsonValue({ maxDepth: 4 });
const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 12 }));
/** Nesting around the limit (100 levels) and far beyond it. */
const nested = fc
  .oneof(fc.integer({ min: 90, max: 110 }), fc.integer({ min: 1000, max: 6000 }))
  .chain((d) =>
    fc.constantFrom(
      '['.repeat(d) + ']'.repeat(d),
      '{"a":'.repeat(d) + '1' + '}'.repeat(d),
      `{"type":"step","data":{"type":"call_tool","tool_name":"create_company","arguments":{"name":${'['.repeat(d)}${']'.repeat(d)}}}}`,
    ),
  );
const resetData = fc.dictionary(
  fc.constantFrom(
    'fixture',
    'seed',
    'episode_id',
    'clock',
    'now',
    'task',
    'curriculum',
    'run_id',
    'reward_mode',
    'session_id',
    'extra',
  ),
  fc.oneof(name, fc.integer(), json),
  { maxKeys: 4 },
);
const args = fc.oneof(
  fc.dictionary(
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('name', 'email', 'id', 'company_id', '__proto__'),
    ),
    json,
    { maxKeys: 3 },
  ),
  json,
);
const action = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('call_tool', 'list_tools', 'submit', 'nope'),
      tool_name: name,
      arguments: args,
      metadata: json,
    },
    { requiredKeys: [] },
  ),
  json,
);
const rpcRequest = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), json),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), json),
    method: fc.oneof(
      fc.constantFrom('tools/list', 'tools/call', 'openenv/session/close', 'initialize'),
      fc.string({ maxLength: 12 }),
    ),
    params: fc.oneof(
      fc.record(
        { name, arguments: args, session_id: fc.oneof(fc.constantFrom('default', 'fz'), json) },
        { requiredKeys: [] },
      ),
      json,
    ),
  },
  { requiredKeys: [] },
);

/** A WebSocket frame: text (JSON or not, valid UTF-8 or not) or binary. */
type WsFrame = { data: string | Buffer; binary: boolean };
const wsFrame: fc.Arbitrary<WsFrame> = fc.oneof(
  fc
    .record(
      {
        type: fc.constantFrom('reset', 'step', 'state', 'mcp', 'bogus'),
        data: fc.oneof(resetData, action, rpcRequest, json),
      },
      { requiredKeys: ['type'] },
    )
    .map((f) => ({ data: JSON.stringify(f), binary: false })),
  json.map((v) => ({ data: JSON.stringify(v), binary: false })),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => ({ data: s, binary: false })),
  nested.map((s) => ({ data: s, binary: false })),
  fc.uint8Array({ maxLength: 40 }).map((b) => ({ data: Buffer.from(b), binary: true })),
  fc.uint8Array({ maxLength: 40 }).map((b) => ({ data: Buffer.from([0xff, ...b]), binary: false })),
);

/** Whether a frame asks the server to close the session (the one request that gets no reply). */
function closes(frame: WsFrame): boolean {
  try {
    const v = JSON.parse(frame.data.toString());
    return v !== null && typeof v === 'object' && v.type === 'close';
  } catch {
    return false;
  }
}

let server: RunningServer;
let sentinel = 0;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, logger: () => {} });
});
afterAll(async () => {
  await server.close();
});

describe('fuzz: WebSocket frames', () => {
  it(
    'answers every frame exactly once, in order, with a well-formed frame, and the session stays usable',
    async () => {
      const p = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            wsFrame.filter((f) => !closes(f)),
            { minLength: 1, maxLength: 8 },
          ),
          async (frames) => {
            for (const f of frames) p.ws.send(f.data, { binary: f.binary });
            // A request whose reply can be told apart from any other: it must come right after the frames' replies.
            const id = `sentinel-${++sentinel}`;
            p.send({ type: 'mcp', data: { jsonrpc: '2.0', id, method: 'tools/list' } });
            for (let i = 0; i < frames.length; i++) {
              const reply = (await p.next()).json;
              expect(['observation', 'state', 'error', 'mcp']).toContain(reply.type);
              if (reply.type === 'error') expect(ERROR_CODES).toContain(reply.data.code);
              if (reply.type === 'mcp') expect(reply.data.id).not.toBe(id);
            }
            const last = (await p.next()).json;
            expect(last).toMatchObject({
              type: 'mcp',
              data: { id, result: { tools: expect.any(Array) } },
            });
          },
        ),
        params(150),
      );
      await p.close();
    },
    timeout(150),
  );
});

describe('fuzz: HTTP bodies', () => {
  it(
    'never answers a body with a server error',
    async () => {
      const body = fc.oneof(
        resetData.map((v) => JSON.stringify(v)),
        fc
          .record(
            { action, session_id: fc.oneof(fc.constantFrom('default', 'fz'), json) },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
        json.map((v) => JSON.stringify(v)),
        fc.string({ unit: 'binary', maxLength: 60 }),
        nested,
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/reset', '/step', '/mcp', '/crm/reset', '/crm/step'),
          body,
          fc.constantFrom(undefined, 'default', 'fz', 'bad id!'),
          async (path, text, session) => {
            const r = await fetch(`${server.url}${path}`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                ...(session ? { 'x-session-id': session } : {}),
              },
              body: text,
            });
            const reply = await r.json();
            expect(r.status).toBeLessThan(500);
            if (path === '/mcp') {
              expect(r.status).toBe(200);
              expect(reply.jsonrpc).toBe('2.0');
            } else if (r.status === 422) {
              expect(reply.detail.length).toBeGreaterThan(0);
            }
          },
        ),
        params(300),
      );
    },
    timeout(300),
  );
});

describe('fuzz: JSON-RPC requests', () => {
  it(
    'answers with JSON-RPC 2.0 and the standard error codes',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(rpcRequest, json), async (request) => {
          const r = await fetch(`${server.url}/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(request),
          });
          expect(r.status).toBe(200);
          const reply = await r.json();
          expect(reply.jsonrpc).toBe('2.0');
          // What the server saw is the request after JSON: -0 arrives as 0, as any JSON client would send it.
          const m = JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
          const id =
            m !== null &&
            typeof m === 'object' &&
            !Array.isArray(m) &&
            (typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id)))
              ? m.id
              : null;
          expect(reply.id).toEqual(id);
          if ('result' in reply) return;
          expect(RPC_CODES).toContain(reply.error.code);
          const expected =
            m === null ||
            typeof m !== 'object' ||
            Array.isArray(m) ||
            m.jsonrpc !== '2.0' ||
            typeof m.method !== 'string'
              ? -32600
              : m.params !== undefined &&
                  m.params !== null &&
                  (typeof m.params !== 'object' || Array.isArray(m.params))
                ? -32602
                : ![
                      'tools/list',
                      'tools/call',
                      'openenv/session/create',
                      'openenv/session/close',
                    ].includes(m.method)
                  ? -32601
                  : undefined;
          if (expected !== undefined) expect(reply.error.code).toBe(expected);
          else expect([-32602, -32603, -32000]).toContain(reply.error.code);
        }),
        params(300),
      );
    },
    timeout(300),
  );
});

describe('fuzz: tool arguments', () => {
  it(
    'leaves the instance exactly as it was when a call fails',
    async () => {
      const p = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
      expect(
        (await p.ask({ type: 'reset', data: { fixture: 'small_startup', seed: 1 } })).type,
      ).toBe('observation');
      const session = [...server.sessions.list()].find((s) => s.owner === 'ws') as Session;
      const tables = crm.tables.map(
        (t) => `SELECT * FROM ${quoteIdent(t.name)} ORDER BY ${t.pk.map(quoteIdent).join(', ')}`,
      );
      const snapshot = () => JSON.stringify(tables.map((sql) => session.inst.query(sql)));
      const ids = crm.tables.flatMap((t) =>
        session.inst
          .query<Record<string, unknown>>(
            `SELECT ${quoteIdent(t.pk[0])} AS id FROM ${quoteIdent(t.name)} LIMIT 3`,
          )
          .map((r) => r.id),
      );
      const value = fc.oneof(
        json,
        fc.constantFrom('', ' ', 'x'.repeat(300), ...ids),
        fc.integer({ min: -5, max: 5 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
      );
      const call = fc.constantFrom(...crm.tools).chain((tool) => {
        const keys = Object.keys(
          (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {},
        );
        const known =
          keys.length > 0
            ? fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length })
            : fc.constant({});
        return fc.tuple(
          fc.constant(tool.name),
          fc.oneof(
            known,
            fc
              .tuple(known, fc.string({ maxLength: 6 }), value)
              .map(([a, k, v]) => ({ ...a, [k]: v })),
          ),
        );
      });
      await fc.assert(
        fc.asyncProperty(call, async ([tool, input]) => {
          const before = snapshot();
          const changes = JSON.stringify(session.inst.changes());
          const reply = await p.ask({
            type: 'step',
            data: { type: 'call_tool', tool_name: tool, arguments: input },
          });
          expect(reply.type).toBe('observation');
          const observation = reply.data.observation;
          if (observation.error === null) return;
          expect(['invalid_args', 'execution_error', 'tool_not_found']).toContain(
            observation.error.error_type,
          );
          expect(snapshot()).toBe(before);
          expect(JSON.stringify(session.inst.changes())).toBe(changes);
        }),
        params(400),
      );
      await p.close();
    },
    timeout(400),
  );
});
