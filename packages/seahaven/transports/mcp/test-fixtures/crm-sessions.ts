/**
 * What an MCP client over Streamable HTTP should see of the crm world, whoever serves it: the handler mounted in an app
 * (transports/mcp/http.test.ts) or the `seahaven serve` command (transports/serve/mcp-http.test.ts). Each check takes
 * connected official SDK clients.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

type Contacts = { contacts: { email: string }[] };

/** A tool call answers its result (as structured content and as its JSON text), and bad arguments come back as `isError` with the violations. */
export async function expectCreateContact(client: Client): Promise<void> {
  const created = await client.callTool({
    name: 'create_contact',
    arguments: { name: 'Grace Quillfeather', email: 'grace@quill.example' },
  });
  expect(created.isError).toBeFalsy();
  expect(created.structuredContent).toMatchObject({
    name: 'Grace Quillfeather',
    email: 'grace@quill.example',
    stage: 'lead',
  });
  expect(JSON.parse((created.content as { text: string }[])[0].text)).toEqual(
    created.structuredContent,
  );
  const bad = await client.callTool({ name: 'create_contact', arguments: { email: 42 } });
  expect(bad.isError).toBe(true);
  expect(bad.structuredContent).toMatchObject({
    code: 'invalid_arguments',
    details: {
      violations: expect.arrayContaining([{ path: 'name', message: expect.any(String) }]),
    },
  });
}

/** A contact made in session `a` exists there and not in `b`, which can take the same email. */
export async function expectSessionsApart(a: Client, b: Client): Promise<void> {
  await a.callTool({
    name: 'create_contact',
    arguments: { name: 'Only In A', email: 'only@a.example' },
  });
  const search = (c: Client) =>
    c.callTool({ name: 'search_contacts', arguments: { query: 'only@a.example' } });
  expect(((await search(a)).structuredContent as Contacts).contacts).toHaveLength(1);
  expect(((await search(b)).structuredContent as Contacts).contacts).toHaveLength(0);
  const twice = await a.callTool({
    name: 'create_contact',
    arguments: { name: 'Again', email: 'only@a.example' },
  });
  expect(twice.isError).toBe(true);
  const inB = await b.callTool({
    name: 'create_contact',
    arguments: { name: 'Only In B', email: 'only@a.example' },
  });
  expect(inB.isError).toBeFalsy();
}
