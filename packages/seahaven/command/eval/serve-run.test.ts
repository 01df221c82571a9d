import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crm from '../../../../worlds/crm/index.ts';
import type { RunningServer } from '../../transports/serve/server.ts';
import { play } from './command.ts';
import { compareRuns, formatComparison } from './compare.ts';
import { startScriptedModel, type ScriptedModel } from './scripted-model.ts';
import { serveRun } from './serve-run.ts';
import { readEpisodes } from './store.ts';

const quiet = { env: {}, progress: () => {} };

describe('a run served: the report, and any step of any episode replayed live in the console', () => {
  let model: ScriptedModel;
  let server: RunningServer;
  const dir = mkdtempSync(join(tmpdir(), 'seahaven-serve-run-'));
  beforeAll(async () => {
    model = await startScriptedModel({
      world: crm,
      good: (task, _s, trial) => task !== 'qualify_globex_leads' || trial === 0,
    });
    await play(
      crm,
      {
        model: 'scripted',
        baseUrl: model.url,
        apiKey: 'none',
        tasks: 'qualify_globex_leads,add_company',
        trials: '2',
        out: join(dir, 'a'),
      },
      quiet,
    );
    server = await serveRun(join(dir, 'a'), crm, { port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the report with its step links', async () => {
    const res = await fetch(`${server.url}/eval/report.html`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('href="replay/qualify_globex_leads.s0.t1/0"');
    expect((await fetch(`${server.url}/eval/replay/no_such.s0.t0/1`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/eval/replay/add_company.s0.t0/x`)).text()).toMatch(
      /is not a whole number/,
    );
  });

  it('opens an episode replayed up to step N as a console session, identical to the record, that can be forked', async () => {
    const record = readEpisodes(join(dir, 'a')).find(
      (r) => r.episode_id === 'qualify_globex_leads.s0.t0',
    )!;
    const numbered = record.calls.filter((c) => c.index !== undefined);
    expect(numbered.length).toBeGreaterThanOrEqual(3);
    const step = numbered[1].index!;
    const res = await fetch(`${server.url}/eval/replay/${record.episode_id}/${step}`, {
      redirect: 'manual',
    });
    expect(res.status, await res.clone().text()).toBe(302);
    const where = new URL(
      res.headers.get('location')!,
      `${server.url}/eval/replay/${record.episode_id}/${step}`,
    );
    expect(where.pathname).toBe('/console/');
    const [world, id] = where.hash.slice(1).split('/').map(decodeURIComponent);
    expect(world).toBe('crm');
    const api = (path: string, init?: RequestInit) =>
      fetch(`${server.url}/console/api/sessions/crm/${id}${path}`, init).then(
        (r) => r.json() as Promise<Record<string, any>>,
      );
    const { calls } = await api('/timeline');
    const upTo = record.calls.slice(0, record.calls.findIndex((c) => c.index === step) + 1);
    expect(
      calls.map((c: Record<string, unknown>) => ({
        index: c.index,
        tool: c.tool,
        args: c.args,
        ok: c.ok,
        result: c.result,
        error: c.error,
      })),
    ).toEqual(
      upTo.map((c) => ({
        index: c.index,
        tool: c.tool,
        args: c.args,
        ok: c.ok,
        result: c.result,
        error: c.error,
      })),
    );
    const rows = calls.flatMap((c: { index?: number; changes: unknown[] }) =>
      c.changes.map((ch) => ({ call: c.index, ...(ch as object) })),
    );
    expect(rows).toEqual(
      record.change_log.filter((c) => c.call <= step).map(({ tool: _t, ...rest }) => rest),
    );
    // A person continues from here on a fork: the original stays at step N.
    const fork = await fetch(`${server.url}/console/api/sessions/crm/${id}/fork`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fork.status).toBe(201);
    const forked = ((await fork.json()) as { session: { id: string } }).session.id;
    const next = record.calls.find((c) => c.index === step + 1)!;
    const call = await fetch(`${server.url}/console/api/sessions/crm/${forked}/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool_name: next.tool, arguments: next.args }),
    });
    expect(((await call.json()) as { call: { result: unknown } }).call.result).toEqual(next.result);
    expect((await api('/timeline')).calls).toHaveLength(upTo.length);
  });

  it('--compare names the tasks whose outcome changed between two runs', async () => {
    const other = await startScriptedModel({
      world: crm,
      good: (task) => task === 'qualify_globex_leads',
    });
    try {
      await play(
        crm,
        {
          model: 'scripted-b',
          baseUrl: other.url,
          apiKey: 'none',
          tasks: 'qualify_globex_leads,add_company',
          trials: '2',
          out: join(dir, 'b'),
        },
        quiet,
      );
    } finally {
      await other.close();
    }
    const c = compareRuns(join(dir, 'a'), join(dir, 'b'));
    expect(c.tasks.map((t) => [t.task, t.changed, t.fixed, t.regressed])).toEqual([
      ['add_company', true, [], ['add_company.s0.t0', 'add_company.s0.t1']],
      ['qualify_globex_leads', true, ['qualify_globex_leads.s0.t1'], []],
    ]);
    const text = formatComparison(c);
    expect(text).toContain('| qualify_globex_leads | 1/2 (0.500) | 2/2 (1.000) | +0.500 |');
    expect(text).toContain('| add_company | 2/2 (1.000) | 0/2 (0.000) | -1.000 |');
    expect(text).toContain(
      'add_company: passed in a, failed in b: add_company.s0.t0, add_company.s0.t1',
    );
  });
});
