import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { ResetGroups } from './reset-groups.ts';
import { serveCurricula, startServer, type RunningServer, type ServedCurricula } from './index.ts';
import { WireProbe, wsUrlOf } from './wire-probe.ts';

// Curriculum reset groups: a GRPO group's `group_size` resets share one draw (task and seed), every member's submit
// is recorded in the run, and the group then expires.

let served: ServedCurricula;
let server: RunningServer;
beforeAll(async () => {
  served = serveCurricula({ worlds: [crm], runsDb: ':memory:' });
  await served.ready;
  server = await startServer({
    worlds: [crm],
    port: 0,
    hooks: served.hooks,
    extend: served.extend,
    logger: () => {},
  });
});
afterAll(async () => {
  await server.close();
  await served.close();
});

const progress = async (run: string) =>
  (await fetch(`${server.url}/curricula/crm-basics/runs/${run}`)).json();
const reset = (p: WireProbe, data: Record<string, unknown>) =>
  p.ask({ type: 'reset', data: { curriculum: 'crm-basics', ...data } });

describe('reset groups', () => {
  it('give the group_size members of a group one task and seed, record each submit, then draw anew', async () => {
    const probes = await Promise.all(
      Array.from({ length: 5 }, () => WireProbe.open(wsUrlOf(server.url))),
    );
    const group = { run_id: 'grpo', group: 'step-0/prompt-0', group_size: 4 };
    const starts = [];
    for (const [i, p] of probes.slice(0, 4).entries())
      starts.push(await reset(p, { ...group, ...(i === 0 ? { seed: 11 } : { seed: 99 }) }));
    const tasks = starts.map((r) => r.data.observation.task.id);
    expect(new Set(tasks).size).toBe(1);
    expect(starts.map((r) => r.data.observation.seed)).toEqual([11, 11, 11, 11]);
    expect(starts.map((r) => r.data.metadata.curriculum.group)).toEqual(
      [0, 1, 2, 3].map((member) => ({ key: 'step-0/prompt-0', member, size: 4 })),
    );
    const tickets = starts.map((r) => r.data.metadata.curriculum.ticket);
    expect(new Set(tickets).size).toBe(4);
    // Only the first drew: the scheduler moved once.
    expect((await progress('grpo')).episodes).toMatchObject({ issued: 4, pending: 4 });
    for (const p of probes.slice(0, 4)) {
      const done = await p.ask({ type: 'step', data: { type: 'submit' } });
      expect(done.data.done).toBe(true);
      expect(done.data.metadata.curriculum.ticket).toBeDefined();
    }
    expect((await progress('grpo')).episodes).toMatchObject({ issued: 4, recorded: 4, pending: 0 });
    // The group is full: the same key starts a new group, with its own draw.
    const fifth = await reset(probes[4], group);
    expect(fifth.data.metadata.curriculum.group).toEqual({
      key: 'step-0/prompt-0',
      member: 0,
      size: 4,
    });
    for (const p of probes) await p.close();
  });

  it("keep groups of different keys and runs apart, and refuse a group_size that differs from the group's", async () => {
    const a = await WireProbe.open(wsUrlOf(server.url));
    const b = await WireProbe.open(wsUrlOf(server.url));
    const first = await reset(a, { run_id: 'apart', group: 'g', group_size: 2 });
    const other = await reset(b, { run_id: 'apart-2', group: 'g', group_size: 2 });
    expect(other.data.metadata.curriculum.group.member).toBe(0);
    const wrong = await reset(b, { run_id: 'apart', group: 'g', group_size: 3 });
    expect(wrong.data.code).toBe('VALIDATION_ERROR');
    expect(wrong.data.errors[0]).toMatchObject({ loc: ['data', 'group_size'] });
    expect(wrong.data.errors[0].msg).toContain('has group_size 2');
    const second = await reset(b, { run_id: 'apart', group: 'g', group_size: 2 });
    expect(second.data.observation.task.id).toBe(first.data.observation.task.id);
    expect(second.data.metadata.curriculum.group.member).toBe(1);
    await a.close();
    await b.close();
  });

  it('check group and group_size at reset', async () => {
    const p = await WireProbe.open(wsUrlOf(server.url));
    const cases: [Record<string, unknown>, string][] = [
      [{ curriculum: 'crm-basics', group: 'g' }, 'group_size'],
      [{ curriculum: 'crm-basics', group_size: 4 }, 'group'],
      [{ curriculum: 'crm-basics', group: 'g', group_size: 0 }, 'group_size'],
      [{ curriculum: 'crm-basics', group: 'g', group_size: 1025 }, 'group_size'],
      [{ curriculum: 'crm-basics', group: 'x'.repeat(129), group_size: 2 }, 'group'],
      [{ task: 'add_lead', group: 'g', group_size: 2 }, 'group'],
    ];
    for (const [data, field] of cases) {
      const r = await p.ask({ type: 'reset', data });
      expect(r.data.code, JSON.stringify(data)).toBe('VALIDATION_ERROR');
      expect(
        r.data.errors.map((e: { loc: string[] }) => e.loc[1]),
        JSON.stringify(data),
      ).toContain(field);
    }
    await p.close();
  });
});

describe('ResetGroups', () => {
  it('drops groups unused for the TTL, and the oldest past the bound', async () => {
    let now = 0;
    const groups = new ResetGroups({ ttlMs: 1000, maxGroups: 2, now: () => now });
    let draws = 0;
    const draw = () => ({
      ticket: `c/r/${draws++}`,
      curriculum: 'c',
      runId: 'r',
      episode: draws,
      task: 't',
      fixture: 'f',
      stage: { index: 0, name: 's' },
      kind: 'current' as const,
    });
    const repeat = (ticket: string) => ({ ...draw(), ticket: `${ticket}+` });
    groups.join('a', 3, 1, draw, repeat);
    groups.join('b', 3, 1, draw, repeat);
    expect(groups.size).toBe(2);
    groups.join('c', 3, 1, draw, repeat);
    expect(groups.size).toBe(2); // 'a' was dropped
    expect(draws).toBe(3);
    const again = await groups.join('a', 3, 1, draw, repeat);
    expect(again.member).toBe(0);
    now = 2000;
    groups.join('d', 3, 1, draw, repeat);
    expect(groups.size).toBe(1);
  });
});
