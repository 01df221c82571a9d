/**
 * The `/ws` route: one connection = one session = one instance, opened when the socket opens and ended on `close`,
 * disconnect, idle timeout or shutdown. A frame goes into its session's queue in the fair scheduler and is answered
 * by the endpoint in the session's turn, which writes the reply to the session's socket; nothing comes back here.
 */
import { upgradeWebSocket } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import type { WebSocket } from 'ws';
import type { ClusterRouter } from './cluster.ts';
import { handedOver } from './cluster-protocol.ts';
import {
  FrameError,
  describeError,
  errorFrame,
  frameErrorText,
  logInternal,
  resourceError,
  validationError,
} from './errors.ts';
import type { Endpoint } from './endpoint.ts';
import type { FairScheduler } from './scheduler.ts';
import { CapacityError, type EndReason, type Session } from './sessions.ts';
import { FORK_HEADER, ForkRelay, forkHolder } from './ws-relay.ts';

const OPEN = 1;
const SHUTTING_DOWN = errorFrame(
  'SESSION_ERROR',
  'the server is shutting down; reconnect to a running server',
);

/** The answer to each frame a session ended without running, by why it ended (idle sessions have none queued). */
const NOT_RUN: Record<EndReason, string> = {
  close: errorFrame(
    'SESSION_ERROR',
    'the session was closed before this request ran; reconnect to start a new one',
  ),
  disconnect: '',
  replaced: errorFrame('SESSION_ERROR', 'the session was replaced before this request ran'),
  idle: errorFrame(
    'SESSION_ERROR',
    'the session ended idle before this request ran; reconnect to start a new one',
  ),
  shutdown: errorFrame(
    'SESSION_ERROR',
    'the server is shutting down and could not finish this request in its grace period; reconnect to a running server and retry',
  ),
};

const CLOSE: Record<EndReason, [number, string]> = {
  close: [1000, 'session closed'],
  disconnect: [1000, ''],
  replaced: [1000, 'session replaced'],
  idle: [
    1000,
    'session idle too long; reconnect to start a new one (raise --session-timeout to keep idle sessions longer)',
  ],
  shutdown: [1001, 'server shutting down'],
};

/** The headers a relayed connection carries on to the worker holding a fork, so it passes the same checks there. */
function relayHeaders(c: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['host', 'origin', 'authorization']) {
    const value = c.req.header(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * The WebSocket upgrade handler of one world. In a worker of a `--workers` server (`cluster`), a reset that adopts a
 * fork another worker holds hands the connection over to that worker (ws-relay.ts).
 * @example
 * app.get('/ws', wsRoute(endpoint, scheduler, console.error));
 */
export function wsRoute(
  ep: Endpoint,
  scheduler: FairScheduler,
  logger: (line: string) => void,
  cluster?: ClusterRouter,
): MiddlewareHandler {
  return upgradeWebSocket(
    (c) => {
      let session: Session | null = null;
      // A connection another worker relays to adopt a fork held here takes the fork's place under --max-sessions.
      const adopting =
        cluster !== undefined && handedOver(c) ? c.req.header(FORK_HEADER) : undefined;
      const relayable = cluster !== undefined && !handedOver(c);
      const headers = relayable ? relayHeaders(c) : {};
      let relay: ForkRelay | null = null;
      return {
        onOpen(_event, ws) {
          const socket = ws.raw as WebSocket;
          try {
            session = ep.openSession(
              'ws',
              undefined,
              adopting !== undefined && ep.registry.holdsFork(adopting) ? 1 : 0,
            );
          } catch (e) {
            if (e instanceof CapacityError) {
              socket.send(
                errorFrame('CAPACITY_REACHED', e.message, undefined, {
                  active_sessions: e.activeSessions,
                  max_sessions: e.maxSessions,
                }),
              );
              socket.close(1000, 'capacity reached');
            } else {
              const fe =
                e instanceof FrameError
                  ? e
                  : (resourceError(e) ??
                    new FrameError(
                      'SESSION_ERROR',
                      `could not open a session: ${logInternal(logger, `opening a session on ${ep.name}`, e)}`,
                    ));
              socket.send(errorFrame(fe.code, fe.message, undefined, fe.extra));
              // 1013: try again later, as for a server out of memory for now.
              if (fe.code === 'RESOURCE_EXHAUSTED') socket.close(1013, 'memory budget reached');
              else
                socket.close(
                  fe.code === 'SESSION_ERROR' && ep.closing ? 1001 : 1011,
                  fe.code === 'FACTORY_ERROR' ? 'factory error' : 'session error',
                );
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
              if (relay !== null) return relay.push(data);
              const holder =
                relayable && !ep.closing ? forkHolder(data.toString('utf8'), cluster!) : undefined;
              if (holder !== undefined) {
                const r = (relay = new ForkRelay(socket, data));
                // In the session's turn, after the frames before it are answered (the session waits meanwhile). Once the
                // holder takes the connection, the session ends here (its place goes back) without closing the socket,
                // and the frames go on to the holder from now on; if it does not, the reset is refused here, and the
                // frames after it run here, in order, as if nothing had happened.
                scheduler.push(s, () => {
                  scheduler.outbox.flush();
                  return r.start(cluster!, holder, c.req.path, headers).then((taken) => {
                    if (taken === true) {
                      s.socket = null;
                      s.onEnd = null;
                      ep.registry.end(s, 'close');
                      return;
                    }
                    relay = null;
                    const [, ...after] = r.takeBack();
                    scheduler.outbox.send(
                      socket,
                      frameErrorText(
                        validationError('invalid reset data', [
                          {
                            type: 'value_error',
                            loc: ['data', 'fork_token'],
                            msg: taken,
                            input: holder.token,
                          },
                        ]),
                      ),
                    );
                    for (const f of after) scheduler.push(s, f.toString('utf8'));
                  });
                });
                return;
              }
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
            // Replies held for this turn go out before the close frame, and every frame not run is answered too.
            scheduler.outbox.flush();
            if (socket.readyState !== OPEN) return;
            for (let i = 0; i < s.unanswered; i++) socket.send(NOT_RUN[reason]);
            socket.close(code, why);
          };
        },
        onClose() {
          if (session !== null) ep.registry.end(session, 'disconnect');
        },
        // Resets and aborted connections are ordinary for training clients; the close that follows ends the session.
        onError() {},
      };
    },
    {
      onError: (e) =>
        logger(
          `[seahaven] WebSocket handler error on ${ep.name}: ${(e as Error)?.stack ?? String(e)}`,
        ),
    },
  );
}
