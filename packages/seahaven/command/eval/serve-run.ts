/**
 * `seahaven eval --serve DIR`: the world served with its console, and the run's report at `/eval/report.html`, where
 * each step's link (`/eval/replay/<episode>/<step>`) opens that episode replayed up to that step as a live console
 * session. Replaying is exact: a new session with the episode's task and seed (the same fixture, clock and random
 * streams), then the episode's calls through step N, each checked against the record; the console then shows the
 * session, where a person can call tools from there, submit, or fork it to try another continuation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import type { World } from '../../core/world-types.ts';
import { consoleRoutes } from '../../transports/serve/console.ts';
import { startServer, type RunningServer } from '../../transports/serve/server.ts';
import type { EpisodeRecord } from './agent.ts';
import { readEpisodes, readSettings } from './store.ts';

export interface ServeRunOptions {
  port?: number;
  host?: string;
}

/** A replay that did not reproduce the record: the world or its fixtures changed since the run. */
export class ReplayMismatch extends Error {}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Open a console session on `base` replaying `record` through step `step` (its numbered calls up to `step`, with the
 * refused calls among them). Returns the session id. Each reply is compared with the recorded one.
 */
export async function replayInConsole(
  base: string,
  world: string,
  record: EpisodeRecord,
  step: number,
): Promise<string> {
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/console/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, any>;
    if (!res.ok)
      throw new Error(
        `the console refused ${path} (${res.status}): ${JSON.stringify(json.detail)}`,
      );
    return json;
  };
  const { session } = await api('sessions', { world, task: record.task, seed: record.seed });
  const id = String(session.id);
  for (const c of record.calls) {
    if (c.index !== undefined && c.index > step) break;
    const { call } = await api(
      `sessions/${encodeURIComponent(world)}/${encodeURIComponent(id)}/calls`,
      { tool_name: c.tool, arguments: c.args },
    );
    if (
      call.index !== c.index ||
      call.ok !== c.ok ||
      !same(call.ok ? call.result : call.error, c.ok ? c.result : c.error)
    ) {
      throw new ReplayMismatch(
        `call ${c.index ?? '(refused)'} of ${record.episode_id} (${c.tool}) came out otherwise on replay; the world or its fixtures changed since this run: run it again`,
      );
    }
  }
  return id;
}

function page(c: Context, status: 400 | 404 | 409 | 500, text: string): Response {
  return c.text(`${text}\n`, status);
}

/** Serve `dir`'s report and replays beside the world and its console. */
export async function serveRun(
  dir: string,
  world: World,
  options: ServeRunOptions = {},
): Promise<RunningServer> {
  const settings = readSettings(dir);
  if (settings.world.name !== world.name || settings.world.version !== world.version) {
    throw new Error(
      `${dir} is a run of ${settings.world.name} ${settings.world.version}, not ${world.name} ${world.version}; serve it with that world`,
    );
  }
  const records = new Map(readEpisodes(dir).map((r) => [r.episode_id, r]));
  const report = join(dir, 'report.html');
  const console = consoleRoutes();
  const server: RunningServer = await startServer({
    worlds: [world],
    port: options.port ?? 8000,
    host: options.host ?? '127.0.0.1',
    publicRoutes: console.publicRoutes,
    extend(app: Hono, seahaven) {
      console.extend(app, seahaven);
      app.get('/eval', (c) => c.redirect('eval/report.html', 302));
      app.get('/eval/', (c) => c.redirect('report.html', 302));
      app.get('/eval/report.html', (c) => {
        if (!existsSync(report))
          return page(c, 404, `${dir} has no report.html yet; run seahaven eval with --out ${dir}`);
        c.header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'",
        );
        return c.html(readFileSync(report, 'utf8'));
      });
      app.get('/eval/replay/:episode/:step', async (c) => {
        const record = records.get(c.req.param('episode'));
        if (record === undefined)
          return page(
            c,
            404,
            `${dir} has no episode "${c.req.param('episode')}"; open one from /eval/report.html`,
          );
        const stepText = c.req.param('step');
        const step = Number(stepText);
        if (!/^\d+$/.test(stepText) || !Number.isSafeInteger(step))
          return page(
            c,
            400,
            `step "${stepText}" is not a whole number; give a call number of the episode, like /eval/replay/${record.episode_id}/1`,
          );
        try {
          const id = await replayInConsole(server.url, world.name, record, step);
          return c.redirect(
            `../../../console/#${encodeURIComponent(world.name)}/${encodeURIComponent(id)}`,
            302,
          );
        } catch (e) {
          return page(c, e instanceof ReplayMismatch ? 409 : 500, (e as Error).message);
        }
      });
    },
  });
  return server;
}
