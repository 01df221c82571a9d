import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { SeahavenClient } from '../../libraries/client/index.ts';
import { startServer, type RunningServer } from './index.ts';
import { recordGold } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// `submit` (and `grade`) with `trace: true` answers the episode's call log, change log and net changes beside the
// whole grade, to the holder of the grader token only; anyone else is refused and the episode goes on untouched.
const SECRET = 'trace-test-secret';

let server: RunningServer;
let plain: RunningServer;
const wsUrl = (s: RunningServer) => `${s.url.replace('http', 'ws')}/ws`;
const post = (
  s: RunningServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, graderToken: SECRET });
  plain = await startServer({ worlds: [crm], port: 0 });
});
afterAll(async () => {
  await server.close();
  await plain.close();
});

/** The gold episode of `task` played in process: what the trace must hold. */
function inProcess(task: string, seed: number) {
  const gold = recordGold(crm, task, seed);
  const inst = crm.instance({ task, seed });
  try {
    for (const c of gold.calls) inst.call(c.tool, c.args);
    return {
      calls: gold.calls,
      grade: inst.submit(),
      trace: {
        world: { name: crm.name, version: crm.version },
        fixture_sha256: inst.fixtureSha256,
        calls: inst.callLog(),
        change_log: inst.changeLog(),
        changes: inst.changes(),
      },
    };
  } finally {
    inst.destroy();
  }
}

describe('the episode trace', () => {
  it('submit with trace answers the whole grade and the call log, change log and net changes as in process, in one reply', async () => {
    const want = inProcess('add_lead', 3);
    expect(want.trace.change_log.length).toBeGreaterThan(0);
    await using env = await SeahavenClient.connect(server.url);
    await env.reset({ task: 'add_lead', seed: 3, grader_token: SECRET });
    for (const c of want.calls) await env.call(c.tool, c.args);
    const r = await env.submit({ trace: true });
    expect(r.done).toBe(true);
    expect(r.grade).toEqual(want.grade);
    expect(r.trace).toEqual(want.trace);
  });

  it('grade with trace answers it too, and the episode goes on', async () => {
    const want = inProcess('add_company', 0);
    const p = await WireProbe.open(wsUrl(server));
    try {
      await p.ask({ type: 'reset', data: { task: 'add_company', grader_token: SECRET } });
      for (const c of want.calls)
        await p.ask({
          type: 'step',
          data: { type: 'call_tool', tool_name: c.tool, arguments: c.args },
        });
      const r = (await p.ask({ type: 'step', data: { type: 'grade', trace: true } })).data;
      expect(r.done).toBe(false);
      expect(r.observation.trace).toEqual(want.trace);
      expect(
        (await p.ask({ type: 'step', data: { type: 'submit' } })).data.observation,
      ).not.toHaveProperty('trace');
    } finally {
      await p.close();
    }
  });

  it('without the grader token it is refused naming the fix, nothing graded or counted', async () => {
    for (const [s, fix] of [
      [server, 'reset with grader_token'],
      [plain, 'this server has no grader token'],
    ] as const) {
      const p = await WireProbe.open(wsUrl(s));
      try {
        await p.ask({ type: 'reset', data: { task: 'add_lead' } });
        await p.ask({
          type: 'step',
          data: { type: 'call_tool', tool_name: 'list_contacts', arguments: {} },
        });
        for (const type of ['submit', 'grade']) {
          const refused = await p.ask({ type: 'step', data: { type, trace: true } });
          expect(refused.type).toBe('error');
          expect(refused.data.code).toBe('VALIDATION_ERROR');
          expect(refused.data.errors[0]).toMatchObject({ loc: ['data', 'trace'] });
          expect(refused.data.errors[0].msg).toContain(fix);
        }
        expect((await p.ask({ type: 'state' })).data).toMatchObject({
          call_count: 1,
          step_count: 1,
        });
        const done = (await p.ask({ type: 'step', data: { type: 'submit' } })).data;
        expect(done.done).toBe(true);
        expect(done.observation).not.toHaveProperty('trace');
      } finally {
        await p.close();
      }
    }
  });

  it('over HTTP: the grader token header on the /step opens it for that step; a bad trace value is refused', async () => {
    const want = inProcess('add_lead', 0);
    const sid = { 'x-session-id': 'trace-http' };
    await post(server, '/reset', { task: 'add_lead' }, sid);
    for (const c of want.calls)
      await post(
        server,
        '/step',
        { action: { type: 'call_tool', tool_name: c.tool, arguments: c.args } },
        sid,
      );
    const refused = await post(server, '/step', { action: { type: 'submit', trace: true } }, sid);
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail[0]).toMatchObject({ loc: ['body', 'action', 'trace'] });
    const bad = await post(
      server,
      '/step',
      { action: { type: 'submit', trace: 'yes' } },
      { ...sid, 'x-seahaven-grader-token': SECRET },
    );
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0]).toMatchObject({
      loc: ['body', 'action', 'trace'],
      msg: 'trace must be true or false',
    });
    const r = await (
      await post(
        server,
        '/step',
        { action: { type: 'submit', trace: true } },
        { ...sid, 'x-seahaven-grader-token': SECRET },
      )
    ).json();
    expect(r.observation.grade).toEqual(want.grade);
    expect(r.observation.trace).toEqual(want.trace);
  });
});
