import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTask, defineTool, defineWorld, ToolError, z } from '../../core/index.ts';
import { createWorldServer, openInstance, resetFromObject, resetFromQuery } from './server.ts';

const addNote = defineTool({
  name: 'add_note',
  description: 'Add a note.',
  input: z.object({ text: z.string().min(1) }),
  run: (ctx, { text }) => {
    if (text === 'forbidden') throw new ToolError('refused', 'That note is not allowed.', { text });
    const id = ctx.ids.seq('note');
    ctx.db.run('INSERT INTO notes (id, text) VALUES (?, ?)', id, text);
    return ctx.db.one('SELECT * FROM notes WHERE id = ?', id);
  },
});
const countNotes = defineTool({
  name: 'count_notes',
  description: 'Count the notes.',
  input: z.object({}),
  run: (ctx) => ctx.db.one<{ n: number }>('SELECT count(*) AS n FROM notes')!.n,
});
const notes = defineWorld({
  name: 'notes',
  version: '2.3.4',
  schema: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;',
  tools: [addNote, countNotes],
  mcp: { name: 'Acme Notes', instructions: 'You are connected to Acme Notes.' },
  fixtures: {
    one_note: {
      description: 'One note.',
      now: '2026-03-01T00:00:00.000Z',
      build: (ctx) =>
        void ctx.db.run("INSERT INTO notes (id, text) VALUES (?, 'hello')", ctx.ids.seq('note')),
    },
  },
  tasks: [
    defineTask({
      id: 'second_note',
      fixture: 'one_note',
      prompt: 'Add a second note saying "bye".',
      grade: () => ({ reward: 0, passed: false, criteria: [] }),
    }),
  ],
});

async function connect(reset: Parameters<typeof openInstance>[1] = {}) {
  const inst = openInstance(notes, reset);
  const server = createWorldServer(notes, () => inst, { task: reset.task });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, inst, close: () => client.close() };
}

describe('createWorldServer', () => {
  it('presents the world under its MCP name, version and instructions, with the task prompt', async () => {
    const { client, inst, close } = await connect({ task: 'second_note' });
    expect(client.getServerVersion()).toMatchObject({ name: 'Acme Notes', version: '2.3.4' });
    expect(client.getInstructions()).toBe(
      'You are connected to Acme Notes.\n\nYour task: Add a second note saying "bye".',
    );
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    // The task's fixture was used, since none was named.
    expect(inst.fixture).toBe('one_note');
    await close();
  });

  it('lists the tools with their JSON Schemas', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add_note', 'count_notes']);
    expect(tools[0]).toMatchObject({
      description: 'Add a note.',
      inputSchema: { type: 'object', required: ['text'], additionalProperties: false },
    });
    await close();
  });

  it('calls tools: object results are structured, others text only, failures isError', async () => {
    const { client, inst, close } = await connect({ fixture: 'one_note' });
    const added = await client.callTool({ name: 'add_note', arguments: { text: 'bye' } });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toEqual({ id: 2, text: 'bye' });
    expect(added.content).toEqual([{ type: 'text', text: '{"id":2,"text":"bye"}' }]);

    const counted = await client.callTool({ name: 'count_notes' });
    expect(counted).toEqual({ content: [{ type: 'text', text: '2' }] });

    const refused = await client.callTool({ name: 'add_note', arguments: { text: 'forbidden' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({
      code: 'refused',
      message: 'That note is not allowed.',
      details: { text: 'forbidden' },
    });

    const bad = await client.callTool({ name: 'add_note', arguments: { text: '', extra: 1 } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse((bad.content as { text: string }[])[0].text)).toMatchObject({
      code: 'invalid_arguments',
      details: { violations: [{ path: 'text' }, { path: 'extra' }] },
    });

    const unknown = await client.callTool({ name: 'drop_table', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ code: 'unknown_tool' });
    // Every call reached the instance: the three that passed validation are numbered, the other two only logged.
    expect(inst.callCount).toBe(3);
    expect(inst.callLog()).toHaveLength(5);
    await close();
  });

  it('offers no resources or prompts', async () => {
    const { client, close } = await connect();
    await expect(client.listResources()).rejects.toThrow(/Method not found/);
    await expect(client.listPrompts()).rejects.toThrow(/Method not found/);
    await close();
  });
});

describe('reset options', () => {
  it('starts a task from its fixture, accepts that fixture named, and refuses another naming both', () => {
    const inst = openInstance(crm, { task: 'add_lead', seed: 1 });
    expect(inst.fixture).toBe('small_startup');
    crm.task('add_lead')!.gold!(inst);
    expect(inst.submit()).toMatchObject({ reward: 1, passed: true });
    inst.destroy();
    const named = openInstance(crm, { task: 'add_lead', fixture: 'small_startup' });
    expect(named.fixture).toBe('small_startup');
    named.destroy();
    let error: unknown;
    try {
      openInstance(crm, { task: 'add_lead', fixture: 'big_co' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32602,
      message:
        'MCP error -32602: task "add_lead" starts from fixture "small_startup"; omit fixture or pass fixture: "small_startup" (got "big_co")',
      data: { code: 'fixture_mismatch' },
    });
  });

  it('maps a bad fixture, task or now to InvalidParams naming the choices', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as McpError;
      }
      throw new Error('expected a throw');
    };
    expect(err(() => openInstance(notes, { fixture: 'nope' }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('its fixtures are one_note'),
      data: { code: 'unknown_fixture' },
    });
    expect(err(() => openInstance(notes, { task: 'nope' }))).toMatchObject({
      code: -32602,
      data: { code: 'unknown_task' },
    });
    expect(err(() => openInstance(notes, { now: 'yesterday' }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('ISO-8601'),
    });
  });

  it('reads the query string and refuses malformed values', () => {
    expect(
      resetFromQuery(new URLSearchParams('fixture=one_note&seed=7&clock=tick&other=x')),
    ).toEqual({ fixture: 'one_note', seed: 7, clock: 'tick' });
    expect(() => resetFromQuery(new URLSearchParams('seed=-1'))).toThrow(
      /seed in the query string must be a whole number/,
    );
    expect(() => resetFromQuery(new URLSearchParams('clock=fast'))).toThrow(
      /clock must be "fixed" or "tick"/,
    );
  });

  it('reads an object and refuses unknown keys', () => {
    expect(resetFromObject({ task: 'second_note', seed: 0, fixture: null }, 'here')).toEqual({
      task: 'second_note',
      seed: 0,
    });
    expect(() => resetFromObject({ fixtur: 'one_note' }, 'here')).toThrow(
      /here has unknown key\(s\) "fixtur"; allowed: fixture, seed/,
    );
    expect(() => resetFromObject({ seed: 1.5 }, 'here')).toThrow(
      /seed must be a whole number >= 0, got 1.5 in here/,
    );
    expect(() => resetFromObject('small', 'here')).toThrow(/here must be an object/);
  });
});
