/**
 * MCP over stdio: one instance per process, started when the client sends `initialize`. A reset that cannot start
 * (an unknown fixture or task) is answered with a JSON-RPC error and the process keeps serving, so the client shows
 * the message instead of a dead server.
 */
import { Writable, type Readable } from 'node:stream';
import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Instance } from '../../core/instance.ts';
import type { World } from '../../core/world.ts';
import { createWorldServer, openInstance, rpcErrorOf, type McpResetOptions } from './server.ts';

export interface McpStdioOptions {
  world: World;
  /** How the instance starts. Default: a blank instance, seed 0, fixed clock. */
  reset?: McpResetOptions;
  /** Default: `process.stdin`. */
  stdin?: Readable;
  /** Default: `process.stdout`. Pass the stream `guardStdout()` returns when other code may print. */
  stdout?: Writable;
  /** Where world bugs and refused resets are reported. Default: stderr. */
  log?: (line: string) => void;
}

/** A running stdio server. */
export interface McpStdioServer {
  /** The instance, once `initialize` started it. */
  instance(): Instance | null;
  /** Stop serving and destroy the instance. */
  close(): Promise<void>;
}

/**
 * Serve one instance of a world over stdio until stdin ends.
 * @example
 * const stdout = guardStdout();
 * await serveMcpStdio({ world: crm, reset: { fixture: 'small_startup', seed: 7 }, stdout });
 */
export async function serveMcpStdio(options: McpStdioOptions): Promise<McpStdioServer> {
  const { world } = options;
  const reset = options.reset ?? {};
  const log = options.log ?? ((line: string) => void process.stderr.write(line + '\n'));
  let inst: Instance | null = null;
  const instance = (): Instance => (inst ??= openInstance(world, reset, { logger: log }));

  const server = createWorldServer(world, instance, {
    task: reset.task,
    submitTool: reset.submit_tool,
  });
  const stdio = new StdioServerTransport(options.stdin, options.stdout);
  // The instance is started on `initialize`, before the SDK answers it, so a bad reset fails the handshake itself.
  await server.connect(
    interceptRequests(stdio, (request) => {
      if (request.method !== 'initialize') return undefined;
      try {
        instance();
        return undefined;
      } catch (e) {
        const error = rpcErrorOf(e);
        log(`seahaven mcp: ${error.message}`);
        return error;
      }
    }),
  );

  return {
    instance: () => inst,
    async close() {
      await server.close();
      inst?.destroy();
      inst = null;
    },
  };
}

/** A transport that answers a request itself with the error `refuse` returns, instead of passing it on. */
function interceptRequests(
  inner: Transport,
  refuse: (request: JSONRPCRequest) => JSONRPCErrorResponse['error'] | undefined,
): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onmessage = (message, extra) => {
    const error = isJSONRPCRequest(message) ? refuse(message) : undefined;
    if (error === undefined) outer.onmessage?.(message, extra);
    else void inner.send({ jsonrpc: '2.0', id: (message as JSONRPCRequest).id, error });
  };
  return outer;
}

/**
 * Keep stdout for the protocol: `console.log`/`info`/`warn`/`debug` and any other `process.stdout.write` go to stderr
 * from now on. Returns the only stream that still reaches the real stdout.
 * @example
 * const stdout = guardStdout();
 * console.log('hello'); // lands on stderr
 */
export function guardStdout(): Writable {
  const out = process.stdout;
  const write = out.write.bind(out) as (
    chunk: unknown,
    encoding: BufferEncoding,
    cb: (error?: Error | null) => void,
  ) => boolean;
  const toStderr = (...args: unknown[]) => void process.stderr.write(format(...args) + '\n');
  console.log = toStderr;
  console.info = toStderr;
  console.warn = toStderr;
  console.debug = toStderr;
  out.write = process.stderr.write.bind(process.stderr) as typeof out.write;
  return new Writable({
    write(chunk, encoding, cb) {
      write(chunk, encoding, cb);
    },
  });
}
