/**
 * The `/ws` route: one connection = one session = one instance, opened when the socket opens and ended on `close`,
 * disconnect, idle timeout or shutdown. Frames go through the fair scheduler; replies are written in order.
 */
import { upgradeWebSocket } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { WebSocket } from 'ws';
import { FrameError, describeError, errorFrame, logInternal } from './errors.ts';
import type { Endpoint } from './endpoint.ts';
import type { FairScheduler, Reply } from './scheduler.ts';
import { CapacityError, type EndReason, type Session } from './sessions.ts';

const OPEN = 1;
const TEXT = { binary: false };

const CLOSE: Record<EndReason, [number, string]> = {
  close: [1000, 'session closed'],
  disconnect: [1000, ''],
  replaced: [1000, 'session replaced'],
  idle: [1000, 'session idle too long; reconnect to start a new one (raise --session-timeout to keep idle sessions longer)'],
  shutdown: [1001, 'server shutting down'],
};

/**
 * The WebSocket upgrade handler of one world.
 * @example
 * app.get('/ws', wsRoute(endpoint, scheduler, console.error));
 */
export function wsRoute(ep: Endpoint, scheduler: FairScheduler, logger: (line: string) => void): MiddlewareHandler {
  return upgradeWebSocket(
    () => {
      let session: Session | null = null;
      let socket: WebSocket | null = null;
      // Replies given as bytes are still text frames.
      const write = (reply: Reply): void => {
        if (socket!.readyState === OPEN) socket!.send(reply, TEXT);
      };
      // An asynchronous reply (a reset waiting on a hook) hands its promise back, so the session stays busy until it is sent.
      const send = (reply: Reply | null | Promise<string | null>): void | Promise<void> => {
        if (typeof reply === 'string' || reply instanceof Uint8Array) {
          scheduler.write(write, reply);
        } else if (reply === null) {
          ep.registry.end(session!, 'close');
        } else {
          return reply.then(send);
        }
      };
      return {
        onOpen(_event, ws) {
          socket = ws.raw as WebSocket;
          try {
            session = ep.openSession('ws');
          } catch (e) {
            if (e instanceof CapacityError) {
              socket.send(errorFrame('CAPACITY_REACHED', e.message, undefined, { active_sessions: e.activeSessions, max_sessions: e.maxSessions }));
              socket.close(1000, 'capacity reached');
            } else {
              const fe = e instanceof FrameError ? e : new FrameError('SESSION_ERROR', `could not open a session: ${logInternal(logger, `opening a session on ${ep.name}`, e)}`);
              socket.send(errorFrame(fe.code, fe.message, undefined, fe.extra));
              socket.close(fe.code === 'SESSION_ERROR' && ep.closing ? 1001 : 1011, fe.code === 'FACTORY_ERROR' ? 'factory error' : 'session error');
            }
            return;
          }
          const s = session;
          s.onFrame = (text) => send(ep.wsFrame(s, text));
          // A frame whose reply could not be built still gets one: the scheduler logged the failure under this reference.
          s.onFailure = (message) => void send(errorFrame('EXECUTION_ERROR', message));
          // Frames are read straight off the socket (Hono's onMessage would wrap each one in a MessageEvent). Hono
          // opens the session synchronously once the socket exists, so no frame can arrive before this listener.
          socket.on('message', (data: Buffer) => {
            try {
              if (ep.closing) {
                // Frames that arrive once shutdown has begun are answered, in order, but not run.
                scheduler.push(s, () => void send(errorFrame('SESSION_ERROR', 'the server is shutting down; reconnect to a running server')));
              } else {
                // Binary frames are read as UTF-8 text too.
                scheduler.push(s, data.toString('utf8'));
              }
            } catch (e) {
              logger(`[seahaven] WebSocket handler error on ${ep.name}: ${describeError(e)}`);
            }
          });
          s.onEnd = (reason) => {
            const [code, why] = CLOSE[reason];
            // Replies held for this turn go out before the close frame.
            scheduler.flush();
            if (socket!.readyState === OPEN) socket!.close(code, why);
          };
        },
        onClose() {
          if (session !== null) ep.registry.end(session, 'disconnect');
        },
        // Resets and aborted connections are ordinary for training clients; the close that follows ends the session.
        onError() {},
      };
    },
    { onError: (e) => logger(`[seahaven] WebSocket handler error on ${ep.name}: ${(e as Error)?.stack ?? String(e)}`) },
  );
}
