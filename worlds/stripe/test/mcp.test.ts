import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHttpHandler } from 'seahaven/internal/transports/mcp/index';
import { startServer } from 'seahaven/internal/transports/serve/server';
import { stripe } from '../index.ts';
import { compiledBin } from 'seahaven/internal/core/test/compiled-copy';

// Stripe World introduces itself to MCP clients as Stripe's server does: under Stripe's server name, with
// instructions saying what the account is. Over stdio through the real `seahaven mcp stripe`, and over Streamable HTTP
// on a server as `seahaven serve stripe` builds it.

const root = fileURLToPath(new URL('../../../', import.meta.url));
// The command line, compiled for the test suite (core/test/compiled-copy.ts).
const bin = compiledBin();
const table = JSON.parse(readFileSync(new URL('../mcp-tools.json', import.meta.url), 'utf8')) as {
  tools: { name: string; annotations: Record<string, unknown> }[];
};

/** What the instructions must tell an agent, whatever their exact wording. */
function expectStripeInstructions(text: string | undefined): void {
  expect(text).toMatch(/Stripe account in test mode/);
  expect(text).toMatch(/Stripe's MCP server/);
  expect(text).toMatch(/smallest unit/);
  expect(text).toMatch(/cus_ customer/);
}

describe('Stripe World over MCP', () => {
  it("the world declares Stripe's server name and its own instructions", () => {
    expect(stripe.mcp.name).toBe('Stripe');
    expectStripeInstructions(stripe.mcp.instructions);
  });

  it('seahaven mcp stripe (stdio): server name, instructions and annotated tools', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...bin, 'mcp', 'stripe', '--fixture', 'empty', '--seed', '1'],
      cwd: root,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'stripe-stdio-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toEqual({ name: 'Stripe', version: stripe.version });
      expect(client.getInstructions()).toBe(stripe.mcp.instructions);
      const { tools } = await client.listTools();
      expect(tools.map((t) => ({ name: t.name, annotations: t.annotations }))).toEqual(
        table.tools.map((t) => ({ name: t.name, annotations: t.annotations })),
      );
      const created = await client.callTool({
        name: 'create_customer',
        arguments: { name: 'Jane', email: 'jane@example.com' },
      });
      expect(created.structuredContent).toMatchObject({
        object: 'customer',
        id: expect.stringMatching(/^cus_/),
      });
    } finally {
      await client.close();
    }
    expect(stderr).toContain('serving stripe (fixture empty) with seed 1 on stdio');
  }, 60_000);

  it("Streamable HTTP on the server: the same name, the instructions followed by the session's API key", async () => {
    const mcp = createMcpHttpHandler({ world: stripe });
    const served = await startServer({ worlds: [stripe], port: 0, mcpHttp: mcp });
    const client = new Client({ name: 'stripe-http-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp?fixture=empty&seed=2', served.url)),
      );
      expect(client.getServerVersion()).toEqual({ name: 'Stripe', version: stripe.version });
      const instructions = client.getInstructions() ?? '';
      expect(instructions.startsWith(stripe.mcp.instructions + '\n\n')).toBe(true);
      expect(instructions.slice(stripe.mcp.instructions!.length + 2)).toMatch(
        /^This session's key for the world's HTTP API \(base path \/v1 on this server\): \S+$/,
      );
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'cancel_subscription')?.annotations).toMatchObject({
        destructiveHint: true,
        readOnlyHint: false,
      });
    } finally {
      await client.close();
      await served.close();
      await mcp.close();
    }
  });
});
