/**
 * The web console, for people debugging a world or a failed rollout who would rather look than read JSON. A page at
 * `/console/` lists the served worlds with their fixtures, tasks and curricula, opens sessions from a reset form, calls
 * tools through forms generated from their JSON Schemas, and shows the episode: each call with the rows it changed as
 * a before/after diff, the tables' current rows, the net changes, and the grade of a submitted task. Sessions can be
 * forked. The page and its scripts are static files from `packages/seahaven/transports/console/` (no build step, no CDN); its data comes from
 * the JSON API under `/console/api`, which sits behind the server's token like every other route.
 *
 * @example
 * import { startServer, consoleRoutes } from 'seahaven/serve';
 * const server = await startServer({ worlds: [crm], port: 0, ...consoleRoutes() });
 * console.log(`console: ${server.url}/console/`);
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';
import type { AppOptions } from './app.ts';
import { consoleApi, type ConsoleOptions } from './console-api.ts';

export type { ConsoleOptions } from './console-api.ts';

interface Asset {
  body: string;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

// Nothing but the console's own files may run or load, so even a value that slipped past escaping could not execute.
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The console's files: beside this module in the sources, under the package root when this module runs from `dist/`. */
function assetsDir(): string {
  const candidates = ['../console/', '../../../transports/console/'].map((p) =>
    fileURLToPath(new URL(p, import.meta.url)),
  );
  const dir = candidates.find((d) => existsSync(d + 'index.html'));
  if (dir === undefined)
    throw new Error(
      `the console's files are missing (looked for index.html in ${candidates.join(' and ')}); reinstall seahaven, or serve without the console`,
    );
  return dir;
}

/** Every page, style sheet and script of the console, read once. Only these names are ever served. */
function loadAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const ext = name.slice(name.lastIndexOf('.'));
    if (TYPES[ext] !== undefined && /^[a-z0-9-]+\.[a-z]+$/.test(name))
      out.set(name, { body: readFileSync(dir + name, 'utf8'), type: TYPES[ext] });
  }
  return out;
}

function serveAsset(c: Context, asset: Asset | undefined): Response {
  if (asset === undefined)
    return c.json({ detail: `no console file ${c.req.path}; open /console/` }, 404);
  c.header('Content-Type', asset.type);
  c.header('Cache-Control', 'no-cache');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  if (asset.type.startsWith('text/html')) c.header('Content-Security-Policy', PAGE_POLICY);
  return c.body(asset.body, 200);
}

/**
 * The console's routes, to spread into `createApp`/`startServer` options: the page and scripts at `/console/` (served
 * without the token: they hold no data, and a browser cannot send a header when it opens a page; the page asks for
 * the token), `/<world>/console` leading there, and the API at `/console/api` behind the token.
 * Options: `allowedHosts` (default loopback names; `['*']` when the server is exposed on purpose), `maxBodyBytes`
 * (default 1 MiB).
 * @example
 * const server = await startServer({ worlds: [crm], port: 0, ...consoleRoutes({ allowedHosts: ['*'] }) });
 */
export function consoleRoutes(
  options: ConsoleOptions = {},
): Required<Pick<AppOptions, 'publicRoutes' | 'extend'>> {
  const assets = loadAssets(assetsDir());
  return {
    publicRoutes(app: Hono) {
      // Relative redirects keep working when a proxy serves the app under a path prefix.
      app.get('/console', (c) => c.redirect('console/', 302));
      app.get('/console/', (c) => serveAsset(c, assets.get('index.html')));
      app.get('/console/:file{[a-z0-9-]+\\.(?:js|css|html)}', (c) =>
        serveAsset(c, assets.get(c.req.param('file'))),
      );
      app.get('/:world/console', (c) =>
        c.redirect(`../console/?world=${encodeURIComponent(c.req.param('world'))}`, 302),
      );
      app.get('/:world/console/', (c) =>
        c.redirect(`../../console/?world=${encodeURIComponent(c.req.param('world'))}`, 302),
      );
    },
    extend(app, server) {
      app.route('/console/api', consoleApi(server, options));
    },
  };
}
