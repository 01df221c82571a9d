import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineHttpFace, defineOperation, defineTool, defineWorld, z } from '../../core/index.ts';
import notes, { addNote, json } from './test-fixtures/notes-face-world.ts';
import { startServer, type RunningServer } from './server.ts';
import { WireProbe } from './wire-probe.ts';

// A world's own HTTP API ("face") on the server: requests run as calls of the instance their key picks; each session
// is issued a key; an unbound key gets an account of its own; the server token still guards every route.

describe('a world HTTP face, in process', () => {
  it('runs each routed request as one recorded call, with its changes, and answers the rest directly', () => {
    const inst = notes.instance({ seed: 3 });
    const post = (text: string) =>
      inst.request({
        method: 'POST',
        path: '/notes',
        query: '',
        headers: {},
        body: JSON.stringify({ text }),
      });
    const first = post('hello');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ text: 'hello', id: expect.stringMatching(/^note_/) });
    expect(post('')).toEqual({ status: 400, body: { error: 'text is empty' } });
    expect(
      inst.request({ method: 'GET', path: '/nope', query: '', headers: {}, body: '' }),
    ).toEqual({ status: 404, body: { error: 'no route GET /nope' } });
    expect(inst.callLog().map((c) => [c.index, c.tool, c.ok])).toEqual([
      [1, 'PostNotes', true],
      [2, 'PostNotes', false],
    ]);
    expect(inst.changes()).toHaveLength(1);
    // A logged operation replays on a fresh instance of the same seed: same ids, same state.
    const again = notes.instance({ seed: 3 });
    for (const c of inst.callLog()) again.operation(c.tool, c.args);
    expect(again.changes()).toEqual(inst.changes());
    expect(again.operation('Nope')).toMatchObject({
      ok: false,
      error: { code: 'unknown_operation' },
    });
  });

  it("logs the JSON text an operation's json gives for its result, else the result serialized", () => {
    // The text is taken as it is: the operation vouches that it is JSON.stringify(result).
    const told = defineOperation({
      name: 'Told',
      run: (_ctx, input: { n: number }) => ({ n: input.n }),
      json: (result) => (result.n === 1 ? '{"n":1,"told":true}' : undefined),
    });
    const world = defineWorld({
      name: 'told',
      version: '1',
      schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'nothing',
          description: 'Does nothing.',
          input: z.object({}),
          run: () => null,
        }),
      ],
      fixtures: {
        empty: { description: 'Nothing.', now: '2026-06-01T09:00:00.000Z', build() {} },
      },
      http: defineHttpFace({
        basePath: '/api',
        operations: [told],
        credential: () => ({ key: 'k' }),
        issueKey: (token) => token,
        route: (req) => ({ operation: 'Told', input: { n: Number(req.query) } }),
        reply: (outcome) => json(200, outcome.ok ? outcome.result : null),
      }),
    });
    const inst = world.instance();
    for (const query of ['1', '2'])
      inst.request({ method: 'GET', path: '/', query, headers: {}, body: '' });
    expect(inst.callLog().map((c) => c.result)).toEqual([{ n: 1, told: true }, { n: 2 }]);
    expect(() => defineOperation({ name: 'Bad', run: () => 1, json: 'x' as never })).toThrow(
      /json, when given, must be a function/,
    );
  });

  it("turns a bug in routing into the face's 500, logged with its stack", () => {
    const lines: string[] = [];
    const inst = notes.instance({ logger: (l) => lines.push(l) });
    const r = inst.request({ method: 'GET', path: '/boom', query: '', headers: {}, body: '' });
    expect(r).toEqual({
      status: 500,
      body: { error: expect.stringMatching(/^internal error \w+/), from: 'notes' },
    });
    expect(lines.join('\n')).toContain('a routing bug');
  });

  it('is refused where it cannot work', () => {
    expect(() =>
      defineHttpFace({
        basePath: 'api/',
        operations: [addNote],
        credential: () => ({ key: 'k' }),
        issueKey: (t) => t,
        route: () => ({ operation: 'PostNotes', input: {} }),
        reply: () => json(200, null),
      }),
    ).toThrow(/basePath must be a path like "\/v1"/);
    expect(() =>
      defineHttpFace({
        basePath: '/api',
        operations: [addNote, addNote],
        credential: () => ({ key: 'k' }),
        issueKey: (t) => t,
        route: () => ({ operation: 'PostNotes', input: {} }),
        reply: () => json(200, null),
      }),
    ).toThrow(/two operations are named "PostNotes"/);
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
        tools: notes.tools as never,
        http: {} as never,
      }),
    ).toThrow(/http must come from defineHttpFace/);
  });
});

describe("a mounted world's HTTP face (MountSpec.http)", () => {
  const desk = (
    mount: Record<string, unknown> = { http: true },
    own: Record<string, unknown> = {},
  ) =>
    defineWorld({
      name: 'desk',
      version: '1',
      schema: 'CREATE TABLE memos (id TEXT PRIMARY KEY) STRICT;',
      tools: notes.tools as never,
      worlds: { notes: { world: notes, prefix: 'notes_', ...mount } },
      ...own,
    });

  it("is served as the host's, its operations running in the mount's store", () => {
    const world = desk();
    expect(world.http).toBe(notes.http);
    expect(world.httpMount).toBe('notes');
    const inst = world.instance({ seed: 3 });
    const r = inst.request({
      method: 'POST',
      path: '/notes',
      query: '',
      headers: {},
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(r).toMatchObject({ status: 200, body: { text: 'hello' } });
    expect(inst.changes().map((c) => [c.table, c.op])).toEqual([['notes.notes', 'insert']]);
    expect(inst.queryStore('notes', 'SELECT text FROM notes')).toEqual([{ text: 'hello' }]);
    expect(inst.call('notes_count_notes', {})).toMatchObject({ ok: true, result: { n: 1 } });
    // The log replays on a fresh instance, the operation again in the mount's store.
    const again = world.instance({ seed: 3 });
    for (const c of inst.callLog()) if (c.tool === 'PostNotes') again.operation(c.tool, c.args);
    expect(again.queryStore('notes', 'SELECT * FROM notes')).toEqual(
      inst.queryStore('notes', 'SELECT * FROM notes'),
    );
    // Without http: true the host serves no face.
    expect(desk({}).http).toBeUndefined();
    expect(() =>
      desk({})
        .instance()
        .request({ method: 'GET', path: '/notes', query: '', headers: {}, body: '' }),
    ).toThrow(/http: true on its mount/);
  });

  it('is refused where it cannot work, naming the fix', () => {
    const bare = defineWorld({
      name: 'bare',
      version: '1',
      schema: 'CREATE TABLE b (id TEXT PRIMARY KEY) STRICT;',
      tools: notes.tools as never,
    });
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: 'CREATE TABLE t (id TEXT PRIMARY KEY) STRICT;',
        tools: notes.tools as never,
        worlds: { bare: { world: bare, prefix: 'bare_', http: true } },
      }),
    ).toThrow(/worlds\.bare\.http is true, but bare has no HTTP face/);
    expect(() => desk({ http: 'yes' })).toThrow(/worlds\.notes\.http must be true or false/);
    expect(() => desk({ http: true }, { http: notes.http })).toThrow(/serves one HTTP face/);
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: 'CREATE TABLE t (id TEXT PRIMARY KEY) STRICT;',
        tools: notes.tools as never,
        worlds: {
          a: { world: notes, prefix: 'a_', http: true },
          b: { world: notes, prefix: 'b_', http: true },
        },
      }),
    ).toThrow(/worlds\.a\.http and worlds\.b\.http are both true/);
  });
});

describe('a world HTTP face on the server', () => {
  let server: RunningServer;
  let guarded: RunningServer;
  beforeAll(async () => {
    server = await startServer({ worlds: [notes], port: 0, maxSessions: 3 });
    guarded = await startServer({ worlds: [notes], port: 0, token: 'T0ken' });
  });
  afterAll(async () => {
    await server.close();
    await guarded.close();
  });

  const call = (
    base: string,
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
    extra: Record<string, string> = {},
  ) =>
    fetch(base + path, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("gives every session its own key, and a key reaches only its session's instance", async () => {
    const a = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
    const b = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
    const keyA = (await a.ask({ type: 'reset', data: {} })).data.metadata.api_key as string;
    const resetB = await b.ask({ type: 'reset', data: {} });
    const keyB = resetB.data.metadata.api_key as string;
    expect(keyA).toMatch(/^key_\w+$/);
    expect(keyB).not.toBe(keyA);
    expect((await call(server.url, 'POST', '/api/notes', keyA, { text: 'from A' })).status).toBe(
      200,
    );
    expect(await (await call(server.url, 'GET', '/api/notes', keyA)).json()).toEqual([
      { id: expect.any(String), text: 'from A' },
    ]);
    expect(await (await call(server.url, 'GET', '/notes/api/notes', keyB)).json()).toEqual([]);
    // The agent's REST writes are its episode's: they show in the session's state and tool calls see them.
    const state = await a.ask({ type: 'state' });
    expect(JSON.stringify(state.data)).toContain('from A');
    const counted = await a.ask({
      type: 'step',
      data: { type: 'call_tool', tool_name: 'count_notes', arguments: {} },
    });
    expect(JSON.stringify(counted.data)).toContain('"n":1');
    // A reset keeps the key and starts the instance afresh.
    const again = await a.ask({ type: 'reset', data: {} });
    expect(again.data.metadata.api_key).toBe(keyA);
    expect(await (await call(server.url, 'GET', '/api/notes', keyA)).json()).toEqual([]);
    await a.close();
    await b.close();
  });

  it("tells an MCP session its key in the instructions, and the key reaches that session's instance", async () => {
    const { createMcpHttpHandler } = await import('../mcp/http.ts');
    const mcp = createMcpHttpHandler({ world: notes });
    const served = await startServer({ worlds: [notes], port: 0, mcpHttp: mcp });
    const client = new Client({ name: 'face-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', served.url)));
      const key = /key for the world's HTTP API \(base path \/api on this server\): (key_\w+)/.exec(
        client.getInstructions() ?? '',
      )?.[1];
      expect(key).toBeDefined();
      expect((await call(served.url, 'POST', '/api/notes', key!, { text: 'via MCP' })).status).toBe(
        200,
      );
      const counted = await client.callTool({ name: 'count_notes', arguments: {} });
      expect(JSON.stringify(counted.content)).toContain('\\"n\\":1');
    } finally {
      await client.close();
      await served.close();
      await mcp.close();
    }
  });

  it("opens an account for a key no session holds, counted against capacity, and refuses bad keys in the API's own shape", async () => {
    const before = server.sessions.size;
    expect((await call(server.url, 'POST', '/api/notes', 'key_mine', { text: 'x' })).status).toBe(
      200,
    );
    expect(server.sessions.size).toBe(before + 1);
    expect([...server.sessions.list()].some((s) => s.owner === 'http-key')).toBe(true);
    expect(await (await call(server.url, 'GET', '/api/notes', 'key_mine')).json()).toHaveLength(1);
    expect(await (await call(server.url, 'GET', '/api/notes', 'key_theirs')).json()).toEqual([]);
    const bad = await call(server.url, 'GET', '/api/notes', 'sk_wrong');
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'send Authorization: Bearer key_…' });
    // Capacity 3: two accounts so far; the fourth key has no room.
    await call(server.url, 'GET', '/api/notes', 'key_third');
    const full = await call(server.url, 'GET', '/api/notes', 'key_fourth');
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({
      from: 'notes',
      error: expect.stringContaining('capacity'),
    });
    for (const s of [...server.sessions.list()]) server.sessions.end(s, 'close');
  });

  it('behind a token: issued keys work alone, other keys need X-Seahaven-Token, OpenEnv routes still need the bearer token', async () => {
    const refused = await call(guarded.url, 'GET', '/api/notes', 'key_walkin');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      from: 'notes',
      error: expect.stringContaining('X-Seahaven-Token'),
    });
    const token = { 'x-seahaven-token': 'T0ken' };
    expect(
      (await call(guarded.url, 'POST', '/api/notes', 'key_walkin', { text: 'mine' }, token)).status,
    ).toBe(200);
    // A key the server did not issue needs the token on every request, not only the one that opened its account:
    // anyone else who learns or guesses it gets nothing without the token.
    const later = await call(guarded.url, 'GET', '/api/notes', 'key_walkin');
    expect(later.status).toBe(401);
    expect(await later.json()).toMatchObject({
      from: 'notes',
      error: expect.stringContaining('X-Seahaven-Token'),
    });
    expect(
      await (await call(guarded.url, 'GET', '/api/notes', 'key_walkin', undefined, token)).json(),
    ).toHaveLength(1);
    expect(
      (
        await fetch(`${guarded.url}/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    const reset = await fetch(`${guarded.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer T0ken' },
      body: '{}',
    });
    const issued = ((await reset.json()) as { metadata: { api_key: string } }).metadata.api_key;
    expect((await call(guarded.url, 'GET', '/api/notes', issued)).status).toBe(200);
  });
});

describe('the account of a key the server never issued', () => {
  const post = (url: string, key: string, text: string) =>
    fetch(`${url}/api/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify({ text }),
    }).then((r) => r.json() as Promise<{ id: string }>);
  const accountOf = (server: RunningServer, key: string) =>
    [...server.sessions.list()].find((s) => server.endpoints.get('notes')!.faceKeyOf(s) === key)!;

  it('is seeded from the key: two keys never share ids, one key replays on a fresh server', async () => {
    const one = await startServer({ worlds: [notes], port: 0 });
    const two = await startServer({ worlds: [notes], port: 0 });
    try {
      const ids = async (url: string, key: string) => {
        const out: string[] = [];
        for (const text of ['a', 'b', 'c']) out.push((await post(url, key, text)).id);
        return out;
      };
      const a = await ids(one.url, 'key_alpha');
      const b = await ids(one.url, 'key_beta');
      expect(new Set([...a, ...b]).size).toBe(6);
      // The same key on another server (started afresh, its other accounts aside) draws the same ids, and its
      // account's whole state is the same, byte for byte.
      await post(two.url, 'key_gamma', 'elsewhere');
      expect(await ids(two.url, 'key_alpha')).toEqual(a);
      const first = accountOf(one, 'key_alpha').inst;
      const again = accountOf(two, 'key_alpha').inst;
      expect(again.seed).toBe(first.seed);
      expect(JSON.stringify(again.state())).toBe(JSON.stringify(first.state()));
      // The seed is the instance's own, so the account replays in process from its call log.
      const replay = notes.instance({ fixture: 'empty', seed: first.seed });
      for (const c of first.callLog()) replay.operation(c.tool, c.args);
      expect(JSON.stringify(replay.state())).toBe(JSON.stringify(first.state()));
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('leaves the seed of an OpenEnv reset as it was: the issued key acts on that seed', async () => {
    const server = await startServer({ worlds: [notes], port: 0 });
    try {
      const probe = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
      const reset = await probe.ask({ type: 'reset', data: { fixture: 'empty', seed: 5 } });
      expect(reset.data.observation.seed).toBe(5);
      const made = await post(server.url, reset.data.metadata.api_key as string, 'seeded');
      const inProcess = notes.instance({ fixture: 'empty', seed: 5 });
      expect(inProcess.operation('PostNotes', { text: 'seeded' })).toEqual({
        ok: true,
        result: made,
      });
      await probe.close();
    } finally {
      await server.close();
    }
  });
});
