import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { crm } from '../../../../worlds/crm/index.ts';
import { initializeMessage } from './test-fixtures/initialize.ts';
import { compiledBin } from '../../core/test/compiled-copy.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
// The command line, compiled for the test suite (core/test/compiled-copy.ts).
const bin = compiledBin();

function stdioClient(args: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...bin, 'mcp', ...args],
    cwd: root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  return { client, transport, stderr: () => stderr };
}

/** `seahaven mcp` driven by hand, to see exactly what reaches stdout. */
function rawServer(args: string[]) {
  const child = spawn(process.execPath, [...bin, 'mcp', ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let waiting: { count: number; resolve: (replies: unknown[]) => void } | null = null;
  const replies = () =>
    stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (waiting && stdout.endsWith('\n') && replies().length >= waiting.count)
      waiting.resolve(replies());
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    send: (message: object) => child.stdin.write(JSON.stringify(message) + '\n'),
    replies: (count: number) => new Promise<unknown[]>((resolve) => (waiting = { count, resolve })),
    end: () => (child.stdin.end(), exited),
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

const text = (result: Record<string, unknown>) =>
  JSON.parse((result.content as { text: string }[])[0].text);

// Each test drives a process of its own, so they run at once.
describe.concurrent('seahaven mcp (stdio)', () => {
  it('serves the crm world: lists tools, calls one, reports bad arguments as isError', async () => {
    const { client, transport, stderr } = stdioClient([
      'crm',
      '--fixture',
      'small_startup',
      '--seed',
      '1',
    ]);
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'crm', version: '1.0.0' });

    const { tools } = await client.listTools();
    expect(tools).toHaveLength(crm.tools.length);
    const create = tools.find((t) => t.name === 'create_contact')!;
    expect(create.description).toMatch(/Add a contact/);
    expect(create.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['name', 'email']),
    });

    const created = await client.callTool({
      name: 'create_contact',
      arguments: { name: 'Ada Quillfeather', email: 'ada@quill.example' },
    });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({
      name: 'Ada Quillfeather',
      email: 'ada@quill.example',
      stage: 'lead',
      created_at: '2026-06-01T09:00:00.000Z',
    });
    expect(text(created)).toEqual(created.structuredContent);

    // The instance is the process's: what one call wrote, the next one reads.
    const found = await client.callTool({
      name: 'search_contacts',
      arguments: { query: 'Quillfeather' },
    });
    expect(
      (found.structuredContent as { contacts: { email: string }[] }).contacts.map((c) => c.email),
    ).toEqual(['ada@quill.example']);

    const bad = await client.callTool({
      name: 'create_contact',
      arguments: { name: 'Ada', email: 'not-an-email', shoe_size: 9 },
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      code: 'invalid_arguments',
      details: { violations: [{ path: 'email' }, { path: 'shoe_size' }] },
    });
    expect(text(bad)).toEqual(bad.structuredContent);

    await client.close();
    expect(stderr()).toContain('serving crm (fixture small_startup) with seed 1 on stdio');
  });

  it('answers a bad fixture with a JSON-RPC error, to the SDK client too', async () => {
    const { client, transport, stderr } = stdioClient(['crm', '--fixture', 'nope', '--seed', '1']);
    await expect(client.connect(transport)).rejects.toThrow(
      /^MCP error -32602: world "crm" has no fixture "nope"; its fixtures are empty, small_startup, big_co$/,
    );
    expect(stderr()).toContain('has no fixture "nope"');
  });

  it("refuses --fixture other than the --task's at startup, naming both", async () => {
    const { client, transport, stderr } = stdioClient([
      'crm',
      '--task',
      'add_lead',
      '--fixture',
      'big_co',
      '--seed',
      '1',
    ]);
    const msg =
      'task "add_lead" starts from fixture "small_startup"; omit fixture or pass fixture: "small_startup" (got "big_co")';
    await expect(client.connect(transport)).rejects.toThrow(`MCP error -32602: ${msg}`);
    expect(stderr()).toContain(`seahaven mcp: ${msg}`);
  });

  it('keeps running after a bad fixture, answering each request with the error', async () => {
    const child = rawServer(['crm', '--fixture', 'nope']);
    child.send(initializeMessage(1, 'raw'));
    child.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const [init, list] = await child.replies(2);
    expect(init).toMatchObject({
      id: 1,
      error: {
        code: -32602,
        message: 'world "crm" has no fixture "nope"; its fixtures are empty, small_startup, big_co',
        data: { code: 'unknown_fixture' },
      },
    });
    expect(list).toMatchObject({
      id: 2,
      error: {
        code: -32602,
        message: (init as { error: { message: string } }).error.message,
        data: { code: 'unknown_fixture' },
      },
    });
    expect(await child.end()).toBe(0);
  });

  it('keeps stdout for the protocol and picks a seed when none is given', async () => {
    const child = rawServer([
      fileURLToPath(new URL('./test-fixtures/noisy-world.ts', import.meta.url)),
    ]);
    child.send(initializeMessage(1, 'raw'));
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    child.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'shout', arguments: {} },
    });
    await child.replies(2);
    expect(await child.end()).toBe(0);
    const stdout = child.stdout();
    const stderr = child.stderr();

    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: unknown });
    expect(lines.map((l) => [l.jsonrpc, l.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(lines[1].result).toMatchObject({ structuredContent: { heard: true } });
    for (const noise of [
      'loading the noisy world',
      'raw write while loading',
      'shouting from a tool',
      'info from a tool',
      'warning from a tool',
    ]) {
      expect(stderr).toContain(noise);
    }
    expect(stderr).toMatch(/serving noisy with seed \d+ on stdio; pass --seed \d+ to replay/);
  });
});
