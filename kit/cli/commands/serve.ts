/** `seahaven serve [world…]`: serve worlds over OpenEnv (WebSocket, HTTP and JSON-RPC) until SIGINT or SIGTERM. */
import { Option, type Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld } from '../load-world.ts';
import type { World } from '../../world.ts';
import type { EpisodeLimits, InstanceOptions } from '../../instance.ts';
import type { McpHttpHandler } from '../../mcp/index.ts';
import type { RunningServer } from '../../serve/server.ts';
import type { ServedCurricula } from '../../serve/curricula.ts';

interface ServeFlags {
  host: string;
  port: string;
  maxSessions?: string;
  sessionTimeout?: string;
  hibernateAfter?: string;
  forkTtlMs?: string;
  token?: string;
  graderToken?: string;
  fixture: string[];
  maxFrameBytes?: string;
  maxBodyBytes?: string;
  bodyTimeout?: string;
  slowCallMs?: string;
  allowHost: string[];
  allowOrigin: string[];
  runsDb?: string;
  curriculaDb?: string;
  console: boolean;
  workers?: string;
  maxCallLogMb?: string;
  maxEpisodeDbMb?: string;
  maxMemory?: string;
}

function wholeNumber(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new CliError(`${flag} must be a whole number >= ${min}; got "${value}"`, 2);
  return n;
}

const collect = (value: string, acc: string[]) => [...acc, value];

function positiveSeconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`${flag} must be a number of seconds > 0, like 10 or 0.5; got "${value}"`, 2);
  return n;
}

/** `--fixture small_startup` sets the first world's default; `--fixture crm=small_startup` names the world. */
function defaultFixtures(specs: string[], worlds: World[]): Record<string, string> {
  // Keyed by world name, so no inherited key (a world named "constructor") may read as a fixture.
  const out: Record<string, string> = Object.create(null);
  for (const spec of specs) {
    const [world, fixture] = spec.includes('=') ? spec.split('=', 2) : [worlds[0].name, spec];
    const w = worlds.find((x) => x.name === world);
    if (!w) throw new CliError(`--fixture ${spec}: no world "${world}" is being served (${worlds.map((x) => x.name).join(', ')})`, 2);
    if (!Object.hasOwn(w.fixtures, fixture)) throw new CliError(`--fixture ${spec}: world "${world}" has no fixture "${fixture}"; its fixtures are ${Object.keys(w.fixtures).join(', ') || '(none)'}`, 2);
    out[world] = fixture;
  }
  return out;
}

/** Where each world's own HTTP API answers (the first one's also at the root). */
function faceLines(url: string, worlds: World[]): string[] {
  const faced = worlds.filter((w) => w.http !== undefined);
  return faced.map((w, i) => `  ${w.name} HTTP API:  ${i === 0 ? `${url}${w.http!.basePath}  (also ` : '('}${url}/${w.name}${w.http!.basePath}); each key is its own account, a session's key is in its reset metadata (api_key)`);
}

function banner(url: string, worlds: World[], fixture: string | undefined, token: boolean, curricula: ServedCurricula | undefined, withConsole: boolean): string {
  const first = worlds[0];
  // A tool the snippet can call with no arguments, so it runs as printed.
  const tool = first.toolListings().find((t) => !Array.isArray(t.inputSchema.required) || t.inputSchema.required.length === 0)?.name;
  const call = tool ? `await env.call('${tool}', {})` : 'await env.listTools()';
  const reset = fixture ? `{ fixture: '${fixture}', seed: 1 }` : '{ seed: 1 }';
  const lines = [
    `seahaven serve: ${worlds.map((w) => `${w.name} ${w.version}`).join(', ')} at ${url}`,
    `  OpenEnv base URL: ${url}  (also ${worlds.map((w) => `${url}/${w.name}`).join(', ')})`,
    `  WebSocket:        ${url.replace(/^http/, 'ws')}/ws`,
    `  health:           ${url}/health`,
    `  tasks:            ${url}/tasks  (OpenEnv Task API: ${url}/${first.name}/splits, …/task)`,
    ...curriculaLines(url, curricula),
    ...(withConsole ? [`  console:          ${url}/console/`] : []),
    ...faceLines(url, worlds),
    '',
    '  TypeScript:',
    `    import { SeahavenClient } from 'seahaven/client';`,
    `    await using env = await SeahavenClient.connect('${url}'${token ? ', { token: process.env.SEAHAVEN_TOKEN }' : ''});`,
    `    await env.reset(${reset});`,
    `    console.log(${call}, (await env.state()).changes);`,
    '',
    '  Python (OpenEnv):',
    '    from openenv.core import GenericEnvClient',
    `    with GenericEnvClient(base_url="${url}").sync() as env:`,
    `        env.reset(${fixture ? `fixture="${fixture}", ` : ''}seed=1)`,
    tool ? `        print(env.step({"type": "call_tool", "tool_name": "${tool}", "arguments": {}}))` : '        print(env.step({"type": "list_tools"}))',
    '',
    '  Press Ctrl+C to stop.',
  ];
  return lines.join('\n') + '\n';
}

function curriculaLines(url: string, curricula: ServedCurricula | undefined): string[] {
  if (!curricula) return [];
  const names = [...curricula.curricula].flatMap(([world, list]) => list.map((n) => (curricula.curricula.size > 1 ? `${world}/${n}` : n)));
  const first = [...curricula.curricula.values()][0][0];
  return [
    `  curricula:        ${names.join(', ')}; reset with {"curriculum": "${first}", "run_id": "run-1"}`,
    `  progress:         ${url}/curricula/${first}/runs/run-1`,
    curricula.kind === 'postgres' ? `  runs database:    ${curricula.path}` : `  runs file:        ${curricula.path}`,
  ];
}

/**
 * Open the runs database (a SQLite file, or PostgreSQL) for the worlds that declare curricula; `undefined` when none
 * does (no file is created, no database contacted).
 */
async function openCurricula(worlds: World[], flags: ServeFlags): Promise<ServedCurricula | undefined> {
  if (flags.runsDb !== undefined && flags.curriculaDb !== undefined && flags.runsDb !== flags.curriculaDb) {
    throw new CliError('--runs-db and --curricula-db (its older name) name different runs databases; pass only --runs-db', 2);
  }
  const target = flags.runsDb ?? flags.curriculaDb ?? '.data/curricula.sqlite';
  const { serveCurricula, maskUrl, parseRunsTarget } = await import('../../serve/curricula.ts');
  try {
    parseRunsTarget(target);
  } catch (e) {
    throw new CliError(`--runs-db: ${(e as Error).message}`, 2);
  }
  if (worlds.every((w) => w.curricula.length === 0)) return undefined;
  let served: ServedCurricula;
  try {
    served = serveCurricula({ worlds, runsDb: target });
  } catch (e) {
    throw new CliError(`--runs-db ${maskUrl(target)}: ${(e as Error).message}`);
  }
  try {
    await served.ready;
  } catch (e) {
    await served.close().catch(() => {});
    throw new CliError(`--runs-db: ${(e as Error).message}`);
  }
  return served;
}

/**
 * MCP Streamable HTTP on each world's `/mcp`, beside OpenEnv's JSON-RPC: sessions start on the world's default fixture
 * unless the client names a fixture or task. The server's access check (Host, Origin, token) and capacity apply.
 */
async function mcpStreamableHttp(
  worlds: World[],
  server: () => RunningServer | undefined,
  fixtures: Record<string, string>,
  limits: { idleTimeoutMs?: number },
  instanceOptions: Pick<InstanceOptions, 'slowCallMs'> & EpisodeLimits,
): Promise<McpHttpHandler> {
  const { createMcpHttpHandler, openInstance } = await import('../../mcp/index.ts');
  const byName = new Map(worlds.map((w) => [w.name, w]));
  return createMcpHttpHandler({
    world: (req) => {
      const first = new URL(req.url).pathname.split('/')[1];
      return first === 'mcp' ? worlds[0] : byName.get(first);
    },
    startInstance: (world, reset) => {
      const fixture = fixtures[world.name] ?? server()?.endpoints.get(world.name)?.defaultFixture;
      // The server's own options, once it runs: its logger, limits and memory budget.
      return openInstance(world, reset.fixture === undefined && reset.task === undefined ? { ...reset, fixture } : reset, server()?.endpoints.get(world.name)?.instanceOptions() ?? instanceOptions);
    },
    ...(limits.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: limits.idleTimeoutMs }),
  });
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve worlds over OpenEnv: a WebSocket session per client on /ws, plus /reset, /step, /state, /mcp and /health')
    .argument('[worlds...]', 'example world names or module paths (default: ./world.ts, else crm)')
    .option('--host <host>', 'interface to bind; 0.0.0.0 exposes the server to the network (then set --token, or --allow-host the names clients use)', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8000')
    .option('--max-sessions <n>', 'most sessions open at once (default 4096)')
    .option('--session-timeout <seconds>', 'end sessions idle this long; 0 never (default 900)')
    .option('--hibernate-after <seconds>', 'close the SQLite connection of sessions idle this long, keeping their state; 0 never (default 30)')
    .option('--fork-ttl-ms <n>', 'hold a forked episode (the fork step) this many milliseconds for a reset to adopt with its token (default 60000)')
    .option('--token <token>', 'require "Authorization: Bearer <token>" on every request (default: $SEAHAVEN_TOKEN)')
    .option('--grader-token <secret>', 'grade and submit answer agents the agent view (criterion ids, labels, scores, weights); a trainer that presents this secret (reset key grader_token, or header X-Seahaven-Grader-Token on /reset and /step) gets whole grades, names and reasons included (default: $SEAHAVEN_GRADER_TOKEN)')
    .option('--allow-host <host>', 'without a token, also answer requests for this Host name ("name" any port, "name:port", "*" any); repeatable. Default: localhost, 127.0.0.0/8, [::1]', collect, [] as string[])
    .option('--allow-origin <origin>', 'without a token, also answer browser requests from this origin (like https://studio.example.com, or "*"); repeatable. Default: only the server\'s own pages', collect, [] as string[])
    .option('--fixture <[world=]id>', 'default fixture for resets that name none (repeatable)', collect, [] as string[])
    .option('--max-frame-bytes <n>', 'longest WebSocket frame accepted (default 1048576)')
    .option('--max-body-bytes <n>', 'longest HTTP body accepted (default 1048576)')
    .option('--body-timeout <seconds>', 'cut a request body that has not fully arrived this long after it is read with 408 (default 10)')
    .option('--slow-call-ms <n>', 'log each tool call that takes at least this many milliseconds, with its world, tool and duration (default 1000)')
    .option('--max-call-log-mb <n>', "most MiB of call results each session's call log keeps; older results are dropped, their arguments kept (default 8)")
    .option('--max-memory <MiB>', "the server's memory budget (with --workers N, 1/N for each worker): new sessions, resets and forks that would not fit are refused with RESOURCE_EXHAUSTED (default: 90% of the cgroup's memory limit, else 75% of the machine's memory)")
    .option('--max-episode-db-mb <n>', "most MiB each episode's database may grow beyond its fixture's image; a call past it fails with resource_exhausted and ends that episode only (default 256)")
    .option('--runs-db <path|url>', 'where curriculum runs are kept, so they survive a restart and servers can share them: a SQLite file (processes on one machine may share it), or postgres://user:password@host:5432/dbname for servers on several machines (default .data/curricula.sqlite)')
    .addOption(new Option('--curricula-db <path>', 'the older name of --runs-db').hideHelp())
    .option('--no-console', 'do not serve the web console on /console/')
    .option('--workers <n|auto>', 'serve with this many worker processes behind the one port (auto: one per core); WebSocket sessions stay on their worker, other requests are handed over to the worker holding their session (default 1: one process)')
    .action(async (refs: string[], flags: ServeFlags) => {
      const port = wholeNumber('--port', flags.port, 0)!;
      if (port > 65535) throw new CliError(`--port must be at most 65535; got ${port}`, 2);
      const { parseWorkers, workerRouter, joinCluster } = await import('../../serve/cluster.ts');
      const { runPrimary } = await import('../../serve/cluster-primary.ts');
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
        const { DEFAULT_MAX_SESSIONS } = await import('../../serve/sessions.ts');
        process.exit(await runPrimary({ workers, maxSessions: wholeNumber('--max-sessions', flags.maxSessions, 1) ?? DEFAULT_MAX_SESSIONS }));
      }
      const router = workers > 1 ? workerRouter() : undefined;
      // From here on, an error that escapes every handler is logged and contained: it must not end every session.
      const { guardProcess } = await import('../../serve/process-guard.ts');
      guardProcess((line) => process.stderr.write(line + '\n'));
      const timeout = wholeNumber('--session-timeout', flags.sessionTimeout, 0);
      const worlds = refs.length === 0 ? [await loadWorld()] : await Promise.all(refs.map((r) => loadWorld(r)));
      const token = flags.token ?? (process.env.SEAHAVEN_TOKEN || undefined);
      const graderToken = flags.graderToken ?? (process.env.SEAHAVEN_GRADER_TOKEN || undefined);
      if (graderToken === '') throw new CliError('--grader-token is empty; pass a secret, like --grader-token "$(openssl rand -hex 16)"', 2);
      const fixtures = defaultFixtures(flags.fixture, worlds);
      const { startServer } = await import('../../serve/server.ts');
      const { defaultMemoryBudget } = await import('../../serve/memory-budget.ts');
      const hibernate = wholeNumber('--hibernate-after', flags.hibernateAfter, 0);
      const bodyTimeout = positiveSeconds('--body-timeout', flags.bodyTimeout);
      const slowCallMs = wholeNumber('--slow-call-ms', flags.slowCallMs, 0);
      const callLogMb = wholeNumber('--max-call-log-mb', flags.maxCallLogMb, 0);
      const maxMemoryMb = wholeNumber('--max-memory', flags.maxMemory, 1);
      const episodeDbMb = wholeNumber('--max-episode-db-mb', flags.maxEpisodeDbMb, 1);
      const mib = (n: number | undefined) => (n === undefined ? undefined : n * 1024 * 1024);
      const episodeLimits = { maxCallLogBytes: mib(callLogMb), maxDbGrowthBytes: mib(episodeDbMb) };
      const limits = {
        maxSessions: wholeNumber('--max-sessions', flags.maxSessions, 1),
        idleTimeoutMs: timeout === undefined ? undefined : timeout * 1000,
        hibernateAfterMs: hibernate === undefined ? undefined : hibernate * 1000,
        forkTtlMs: wholeNumber('--fork-ttl-ms', flags.forkTtlMs, 1),
      };
      let server: RunningServer | undefined;
      const { consoleRoutes } = await import('../../serve/console.ts');
      const webConsole = flags.console ? consoleRoutes() : null;
      const mcp = await mcpStreamableHttp(worlds, () => server, fixtures, limits, { slowCallMs, ...episodeLimits });
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
          ...(maxMemoryMb === undefined && workers === 1 ? {} : { maxMemoryBytes: Math.floor((maxMemoryMb === undefined ? defaultMemoryBudget().bytes : maxMemoryMb * 1024 * 1024) / workers) }),
          defaultFixtures: fixtures,
          maxFrameBytes: wholeNumber('--max-frame-bytes', flags.maxFrameBytes, 1024),
          maxBodyBytes: wholeNumber('--max-body-bytes', flags.maxBodyBytes, 1024),
          ...(bodyTimeout === undefined ? {} : { bodyTimeoutMs: bodyTimeout * 1000 }),
          allowedHosts: flags.allowHost,
          allowedOrigins: flags.allowOrigin,
          ...(router === undefined ? {} : { cluster: router }),
        });
      } catch (e) {
        await curricula?.close();
        await mcp.close();
        const err = e as NodeJS.ErrnoException;
        if (err.code === 'EADDRINUSE') throw new CliError(`port ${port} on ${flags.host} is in use; stop the other server or pass --port <another> (0 picks a free one)`);
        if (err.code === 'EADDRNOTAVAIL') throw new CliError(`cannot bind ${flags.host}: no such interface here; use 127.0.0.1 or 0.0.0.0`);
        throw e;
      }
      const text = banner(server.url, worlds, fixtures[worlds[0].name] ?? server.endpoints.get(worlds[0].name)!.defaultFixture, token !== undefined, curricula, flags.console);
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
          if (router === undefined) process.stderr.write(`seahaven serve: ${signal}: finishing queued requests and closing ${server!.sessions.size} session(s)…\n`);
          // The runs file closes last: sessions ending at shutdown still give up their curriculum episodes.
          server!.close().then(() => mcp.close()).then(() => curricula?.close()).then(resolve, (e) => {
            process.stderr.write(`seahaven serve: shutdown failed: ${(e as Error).message}\n`);
            resolve();
          });
        };
        if (router !== undefined) {
          const registry = server!.sessions;
          const link = joinCluster(router, { shutdown: () => stop('shutdown') });
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
