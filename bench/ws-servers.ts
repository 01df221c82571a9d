/**
 * The servers the WebSocket benchmark measures, each in a process of its own so that neither shares a heap or an
 * event loop with the other, with the load generator or with the benchmark itself.
 *
 * `seahaven`: `startServer` with crm and a `ping` world whose tool does nothing; answers `{port}`.
 * `floor`: a bare `ws` server. It waits for `{cmd: 'canned', byPath}` (recorded replies by URL path), then answers
 * `{port}`. Each connection replays its path's replies: it only looks at one byte of a frame to tell a reset
 * (`{"type":"reset"…`) from a step, and sends the recorded reply for that position in the script.
 *
 * Both answer `{cmd: 'exit'}` by exiting.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { defineTool, defineWorld, z } from 'seahaven';
import { startServer } from 'seahaven/serve';
import { crm } from '@seahaven/crm';

/** A world whose one tool does nothing, so a step costs only what the server itself does. */
export const pingWorld = defineWorld({
  name: 'ping',
  version: '1.0.0',
  schema: 'CREATE TABLE pings (id INTEGER PRIMARY KEY) STRICT;',
  tools: [
    defineTool({
      name: 'ping',
      description: 'Answer {"ok": true}.',
      input: z.object({}),
      run: () => ({ ok: true }),
    }),
  ],
});

async function seahaven(): Promise<number> {
  const server = await startServer({
    worlds: [crm, pingWorld],
    port: 0,
    idleTimeoutMs: 0,
    maxSessions: 10_000,
    logger: () => undefined,
  });
  return server.port;
}

async function floor(byPath: Record<string, string[]>): Promise<number> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    const canned = byPath[req.url ?? ''];
    if (canned === undefined) return ws.close(1008, `no canned replies for ${req.url}`);
    const calls = canned.length - 1;
    let i = 0;
    ws.on('message', (data: Buffer) => {
      if (data[9] === 0x72) {
        i = 0;
        ws.send(canned[0]);
      } else ws.send(canned[1 + (i++ % calls)]);
    });
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  return (wss.address() as AddressInfo).port;
}

const mode = process.argv[2];
process.on('message', async (m: { cmd: string; byPath?: Record<string, string[]> }) => {
  if (m.cmd === 'canned') process.send!({ port: await floor(m.byPath!) });
  else if (m.cmd === 'exit') process.exit(0);
});
if (mode === 'seahaven') process.send!({ port: await seahaven() });
else if (mode === 'floor') process.send!({ ready: true });
else throw new Error(`ws-servers: unknown mode ${mode}; use seahaven or floor`);
