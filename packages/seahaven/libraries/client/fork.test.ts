import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { startServer, type RunningServer } from '../../transports/serve/index.ts';
import { SeahavenClient } from './index.ts';
import { rejection } from './test-rejection.ts';

// env.grade() and env.fork(): grades on demand, and branches of a live episode on sessions of their own.

const ADA = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@acmerobotics.example',
  company_id: 'cmp_acme',
  title: 'Head of Research',
};

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, logger: () => {} });
});
afterAll(async () => {
  await server.close();
});

/** What the branch-dependent part of a state is: everything but the episode id. */
const withoutId = <T extends { episode_id: string }>({ episode_id: _, ...rest }: T) => rest;

describe('env.grade()', () => {
  it('equals the final submit reward when nothing changed in between, and does not end the episode', async () => {
    await using env = await SeahavenClient.connect(server.url);
    await env.reset({ task: 'dana_signed', seed: 5 });
    expect((await env.grade()).reward).toBe(0);
    await env.call('update_deal', { id: 'deal_acme_fleet', stage: 'won' });
    const mid = await env.grade();
    expect(mid.reward).toBeGreaterThan(0);
    expect(mid.reward).toBeLessThan(1);
    expect(mid.passed).toBe(false);
    expect(mid.criteria.map((c) => c.id)).toContain('update.deals');
    expect(JSON.stringify(mid)).not.toContain('deal_acme_fleet'); // the agent view: no targets
    expect(await env.grade()).toEqual(mid); // grading changes nothing
    const submitted = await env.submit();
    expect(submitted.reward).toBe(mid.reward);
    expect(submitted.grade).toEqual(mid);
    expect(submitted.done).toBe(true);
  });

  it('is refused without a task', async () => {
    await using env = await SeahavenClient.connect(server.url);
    await env.reset();
    const e = await rejection(env.grade());
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.message).toContain('this session has no task to grade');
  });
});

describe('env.fork()', () => {
  it('keeps the task: the branch starts where the episode was, prompt, grade and step count included', async () => {
    await using env = await SeahavenClient.connect(server.url);
    const start = await env.reset({ task: 'add_lead', seed: 2, episode_id: 'trunk' });
    await env.call('create_contact', { ...ADA, title: 'Researcher' });
    const before = await env.grade();
    await using branch = await env.fork();
    const state = await branch.state();
    expect(withoutId(state)).toEqual(withoutId(await env.state()));
    expect(state).toMatchObject({ task: 'add_lead', step_count: 3 });
    expect(state.episode_id).not.toBe('trunk');
    expect(await branch.grade()).toEqual(before);
    const id = (state.changes[0].key as { id: string }).id;
    await branch.call('update_contact', { id, title: 'Head of Research' });
    expect((await branch.submit()).reward).toBe(1);
    expect((await env.submit()).reward).toBe(before.reward);
    expect(start.observation.task?.prompt).toContain('Ada Lovelace');
  });

  it('gives branches of one prefix lives of their own', async () => {
    await using env = await SeahavenClient.connect(server.url);
    await env.reset({ task: 'add_lead', seed: 4 });
    await env.call('search_contacts', { query: 'acme' });
    const prefix = await env.state();
    await using good = await env.fork();
    await using bad = await env.fork();
    await good.call('create_contact', ADA);
    await bad.call('create_contact', { ...ADA, email: 'ada@elsewhere.example' });
    await bad.call('create_company', { name: 'Stray Co' });
    expect((await good.grade()).reward).toBe(1);
    expect((await bad.grade()).reward).toBeLessThan(1);
    expect((await good.state()).changes).toHaveLength(1);
    expect((await bad.state()).changes).toHaveLength(2);
    expect((await env.state()).changes).toEqual(prefix.changes); // the trunk is untouched
    expect((await env.grade()).reward).toBe(0);
  });

  it('replays byte for byte: the same calls from one fork give identical states, ids and clock included', async () => {
    await using env = await SeahavenClient.connect(server.url);
    await env.reset({ task: 'retrofit_deal', seed: 11, clock: 'tick' });
    await env.call('create_company', { name: 'Prefix Co' }); // moves the id stream and the clock before the fork
    const a = await env.fork();
    const b = await env.fork();
    const suffix = async (c: SeahavenClient) => {
      const deal = await c.call<{ id: string }>('create_deal', {
        company_id: 'cmp_acme',
        contact_id: 'con_dana',
        title: 'Robot arm retrofit',
        amount_cents: 2_500_000,
        close_date: '2026-08-31',
      });
      if (!deal.ok) throw new Error(deal.error.message);
      await c.call('log_activity', {
        contact_id: 'con_dana',
        deal_id: deal.result.id,
        kind: 'call',
        subject: 'Retrofit scoping',
      });
      await c.call('create_contact', { name: 'Random Id', email: 'random.id@example.com' });
      const { step_count, ...doc } = withoutId(await c.state());
      return [JSON.stringify(doc), step_count] as const;
    };
    // Both branches and the trunk itself play the same calls after the fork.
    const [[sa, na], [sb, nb], [trunk, nt]] = await Promise.all([
      suffix(a),
      suffix(b),
      suffix(env),
    ]);
    expect(sa).toBe(sb);
    expect(sa).toBe(trunk);
    // Each fork is a step of the trunk, and each branch carries the count it was forked at.
    expect([na, nb, nt]).toEqual([2 + 3, 3 + 3, 3 + 3]);
    expect(JSON.parse(sa).changes.map((c: { table: string }) => c.table)).toEqual([
      'activities',
      'companies',
      'contacts',
      'deals',
    ]);
    expect(await a.grade()).toEqual(await env.grade());
    expect(await b.grade()).toEqual(await env.grade());
    await Promise.all([a.close(), b.close()]);
  });

  it('hands out tokens that work once, on any connection, and expire', async () => {
    const quick = await startServer({ worlds: [crm], port: 0, forkTtlMs: 150, logger: () => {} });
    try {
      await using env = await SeahavenClient.connect(quick.url);
      await env.reset({ task: 'add_lead' });
      const held = await env.forkToken();
      expect(held.expires_in_s).toBe(0.15);
      await using other = await SeahavenClient.connect(quick.url);
      const adopted = await other.reset({ fork_token: held.token });
      expect(adopted.observation.task?.id).toBe('add_lead');
      expect(adopted.observation.forked_from).toBe((await env.state()).episode_id);
      expect((await rejection(other.reset({ fork_token: held.token }))).message).toContain(
        'fork token already used',
      );

      const stale = await env.forkToken();
      await new Promise((r) => setTimeout(r, 300));
      const e = await rejection(other.reset({ fork_token: stale.token }));
      expect(e.code).toBe('VALIDATION_ERROR');
      expect(e.message).toContain('fork token expired');
      expect(quick.sessions.heldForks).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it('fails without leaving a connection open when the server is full', async () => {
    const full = await startServer({ worlds: [crm], port: 0, maxSessions: 1, logger: () => {} });
    try {
      await using env = await SeahavenClient.connect(full.url);
      await env.reset();
      const e = await rejection(env.fork());
      expect(e.code).toBe('CAPACITY_REACHED');
      expect(full.sessions.size).toBe(1);
      expect(full.sessions.heldForks).toBe(0);
      expect((await env.state()).step_count).toBe(0);
    } finally {
      await full.close();
    }
  });
});
