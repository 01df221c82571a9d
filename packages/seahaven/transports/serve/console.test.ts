import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { consoleRoutes, createApp, type SeahavenApp } from './index.ts';
import { Session } from './sessions.ts';

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

let open: SeahavenApp | undefined;
function serve(
  options: { token?: string; maxSessions?: number; allowedHosts?: string[] } = {},
): SeahavenApp {
  open = createApp({
    worlds: [crm],
    token: options.token,
    maxSessions: options.maxSessions,
    allowedHosts: options.allowedHosts,
    ...consoleRoutes(),
  });
  return open;
}
afterEach(() => open?.sessions.endAll('shutdown'));

async function openSession(
  app: SeahavenApp['app'],
  body: Record<string, unknown> = { world: 'crm', fixture: 'small_startup' },
) {
  const res = await app.request('/console/api/sessions', post(body));
  expect(res.status).toBe(201);
  return (await res.json()).session as {
    id: string;
    world: string;
    task: { id: string } | null;
    drivable: boolean;
    console: boolean;
  };
}

describe('console pages', () => {
  it('serves the page and its scripts without the token, with a policy that only allows its own files', async () => {
    const { app } = serve({ token: 'sekret' });
    const redirect = await app.request('/console');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('console/');
    const page = await app.request('/console/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="app.js">');
    // Every module the page loads, followed from app.js through its imports, is served as a script.
    const served = new Set<string>();
    const pending = ['app.js'];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (served.has(name)) continue;
      served.add(name);
      const script = await app.request(`/console/${name}`);
      expect(script.status, name).toBe(200);
      expect(script.headers.get('content-type'), name).toContain('text/javascript');
      for (const m of (await script.text()).matchAll(
        /^import [^;]* from '\.\/([a-z0-9-]+\.js)';$/gm,
      ))
        pending.push(m[1]);
    }
    expect([...served]).toEqual(expect.arrayContaining(['page.js', 'schema-form.js', 'dom.js']));
    expect((await app.request('/console/tsconfig.json')).status).toBe(401);
    expect((await app.request('/console/screenshot.ts')).status).toBe(401);
    expect((await app.request('/console/nope.js')).status).toBe(404);
  });

  it('leads /<world>/console to the page with that world picked', async () => {
    const { app } = serve();
    const res = await app.request('/crm/console');
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!, 'http://h/crm/console').pathname).toBe(
      '/console/',
    );
    expect(res.headers.get('location')).toContain('?world=crm');
    const slash = await app.request('/crm/console/');
    expect(new URL(slash.headers.get('location')!, 'http://h/crm/console/').pathname).toBe(
      '/console/',
    );
  });

  it('keeps the API behind the token, and answers with it', async () => {
    const { app } = serve({ token: 'sekret' });
    const refused = await app.request('/console/api/worlds');
    expect(refused.status).toBe(401);
    expect((await refused.json()).detail).toContain('Authorization: Bearer');
    const ok = await app.request('/console/api/worlds', {
      headers: { authorization: 'Bearer sekret' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('console API', () => {
  it('lists the worlds with fixtures, tasks, curricula, tables, tools and the reset schema', async () => {
    const { app } = serve();
    const { worlds } = await (await app.request('/console/api/worlds')).json();
    expect(worlds).toHaveLength(1);
    const w = worlds[0];
    expect(w).toMatchObject({ name: 'crm', version: '1.0.0', default_fixture: 'empty' });
    expect(w.fixtures.map((f: { id: string }) => f.id)).toEqual([
      'empty',
      'small_startup',
      'big_co',
    ]);
    expect(w.tasks.find((t: { id: string }) => t.id === 'add_lead')).toMatchObject({
      fixture: 'small_startup',
      difficulty: 1,
    });
    expect(w.curricula[0]).toMatchObject({
      name: 'crm-basics',
      stages: [{ name: 'easy' }, { name: 'medium' }, { name: 'hard' }],
    });
    expect(w.tables.find((t: { name: string }) => t.name === 'contacts')).toMatchObject({
      pk: ['id'],
    });
    expect(
      w.tools.find((t: { name: string }) => t.name === 'create_contact').input_schema.required,
    ).toEqual(['name', 'email']);
    expect(w.reset_schema.properties.task.enum).toContain('add_lead');
    expect(w.reset_schema.properties.fixture.enum).toEqual(['empty', 'small_startup', 'big_co']);
  });

  it('opens a session, calls a tool, and shows each call with the rows it changed', async () => {
    const server = serve();
    const { app } = server;
    const s = await openSession(app, { world: 'crm', task: 'add_lead', seed: 3 });
    expect(s).toMatchObject({
      world: 'crm',
      task: { id: 'add_lead' },
      drivable: true,
      console: true,
    });
    const base = `/console/api/sessions/crm/${s.id}`;

    const bad = await (
      await app.request(
        `${base}/calls`,
        post({ tool_name: 'create_contact', arguments: { name: 'Ada' } }),
      )
    ).json();
    expect(bad.call).toMatchObject({
      tool: 'create_contact',
      ok: false,
      error: { code: 'invalid_arguments' },
      changes: [],
    });
    expect(bad.call.index).toBeUndefined();

    const made = await (
      await app.request(
        `${base}/calls`,
        post({
          tool_name: 'create_contact',
          arguments: {
            name: 'Ada Lovelace',
            email: 'ada.lovelace@acmerobotics.example',
            company_id: 'cmp_acme',
            title: 'Head of Research',
          },
        }),
      )
    ).json();
    expect(made.call).toMatchObject({
      index: 1,
      ok: true,
      changes: [{ table: 'contacts', op: 'insert', after: { name: 'Ada Lovelace' } }],
    });
    const id = made.call.result.id;
    await app.request(
      `${base}/calls`,
      post({ tool_name: 'update_contact', arguments: { id, stage: 'qualified' } }),
    );

    const { calls } = await (await app.request(`${base}/timeline`)).json();
    expect(calls.map((c: { tool: string; index?: number }) => [c.tool, c.index ?? null])).toEqual([
      ['create_contact', null],
      ['create_contact', 1],
      ['update_contact', 2],
    ]);
    expect(calls[2].changes).toEqual([
      {
        table: 'contacts',
        op: 'update',
        key: { id },
        before: { id, stage: 'lead' },
        after: { id, stage: 'qualified' },
      },
    ]);
    const inst = server.sessions.get(server.endpoints.get('crm')!, s.id)!.inst;
    expect(calls[2].changes).toEqual(
      inst
        .changeLog()
        .filter((c) => c.call === 2)
        .map(({ call: _c, tool: _t, ...rest }) => rest),
    );

    const { changes } = await (await app.request(`${base}/changes`)).json();
    expect(changes).toEqual(inst.changes());
    expect(changes).toMatchObject([
      { table: 'contacts', op: 'insert', after: { stage: 'qualified' } },
    ]);

    const submitted = await (await app.request(`${base}/submit`, post({}))).json();
    expect(submitted.grade.passed).toBe(false);
    expect(submitted.grade.criteria.length).toBeGreaterThan(0);
    expect(submitted.grade).toEqual(inst.submit());
  });

  it('pages and sorts a table like SQLite does, and marks the rows this episode changed', async () => {
    const server = serve();
    const { app } = server;
    const s = await openSession(app);
    const base = `/console/api/sessions/crm/${s.id}`;
    const made = await (
      await app.request(
        `${base}/calls`,
        post({
          tool_name: 'create_contact',
          arguments: { name: 'Aaron Aardvark', email: 'aaron@example.com' },
        }),
      )
    ).json();
    const inst = server.sessions.get(server.endpoints.get('crm')!, s.id)!.inst;
    const total = inst.query<{ n: number }>('SELECT count(*) AS n FROM contacts')[0].n;

    const page2 = await (
      await app.request(`${base}/tables/contacts?sort=name&dir=desc&offset=10&limit=10`)
    ).json();
    expect(page2).toMatchObject({
      table: 'contacts',
      total,
      offset: 10,
      limit: 10,
      sort: 'name',
      dir: 'desc',
    });
    const expected = inst.query(
      'SELECT * FROM contacts ORDER BY name DESC, id ASC LIMIT 10 OFFSET 10',
    );
    expect(page2.rows).toEqual(expected.map((r) => page2.columns.map((c: string) => r[c])));

    const first = await (
      await app.request(`${base}/tables/contacts?sort=name&dir=asc&limit=5`)
    ).json();
    expect(first.rows[0][first.columns.indexOf('name')]).toBe('Aaron Aardvark');
    expect(first.changed[0]).toBe('insert');
    expect(first.rows[0][0]).toBe(made.call.result.id);
    expect(first.changed.slice(1)).toEqual([null, null, null, null]);
  });

  it("refuses table and column names that are not the world's, instead of putting them in SQL", async () => {
    const { app } = serve();
    const s = await openSession(app);
    const base = `/console/api/sessions/crm/${s.id}/tables`;
    const table = await app.request(
      `${base}/${encodeURIComponent('contacts; DROP TABLE contacts')}`,
    );
    expect(table.status).toBe(404);
    expect((await table.json()).detail).toContain(
      'its tables are activities, companies, contacts, deals',
    );
    const sort = await app.request(
      `${base}/contacts?sort=${encodeURIComponent('name; DELETE FROM contacts')}`,
    );
    expect(sort.status).toBe(422);
    expect((await sort.json()).detail[0]).toMatchObject({ loc: ['query', 'sort'] });
    expect((await app.request(`${base}/contacts?dir=sideways`)).status).toBe(422);
    expect((await app.request(`${base}/contacts?limit=100000`)).status).toBe(422);
    expect((await (await app.request(`${base}/contacts?limit=1`)).json()).total).toBeGreaterThan(
      50,
    );
  });

  it('lets time pass in a session: its clock moves by the amount asked, and a bad amount is refused', async () => {
    const { app } = serve();
    const s = await openSession(app);
    const base = `/console/api/sessions/crm/${s.id}`;
    const before = (await (await app.request(base)).json()).session.clock.now as string;
    const res = await app.request(`${base}/advance`, post({ ms: 86_400_000 }));
    expect(res.status).toBe(200);
    const { session } = await res.json();
    expect(Date.parse(session.clock.now) - Date.parse(before)).toBe(86_400_000);
    const bad = await app.request(`${base}/advance`, post({ ms: -1 }));
    expect(bad.status).toBe(422);
  });

  it('forks a session into an independent one that keeps the history', async () => {
    const server = serve();
    const { app } = server;
    const s = await openSession(app, { world: 'crm', task: 'add_company' });
    const base = `/console/api/sessions/crm/${s.id}`;
    await app.request(
      `${base}/calls`,
      post({ tool_name: 'create_company', arguments: { name: 'Initech' } }),
    );
    const forked = await app.request(`${base}/fork`, post({}));
    expect(forked.status).toBe(201);
    const fork = (await forked.json()).session;
    expect(fork).toMatchObject({
      forked_from: s.id,
      call_count: 1,
      task: { id: 'add_company' },
      drivable: true,
    });
    await app.request(
      `/console/api/sessions/crm/${fork.id}/calls`,
      post({ tool_name: 'create_company', arguments: { name: 'Hooli' } }),
    );
    const names = async (id: string) =>
      (await (await app.request(`/console/api/sessions/crm/${id}/changes`)).json()).changes
        .map((c: { after: { name: string } }) => c.after.name)
        .sort();
    expect(await names(s.id)).toEqual(['Initech']);
    expect(await names(fork.id)).toEqual(['Hooli', 'Initech']);
    expect(
      (await (await app.request(`/console/api/sessions/crm/${fork.id}/timeline`)).json()).calls,
    ).toHaveLength(2);
    expect(server.sessions.size).toBe(2);
    const { sessions } = await (await app.request('/console/api/sessions')).json();
    expect(sessions.map((x: { id: string }) => x.id)).toEqual([s.id, fork.id]);
  });

  it('counts console sessions against the capacity, and closes them', async () => {
    const server = serve({ maxSessions: 1 });
    const { app } = server;
    const s = await openSession(app);
    const full = await app.request('/console/api/sessions', post({ world: 'crm' }));
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ active_sessions: 1, max_sessions: 1 });
    expect((await app.request(`/console/api/sessions/crm/${s.id}/fork`, post({}))).status).toBe(
      503,
    );
    const closed = await app.request(`/console/api/sessions/crm/${s.id}`, { method: 'DELETE' });
    expect(closed.status).toBe(200);
    expect(server.sessions.size).toBe(0);
    const gone = await app.request(`/console/api/sessions/crm/${s.id}/timeline`);
    expect(gone.status).toBe(404);
    expect((await gone.json()).detail).toContain('open a new one');
  });

  it('refuses bad resets with every problem, and leaves no session behind', async () => {
    const server = serve();
    const res = await server.app.request(
      '/console/api/sessions',
      post({ world: 'crm', task: 'add_lead', fixture: 'big_co', seed: -1 }),
    );
    expect(res.status).toBe(422);
    const detail = await res.json();
    expect(detail.detail[0]).toMatchObject({ loc: ['body', 'seed'] });
    expect(server.sessions.size).toBe(0);
    const mismatch = await server.app.request(
      '/console/api/sessions',
      post({ world: 'crm', task: 'add_lead', fixture: 'big_co' }),
    );
    expect(mismatch.status).toBe(422);
    expect((await mismatch.json()).detail[0]).toMatchObject({
      loc: ['body', 'fixture'],
      msg: 'task "add_lead" starts from fixture "small_startup"; omit fixture or pass fixture: "small_startup" (got "big_co")',
    });
    expect(server.sessions.size).toBe(0);
    const world = await server.app.request('/console/api/sessions', post({ world: 'nope' }));
    expect(world.status).toBe(404);
    expect((await world.json()).detail).toContain('the worlds are crm');
  });

  it('watches sessions of other clients without driving them, and forks them', async () => {
    const server = serve();
    const ep = server.endpoints.get('crm')!;
    const ws = new Session(
      randomUUID(),
      ep,
      'ws',
      crm.instance({ fixture: 'small_startup' }),
      randomUUID(),
    );
    server.sessions.add(ws);
    ws.inst.call('create_company', { name: 'Watched' });
    const base = `/console/api/sessions/crm/${ws.id}`;
    const view = (await (await server.app.request(base)).json()).session;
    expect(view).toMatchObject({ owner: 'ws', drivable: false, console: false, call_count: 1 });
    expect(
      (await (await server.app.request(`${base}/timeline`)).json()).calls[0].changes[0].after.name,
    ).toBe('Watched');
    for (const [path, init] of [
      ['/calls', post({ tool_name: 'pipeline_summary' })],
      ['/submit', post({})],
      ['', { method: 'DELETE' }],
    ] as const) {
      const res = await server.app.request(base + path, init);
      expect(res.status).toBe(409);
      expect((await res.json()).detail).toContain('can watch it but not drive it');
    }
    expect(ws.inst.callCount).toBe(1);
    const fork = (await (await server.app.request(`${base}/fork`, post({}))).json()).session;
    expect(fork).toMatchObject({
      owner: 'http',
      console: true,
      drivable: true,
      forked_from: ws.id,
      call_count: 1,
    });
    await server.app.request(
      `/console/api/sessions/crm/${fork.id}/calls`,
      post({ tool_name: 'create_company', arguments: { name: 'Experiment' } }),
    );
    expect(ws.inst.callCount).toBe(1);
    expect(ws.closed).toBe(false);
  });

  it('answers only loopback hosts unless told otherwise, and wants JSON bodies', async () => {
    const { app } = serve();
    const rebound = await app.request('http://evil.example/console/api/worlds');
    expect(rebound.status).toBe(403);
    expect((await rebound.json()).detail).toContain('Host "evil.example" is not allowed');
    const form = await app.request('/console/api/sessions', {
      method: 'POST',
      body: 'world=crm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const open = serve({ allowedHosts: ['*'] });
    expect((await open.app.request('http://evil.example/console/api/worlds')).status).toBe(200);
  });

  it('opens HTTP sessions that /step drives with their X-Session-Id, and shows those calls', async () => {
    const { app } = serve();
    const s = await openSession(app);
    const step = await app.request(
      '/crm/step',
      post(
        {
          action: {
            type: 'call_tool',
            tool_name: 'create_company',
            arguments: { name: 'Scripted' },
          },
        },
        { 'x-session-id': s.id },
      ),
    );
    expect(step.status).toBe(200);
    const { calls } = await (
      await app.request(`/console/api/sessions/crm/${s.id}/timeline`)
    ).json();
    expect(calls).toMatchObject([
      {
        index: 1,
        tool: 'create_company',
        ok: true,
        changes: [{ table: 'companies', op: 'insert', after: { name: 'Scripted' } }],
      },
    ]);
    expect(
      (await (await app.request(`/console/api/sessions/crm/${s.id}`)).json()).session.step_count,
    ).toBe(1);
  });

  it('says when a session is unknown, and what to do', async () => {
    const { app } = serve();
    const res = await app.request('/console/api/sessions/crm/nope/timeline');
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toContain('no open session "nope" in crm');
    const s = await openSession(app);
    const submit = await app.request(`/console/api/sessions/crm/${s.id}/submit`, post({}));
    expect(submit.status).toBe(422);
    expect(JSON.stringify(await submit.json())).toContain('this session has no task to grade');
  });
});
