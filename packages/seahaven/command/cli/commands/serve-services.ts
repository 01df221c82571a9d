/** What `seahaven serve` mounts beside OpenEnv: the curriculum runs database and MCP Streamable HTTP. */
import { CliError } from '../errors.ts';
import type { World } from '../../../core/world.ts';
import type { EpisodeLimits, InstanceOptions } from '../../../core/instance.ts';
import type { McpHttpHandler } from '../../../transports/mcp/index.ts';
import type { RunningServer } from '../../../transports/serve/server.ts';
import type { ServedCurricula } from '../../../transports/serve/curricula.ts';
import type { ServeFlags } from './serve-flags.ts';

/**
 * Open the runs database (a SQLite file, or PostgreSQL) for the worlds that declare curricula; `undefined` when none
 * does (no file is created, no database contacted).
 */
export async function openCurricula(
  worlds: World[],
  flags: ServeFlags,
): Promise<ServedCurricula | undefined> {
  if (
    flags.runsDb !== undefined &&
    flags.curriculaDb !== undefined &&
    flags.runsDb !== flags.curriculaDb
  ) {
    throw new CliError(
      '--runs-db and --curricula-db (its older name) name different runs databases; pass only --runs-db',
      2,
    );
  }
  const target = flags.runsDb ?? flags.curriculaDb ?? '.data/curricula.sqlite';
  const { serveCurricula, maskUrl, parseRunsTarget } =
    await import('../../../transports/serve/curricula.ts');
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
 *
 * The MCP SDK (with its JSON Schema validator) is about a third of the modules `seahaven serve` would load, so it is
 * loaded on the first MCP request rather than at start-up: a server that only speaks OpenEnv never loads it.
 */
export function mcpStreamableHttp(
  worlds: World[],
  server: () => RunningServer | undefined,
  fixtures: Record<string, string>,
  limits: { idleTimeoutMs?: number },
  instanceOptions: Pick<InstanceOptions, 'slowCallMs'> & EpisodeLimits,
): McpHttpHandler {
  const byName = new Map(worlds.map((w) => [w.name, w]));
  let loaded: McpHttpHandler | undefined;
  let loading: Promise<McpHttpHandler> | undefined;
  let closed = false;
  const load = () =>
    (loading ??= import('../../../transports/mcp/index.ts').then(
      async ({ createMcpHttpHandler, openInstance }) => {
        const handler = createMcpHttpHandler({
          world: (req) => {
            const first = new URL(req.url).pathname.split('/')[1];
            return first === 'mcp' ? worlds[0] : byName.get(first);
          },
          startInstance: (world, reset) => {
            const fixture =
              fixtures[world.name] ?? server()?.endpoints.get(world.name)?.defaultFixture;
            // The server's own options, once it runs: its logger, limits and memory budget.
            return openInstance(
              world,
              reset.fixture === undefined && reset.task === undefined
                ? { ...reset, fixture }
                : reset,
              server()?.endpoints.get(world.name)?.instanceOptions() ?? instanceOptions,
            );
          },
          ...(limits.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: limits.idleTimeoutMs }),
        });
        // Closed while it loaded: later requests get the closed handler's 503.
        if (closed) await handler.close();
        return (loaded = handler);
      },
    ));
  const handle = (async (req, options) => (await load())(req, options)) as McpHttpHandler;
  handle.activeSessions = () => loaded?.activeSessions() ?? 0;
  handle.close = async () => {
    closed = true;
    if (loading) await (await loading).close();
  };
  return handle;
}
