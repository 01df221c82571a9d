/** `seahaven serve [world…]`: serve worlds over OpenEnv (WebSocket, HTTP and JSON-RPC) until SIGINT or SIGTERM. */
import v8 from 'node:v8';
import { Option, type Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld } from '../load-world.ts';
import type { RunningServer } from '../../../transports/serve/server.ts';
import { banner } from './serve-banner.ts';
import { collect, defaultFixtures, seconds, wholeNumber, type ServeFlags } from './serve-flags.ts';
import { mcpStreamableHttp, openCurricula } from './serve-services.ts';

/**
 * How far V8 lets the heap grow past what a full collection kept, in percent. Left to itself, V8 raises its factor
 * (up to 4× on a machine with this much memory) when collections look slow next to the program, which is what a
 * loaded machine makes them look: a 10-minute soak's RSS spanned 75 to 86 MiB bands with the live heap flat. At 50% it
 * held a 35 MiB band, with no less throughput, beside such a run (docs/reliability.md, "Soak").
 */
const DEFAULT_HEAP_GROWTH = 50;

/** Set V8's heap growing factor for this process (read at each full collection), unless node was given one. */
export function boundHeapGrowth(percent: number): void {
  if (process.execArgv.some((a) => /^--heap[-_]growing[-_]percent/.test(a))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'serve worlds over OpenEnv: a WebSocket session per client on /ws, plus /reset, /step, /state, /mcp and /health',
    )
    .argument('[worlds...]', 'example world names or module paths (default: ./world.ts, else crm)')
    .option(
      '--host <host>',
      'interface to bind; 0.0.0.0 exposes the server to the network (then set --token, or --allow-host the names clients use)',
      '127.0.0.1',
    )
    .option('--port <port>', 'port (0 picks a free one)', '8000')
    .option('--max-sessions <n>', 'most sessions open at once (default 4096)')
    .option('--session-timeout <seconds>', 'end sessions idle this long; 0 never (default 900)')
    .option(
      '--hibernate-after <seconds>',
      'close the SQLite connection of sessions idle this long, keeping their state; 0 never (default 30)',
    )
    .option(
      '--fork-ttl-ms <n>',
      'hold a forked episode (the fork step) this many milliseconds for a reset to adopt with its token (default 60000)',
    )
    .option(
      '--token <token>',
      'require "Authorization: Bearer <token>" on every request (default: $SEAHAVEN_TOKEN)',
    )
    .option(
      '--grader-token <secret>',
      'grade and submit answer agents the agent view (criterion ids, labels, scores, weights); a trainer that presents this secret (reset key grader_token, or header X-Seahaven-Grader-Token on /reset and /step) gets whole grades, names and reasons included (default: $SEAHAVEN_GRADER_TOKEN)',
    )
    .option(
      '--allow-host <host>',
      'without a token, also answer requests for this Host name ("name" any port, "name:port", "*" any); repeatable. Default: localhost, 127.0.0.0/8, [::1]',
      collect,
      [] as string[],
    )
    .option(
      '--allow-origin <origin>',
      'without a token, also answer browser requests from this origin (like https://studio.example.com, or "*"); repeatable. Default: only the server\'s own pages',
      collect,
      [] as string[],
    )
    .option(
      '--fixture <[world=]id>',
      'default fixture for resets that name none (repeatable)',
      collect,
      [] as string[],
    )
    .option('--max-frame-bytes <n>', 'longest WebSocket frame accepted (default 1048576)')
    .option('--max-body-bytes <n>', 'longest HTTP body accepted (default 1048576)')
    .option(
      '--body-timeout <seconds>',
      'cut a request body that has not fully arrived this long after it is read with 408 (default 10)',
    )
    .option(
      '--slow-call-ms <n>',
      'log each tool call that takes at least this many milliseconds, with its world, tool and duration (default 1000)',
    )
    .option(
      '--max-call-log-mb <n>',
      "most MiB of call results each session's call log keeps; older results are dropped, their arguments kept (default 8)",
    )
    .option(
      '--max-memory <MiB>',
      "the server's memory budget (with --workers N, 1/N for each worker): new sessions, resets and forks that would not fit are refused with RESOURCE_EXHAUSTED (default: 90% of the cgroup's memory limit, else 75% of the machine's memory)",
    )
    .option(
      '--max-episode-db-mb <n>',
      "most MiB each episode's database may grow beyond its fixture's image; a call past it fails with resource_exhausted and ends that episode only (default 256)",
    )
    .option(
      '--runs-db <path|url>',
      'where curriculum runs are kept, so they survive a restart and servers can share them: a SQLite file (processes on one machine may share it), or postgres://user:password@host:5432/dbname for servers on several machines (default .data/curricula.sqlite)',
    )
    .addOption(new Option('--curricula-db <path>', 'the older name of --runs-db').hideHelp())
    .option(
      '--heap-growth <percent>',
      'how far past what a full collection kept V8 lets the JavaScript heap grow before the next one, in percent; 0 leaves it to V8, whose factor rises to 300% under load (default 50)',
    )
    .option('--no-console', 'do not serve the web console on /console/')
    .option(
      '--workers <n|auto>',
      'serve with this many worker processes behind the one port (auto: one per core); WebSocket sessions stay on their worker, other requests are handed over to the worker holding their session (default 1: one process)',
    )
    .action(async (refs: string[], flags: ServeFlags) => {
      const port = wholeNumber('--port', flags.port, 0)!;
      if (port > 65535) throw new CliError(`--port must be at most 65535; got ${port}`, 2);
      const { parseWorkers } = await import('../../../transports/serve/cluster-protocol.ts');
      let workers: number;
      try {
        workers = parseWorkers(flags.workers);
      } catch (e) {
        throw new CliError((e as Error).message, 2);
      }
      const cluster = (await import('node:cluster')).default;
      if (workers > 1 && cluster.isPrimary) {
        // The primary serves nothing itself: each worker runs this same command line and serves the port.
        // The primary holds --max-sessions and lends the workers places under it (place-ledger.ts).
        const { DEFAULT_MAX_SESSIONS } = await import('../../../transports/serve/sessions.ts');
        const { runPrimary } = await import('../../../transports/serve/cluster-primary.ts');
        process.exit(
          await runPrimary({
            workers,
            maxSessions:
              wholeNumber('--max-sessions', flags.maxSessions, 1) ?? DEFAULT_MAX_SESSIONS,
          }),
        );
      }
      boundHeapGrowth(wholeNumber('--heap-growth', flags.heapGrowth, 0) ?? DEFAULT_HEAP_GROWTH);
      // A worker of --workers N (one process serves without the cluster's modules).
      const worker =
        workers > 1
          ? await import('../../../transports/serve/cluster-worker.ts').then((m) => {
              const router = m.workerRouter();
              return router && { router, join: m.joinCluster };
            })
          : undefined;
      const router = worker?.router;
      // From here on, an error that escapes every handler is logged and contained: it must not end every session.
      const { guardProcess } = await import('../../../transports/serve/process-guard.ts');
      guardProcess((line) => process.stderr.write(line + '\n'));
      const idleTimeoutMs = seconds('--session-timeout', flags.sessionTimeout, 'never');
      const worlds =
        refs.length === 0 ? [await loadWorld()] : await Promise.all(refs.map((r) => loadWorld(r)));
      const token = flags.token ?? (process.env.SEAHAVEN_TOKEN || undefined);
      const graderToken = flags.graderToken ?? (process.env.SEAHAVEN_GRADER_TOKEN || undefined);
      if (graderToken === '')
        throw new CliError(
          '--grader-token is empty; pass a secret, like --grader-token "$(openssl rand -hex 16)"',
          2,
        );
      const fixtures = defaultFixtures(flags.fixture, worlds);
      const { startServer } = await import('../../../transports/serve/server.ts');
      const { defaultMemoryBudget } = await import('../../../transports/serve/memory-budget.ts');
      const hibernateAfterMs = seconds('--hibernate-after', flags.hibernateAfter, 'never');
      const bodyTimeoutMs = seconds('--body-timeout', flags.bodyTimeout, 'refused');
      const slowCallMs = wholeNumber('--slow-call-ms', flags.slowCallMs, 0);
      const callLogMb = wholeNumber('--max-call-log-mb', flags.maxCallLogMb, 0);
      const maxMemoryMb = wholeNumber('--max-memory', flags.maxMemory, 1);
      const episodeDbMb = wholeNumber('--max-episode-db-mb', flags.maxEpisodeDbMb, 1);
      const mib = (n: number | undefined) => (n === undefined ? undefined : n * 1024 * 1024);
      const episodeLimits = { maxCallLogBytes: mib(callLogMb), maxDbGrowthBytes: mib(episodeDbMb) };
      const limits = {
        maxSessions: wholeNumber('--max-sessions', flags.maxSessions, 1),
        idleTimeoutMs,
        hibernateAfterMs,
        forkTtlMs: wholeNumber('--fork-ttl-ms', flags.forkTtlMs, 1),
      };
      let server: RunningServer | undefined;
      const { consoleRoutes } = await import('../../../transports/serve/console.ts');
      const webConsole = flags.console ? consoleRoutes() : null;
      const mcp = mcpStreamableHttp(worlds, () => server, fixtures, limits, {
        slowCallMs,
        ...episodeLimits,
      });
      const curricula = await openCurricula(worlds, flags);
      try {
        server = await startServer({
          ...(webConsole ? { publicRoutes: webConsole.publicRoutes } : {}),
          mcpHttp: mcp,
          ...(curricula ? { hooks: curricula.hooks } : {}),
          // Both add routes behind the token: the console's API and the curricula progress route.
          extend: (app, seahaven) => {
            webConsole?.extend(app, seahaven);
            curricula?.extend(app, seahaven);
          },
          worlds,
          host: flags.host,
          port,
          token,
          ...(graderToken === undefined ? {} : { graderToken }),
          ...limits,
          slowCallMs,
          ...episodeLimits,
          // The budget is the whole server's: each of --workers N processes weighs its admissions against 1/N of it.
          ...(maxMemoryMb === undefined && workers === 1
            ? {}
            : {
                maxMemoryBytes: Math.floor(
                  (maxMemoryMb === undefined
                    ? defaultMemoryBudget().bytes
                    : maxMemoryMb * 1024 * 1024) / workers,
                ),
              }),
          defaultFixtures: fixtures,
          maxFrameBytes: wholeNumber('--max-frame-bytes', flags.maxFrameBytes, 1024),
          maxBodyBytes: wholeNumber('--max-body-bytes', flags.maxBodyBytes, 1024),
          ...(bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs }),
          allowedHosts: flags.allowHost,
          allowedOrigins: flags.allowOrigin,
          ...(router === undefined ? {} : { cluster: router }),
        });
      } catch (e) {
        await curricula?.close();
        await mcp.close();
        const err = e as NodeJS.ErrnoException;
        if (err.code === 'EADDRINUSE')
          throw new CliError(
            `port ${port} on ${flags.host} is in use; stop the other server or pass --port <another> (0 picks a free one)`,
          );
        if (err.code === 'EADDRNOTAVAIL')
          throw new CliError(
            `cannot bind ${flags.host}: no such interface here; use 127.0.0.1 or 0.0.0.0`,
          );
        throw e;
      }
      const text = banner(
        server.url,
        worlds,
        fixtures[worlds[0].name] ?? server.endpoints.get(worlds[0].name)!.defaultFixture,
        token !== undefined,
        curricula,
        flags.console,
      );
      if (router === undefined) process.stdout.write(text);
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) {
            // A worker drains once, whoever asks (the primary, the primary's going away, a SIGTERM of its own).
            if (router !== undefined) return;
            process.stderr.write(`seahaven serve: ${signal} again, exiting now\n`);
            process.exit(1);
          }
          stopping = true;
          // A worker's drain is announced by the primary, for all of them at once.
          if (router === undefined)
            process.stderr.write(
              `seahaven serve: ${signal}: finishing queued requests and closing ${server!.sessions.size} session(s)…\n`,
            );
          // The runs file closes last: sessions ending at shutdown still give up their curriculum episodes.
          server!
            .close()
            .then(() => mcp.close())
            .then(() => curricula?.close())
            .then(resolve, (e) => {
              process.stderr.write(`seahaven serve: shutdown failed: ${(e as Error).message}\n`);
              resolve();
            });
        };
        if (worker !== undefined) {
          const registry = server!.sessions;
          const link = worker.join(worker.router, { shutdown: () => stop('shutdown') });
          registry.onCountChange = (n) => link.count(n);
          link.count(registry.used);
          link.ready(text);
          // Ctrl+C reaches the whole process group: the primary drains the workers, each worker ignores its own SIGINT.
          process.on('SIGINT', () => {});
          process.on('SIGTERM', () => stop('SIGTERM'));
          return;
        }
        process.on('SIGINT', () => stop('SIGINT'));
        process.on('SIGTERM', () => stop('SIGTERM'));
      });
      process.exit(process.exitCode ?? 0);
    });
}
