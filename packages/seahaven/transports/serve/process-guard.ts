/**
 * The last line of defence of `seahaven serve`: an error that escapes every handler (thrown from a timer or a socket's
 * callback, or a promise nobody awaited) would end the process, and with it every session of every client. The server's
 * own timers and callbacks catch and log their errors (sessions.ts, scheduler.ts, ws.ts); this catches what a bug lets
 * through, logs it with its stack, and lets the server go on.
 */

/** Log and contain uncaught exceptions and unhandled rejections for the life of the process; returns what undoes it. */
export function guardProcess(logger: (line: string) => void): () => void {
  const report = (kind: string) => (e: unknown) => {
    try {
      logger(
        `[seahaven] server error: ${kind} (contained; the server goes on): ${(e as Error)?.stack ?? String(e)}`,
      );
    } catch {
      // Nothing is left to tell.
    }
  };
  const uncaught = report('uncaught exception');
  const unhandled = report('unhandled promise rejection');
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', unhandled);
  return () => {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', unhandled);
  };
}
