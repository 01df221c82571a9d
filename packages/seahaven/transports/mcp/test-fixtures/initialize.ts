/** The `initialize` request an MCP client sends first, for tests that drive the wire by hand. */
export const initializeMessage = (id: number | string = 1, client = 'test') => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'initialize' as const,
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: client, version: '1' },
  },
});
