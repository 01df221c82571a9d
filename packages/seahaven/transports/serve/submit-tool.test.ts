import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { crm } from '../../../../worlds/crm/index.ts';
import { createMcpHttpHandler } from '../mcp/index.ts';
import { startServer, type RunningServer } from './index.ts';
import { WireProbe, callFrame as call, openReset, wsUrlOf } from './wire-probe.ts';
import { compiledBin } from '../../core/test/compiled-copy.ts';

// The opt-in `submit` tool (reset `submit_tool: true`, `seahaven mcp --submit-tool`, MCP `?submit_tool=1`): listed
// beside the world's tools, it ends the episode as the submit step does, and its tool result carries the reward.

const ADA = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@acmerobotics.example',
  company_id: 'cmp_acme',
  title: 'Head of Research',
};
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

/** What OpenEnv's harness reads from a tool result: `data.reward`. */
const toolResultReward = (data: unknown) =>
  data !== null && typeof data === 'object'
    ? ((data as { reward?: unknown }).reward ?? null)
    : null;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    worlds: [crm],
    port: 0,
    logger: () => {},
    mcpHttp: createMcpHttpHandler({ world: crm }),
  });
});
afterAll(async () => {
  await server.close();
});
const url = () => wsUrlOf(server.url);

describe('submit_tool over the WebSocket', () => {
  it("lists submit in the reset's tools and in list_tools, and only when asked for", async () => {
    const p = await WireProbe.open(url());
    const plain = await p.ask({ type: 'reset', data: { task: 'add_lead' } });
    expect(names(plain.data.observation.tools)).not.toContain('submit');
    const r = await p.ask({ type: 'reset', data: { task: 'add_lead', submit_tool: true } });
    const tools = r.data.observation.tools;
    expect(names(tools)).toEqual([...names(crm.toolListings()), 'submit']);
    expect(tools.at(-1)).toMatchObject({
      name: 'submit',
      input_schema: { type: 'object', properties: {} },
    });
    expect(tools.at(-1).description).toMatch(/finished the task/);
    expect(
      names((await p.ask({ type: 'step', data: { type: 'list_tools' } })).data.observation.tools),
    ).toContain('submit');
    // Without submit_tool the name is no tool at all.
    await p.ask({ type: 'reset', data: { task: 'add_lead' } });
    const unknown = await p.ask(call('submit', {}));
    expect(unknown.data.observation.error.error_type).toBe('tool_not_found');
    expect(unknown.data.done).toBe(false);
    await p.close();
  });

  it('ends the episode like the submit step: the grade in the observation, the reward at the top level and in data', async () => {
    const p = await openReset(url(), { task: 'add_lead', submit_tool: true });
    const made = await p.ask(call('create_contact', ADA));
    expect(made.data.reward).toBeNull();
    p.send(call('submit', {}));
    const done = await p.next();
    expect(done.text).toContain('"reward":1.0,"done":true');
    const obs = done.json.data.observation;
    expect(obs.tool_name).toBe('submit');
    expect(obs.error).toBeNull();
    expect(obs.result.data).toEqual({ reward: 1, passed: true });
    expect(obs.result.structured_content).toEqual({ reward: 1, passed: true });
    expect(obs.result.content[0].text).toBe('{"reward":1.0,"passed":true}');
    expect(done.text).toContain('"data":{"reward":1.0,"passed":true}');
    expect(toolResultReward(obs.result.data)).toBe(1);
    expect(obs.grade).toMatchObject({ reward: 1, passed: true });
    const submitted = await p.ask({ type: 'step', data: { type: 'submit' } });
    expect(submitted.data.observation.grade).toEqual(obs.grade);
    await p.close();
  });

  it('refuses arguments as a failed call, and submit_tool without a task or not a boolean', async () => {
    const p = await openReset(url(), { task: 'add_lead', submit_tool: true });
    const withArgs = await p.ask(call('submit', { answer: 42 }));
    expect(withArgs.data).toMatchObject({
      reward: null,
      done: false,
      observation: { error: { error_type: 'invalid_args' } },
    });
    const noTask = await p.ask({
      type: 'reset',
      data: { fixture: 'small_startup', submit_tool: true },
    });
    expect(noTask.data.errors[0]).toMatchObject({ loc: ['data', 'submit_tool'] });
    const notBool = await p.ask({ type: 'reset', data: { task: 'add_lead', submit_tool: 'yes' } });
    expect(notBool.data.errors[0]).toMatchObject({
      loc: ['data', 'submit_tool'],
      type: 'bool_type',
    });
    // The episode is still the one the refused resets found.
    expect((await p.ask({ type: 'state' })).data.task).toBe('add_lead');
    await p.close();
  });

  it('comes with a fork of the episode', async () => {
    const p = await openReset(url(), { task: 'add_lead', submit_tool: true });
    const token = (await p.ask({ type: 'step', data: { type: 'fork' } })).data.observation.fork
      .token;
    const branch = await WireProbe.open(url());
    const adopted = await branch.ask({ type: 'reset', data: { fork_token: token } });
    expect(names(adopted.data.observation.tools)).toContain('submit');
    expect((await branch.ask(call('submit', {}))).data.done).toBe(true);
    await branch.close();
    await p.close();
  });

  it('is listed and called through JSON-RPC mcp frames of the session', async () => {
    const p = await openReset(url(), { task: 'add_lead', submit_tool: true });
    const listed = await p.ask({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(names(listed.data.result.tools)).toContain('submit');
    await p.ask(call('create_contact', ADA));
    const called = await p.ask({
      type: 'mcp',
      data: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'submit', arguments: {} },
      },
    });
    expect(called.data.result.data).toEqual({ reward: 1, passed: true });
    await p.close();
  });
});

describe('submit_tool over HTTP and MCP', () => {
  it('works on HTTP /reset and /step', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'x-session-id': 'submit-tool', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    expect(
      names((await post('/reset', { task: 'add_lead', submit_tool: true })).observation.tools),
    ).toContain('submit');
    const done = await post('/step', {
      action: { type: 'call_tool', tool_name: 'submit', arguments: {} },
    });
    expect(done).toMatchObject({
      reward: 0,
      done: true,
      observation: {
        tool_name: 'submit',
        result: { data: { reward: 0, passed: false } },
        grade: { reward: 0 },
      },
    });
  });

  it('is listed and called on an MCP Streamable HTTP session started with ?submit_tool=1, and only then', async () => {
    const open = async (query: string) => {
      const client = new Client({ name: 'submit-tool-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`/mcp?${query}`, server.url)));
      return client;
    };
    const plain = await open('task=add_lead');
    expect(names((await plain.listTools()).tools)).not.toContain('submit');
    await plain.close();
    const client = await open('task=add_lead&submit_tool=1');
    expect(names((await client.listTools()).tools)).toContain('submit');
    await client.callTool({ name: 'create_contact', arguments: ADA });
    const r = await client.callTool({ name: 'submit', arguments: {} });
    expect(r.structuredContent).toEqual({ reward: 1, passed: true });
    await client.close();
  });

  it('is served by `seahaven mcp --task <id> --submit-tool` on stdio', async () => {
    // The command line, compiled for the test suite (core/test/compiled-copy.ts).
    const bin = compiledBin();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...bin, 'mcp', 'crm', '--task', 'add_lead', '--submit-tool', '--seed', '1'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'submit-tool-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(names((await client.listTools()).tools)).toContain('submit');
      const r = await client.callTool({ name: 'submit', arguments: {} });
      expect(r.structuredContent).toEqual({ reward: 0, passed: false });
    } finally {
      await client.close();
    }
  });
});
