/**
 * The `/ws` route: one connection = one session = one instance, opened when the socket opens and ended on `close`,
 * disconnect, idle timeout or shutdown. A frame goes into its session's queue in the fair scheduler and is answered
 * by the endpoint in the session's turn, which writes the reply to the session's socket; nothing comes back here.
 */
import { upgradeWebSocket } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { WebSocket } from 'ws';
import { FrameError, describeError, errorFrame, logInternal, resourceError } from './errors.ts';
import type { Endpoint } from './endpoint.ts';
import type { FairScheduler } from './scheduler.ts';
import { CapacityError, type EndReason, type Session } from './sessions.ts';

const OPEN = 1;
const SHUTTING_DOWN = errorFrame('SESSION_ERROR', 'the server is shutting down; reconnect to a running server');

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
      return {
        onOpen(_event, ws) {
          const socket = ws.raw as WebSocket;
          try {
            session = ep.openSession('ws');
          } catch (e) {
            if (e instanceof CapacityError) {
              socket.send(errorFrame('CAPACITY_REACHED', e.message, undefined, { active_sessions: e.activeSessions, max_sessions: e.maxSessions }));
              socket.close(1000, 'capacity reached');
            } else {
              const fe = e instanceof FrameError ? e : (resourceError(e) ?? new FrameError('SESSION_ERROR', `could not open a session: ${logInternal(logger, `opening a session on ${ep.name}`, e)}`));
              socket.send(errorFrame(fe.code, fe.message, undefined, fe.extra));
              // 1013: try again later, as for a server out of memory for now.
              if (fe.code === 'RESOURCE_EXHAUSTED') socket.close(1013, 'memory budget reached');
              else socket.close(fe.code === 'SESSION_ERROR' && ep.closing ? 1001 : 1011, fe.code === 'FACTORY_ERROR' ? 'factory error' : 'session error');
            }
            return;
          }
          const s = session;
          // The endpoint writes the replies to this session's frames here, through the scheduler's outbox.
          s.socket = socket;
          // Frames are read straight off the socket (Hono's onMessage would wrap each one in a MessageEvent). Hono
          // opens the session synchronously once the socket exists, so no frame can arrive before this listener.
          socket.on('message', (data: Buffer) => {
            try {
              if (ep.closing) {
                // Frames that arrive once shutdown has begun are answered, in order, but not run.
                scheduler.push(s, () => scheduler.outbox.send(socket, SHUTTING_DOWN));
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
            scheduler.outbox.flush();
            if (socket.readyState === OPEN) socket.close(code, why);
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
