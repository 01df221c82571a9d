import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DefinitionError, defineTool, defineWorld, z, type ToolSpec } from '../index.ts';
import { createMcpHttpHandler } from '../../transports/mcp/http.ts';
import { createWorldServer, openInstance } from '../../transports/mcp/server.ts';
import type { World } from '../world.ts';

// MCP tool annotations: declared on defineTool, checked there, carried in the tool listings (mounted tools under their
// prefixed names) and sent in MCP's tools/list, in process and over Streamable HTTP. Tools without them send none.

const listNotes = defineTool({
  name: 'list_notes',
  description: 'List every note, oldest first.',
  input: z.object({}),
  annotations: { title: 'List notes', readOnlyHint: true, openWorldHint: false },
  run: (ctx) => ctx.db.all('SELECT * FROM notes ORDER BY id'),
});
const deleteNote = defineTool({
  name: 'delete_note',
  description: 'Delete a note by its id.',
  input: z.object({ id: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  run: (ctx, { id }) => ctx.db.run('DELETE FROM notes WHERE id = ?', id).changes,
});
const addNote = defineTool({
  name: 'add_note',
  description: 'Save a note and return its id.',
  input: z.object({ text: z.string().min(1) }),
  run: (ctx, { text }) => ctx.db.run('INSERT INTO notes (text) VALUES (?)', text).lastInsertRowid,
});
const SCHEMA = 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;';
const notes = defineWorld({
  name: 'notes',
  version: '1.0.0',
  schema: SCHEMA,
  tools: [listNotes, deleteNote, addNote],
});
const desk = defineWorld({
  name: 'desk',
  version: '1.0.0',
  schema: 'CREATE TABLE desks (id INTEGER PRIMARY KEY) STRICT;',
  tools: [
    defineTool({
      name: 'tidy',
      description: 'Tidy the desk.',
      input: z.object({}),
      annotations: { title: 'Tidy up', idempotentHint: true },
      run: () => null,
    }),
  ],
  worlds: { notes: { world: notes, prefix: 'notes_', block: ['add_note'] } },
});

const spec = (annotations: unknown): ToolSpec => ({
  name: 'find_notes',
  description: 'Find notes.',
  input: z.object({}),
  annotations: annotations as ToolSpec['annotations'],
  run: () => null,
});

describe('defineTool annotations', () => {
  it('keeps the annotations given, and a tool without them has none', () => {
    expect(listNotes.annotations).toEqual({
      title: 'List notes',
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(Object.isFrozen(listNotes.annotations)).toBe(true);
    expect('annotations' in addNote).toBe(false);
    // An explicitly undefined hint is left out rather than sent as null.
    expect(
      defineTool(spec({ title: ' Find notes ', readOnlyHint: undefined })).annotations,
    ).toEqual({ title: 'Find notes' });
  });

  it.each([
    [
      [],
      /defineTool\("find_notes"\): annotations must be an object, like annotations: \{ title: 'Find contacts', readOnlyHint: true \}; got an array/,
    ],
    ['read only', /defineTool\("find_notes"\): annotations must be an object/],
    [null, /annotations must be an object.*got null/],
    [
      { readonly: true },
      /defineTool\("find_notes"\): annotations has unknown key\(s\) "readonly"; MCP's tool annotations are title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint/,
    ],
    [
      { readOnlyHint: 'yes' },
      /defineTool\("find_notes"\): annotations.readOnlyHint must be true or false; got "yes"/,
    ],
    [{ openWorldHint: 1 }, /annotations.openWorldHint must be true or false; got 1/],
    [
      { title: '' },
      /annotations.title must be a non-empty string, like title: 'Find contacts'; got ""/,
    ],
    [{ title: 7 }, /annotations.title must be a non-empty string.*got 7/],
    [
      { readOnlyHint: true, destructiveHint: true },
      /both read-only and destructive.*drop one of readOnlyHint and destructiveHint/,
    ],
  ])('refuses %j with a message naming the tool and the fix', (annotations, message) => {
    expect(() => defineTool(spec(annotations))).toThrow(DefinitionError);
    expect(() => defineTool(spec(annotations))).toThrow(message);
  });
});

describe('annotations in tool listings', () => {
  it("inst.tools() carries them; a mounted world's tools keep theirs under the prefixed name", () => {
    const inst = desk.instance();
    expect(inst.tools().map((t) => [t.name, t.annotations])).toEqual([
      ['tidy', { title: 'Tidy up', idempotentHint: true }],
      ['notes_list_notes', { title: 'List notes', readOnlyHint: true, openWorldHint: false }],
      ['notes_delete_note', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
    ]);
    const plain = notes
      .instance()
      .tools()
      .find((t) => t.name === 'add_note')!;
    expect('annotations' in plain).toBe(false);
    inst.destroy();
  });
});

/** The `tools` of a raw `tools/list` reply, as JSON on the wire. */
async function rawToolsList(world: World): Promise<Record<string, unknown>[]> {
  const inst = openInstance(world, {});
  const server = createWorldServer(world, () => inst);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'annotations-test', version: '1.0.0' });
  await client.connect(clientSide);
  const replies: unknown[] = [];
  const onmessage = clientSide.onmessage!;
  clientSide.onmessage = (m, extra) => (
    replies.push(JSON.parse(JSON.stringify(m))),
    onmessage(m, extra)
  );
  await client.listTools();
  await client.close();
  inst.destroy();
  return (replies.at(-1) as { result: { tools: Record<string, unknown>[] } }).result.tools;
}

describe('annotations in MCP tools/list', () => {
  it('are sent as declared; a tool without them sends no annotations key at all', async () => {
    const tools = await rawToolsList(notes);
    expect(tools.map((t) => t.name)).toEqual(['list_notes', 'delete_note', 'add_note']);
    expect(tools[0].annotations).toEqual({
      title: 'List notes',
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(tools[1].annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(Object.keys(tools[2]).sort()).toEqual(['description', 'inputSchema', 'name']);
  });

  it('mounted tools keep them under the prefixed names', async () => {
    const tools = await rawToolsList(desk);
    expect(tools.map((t) => [t.name, t.annotations ?? null])).toEqual([
      ['tidy', { title: 'Tidy up', idempotentHint: true }],
      ['notes_list_notes', { title: 'List notes', readOnlyHint: true, openWorldHint: false }],
      ['notes_delete_note', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
    ]);
  });

  it('over Streamable HTTP too', async () => {
    const mcp = createMcpHttpHandler({ world: desk });
    const client = new Client({ name: 'annotations-http-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp?seed=1'), {
          fetch: (url, init) => mcp(new Request(url, init)),
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t.annotations])).toEqual(
        desk.toolListings().map((t) => [t.name, t.annotations]),
      );
      expect(tools.find((t) => t.name === 'notes_delete_note')?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});
