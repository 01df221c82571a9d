import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { createApp } from '../../transports/serve/index.ts';

// The call log kept every result: 2,000 reads of a 71 KB list added 155 MiB to a session. It keeps a bounded amount of
// outcomes (maxCallLogBytes, default 8 MiB); the change history is kept apart and stays whole, so grading, changes()
// and a replay from the log's arguments are what they were.

describe('a bounded call log', () => {
  it('drops old results but keeps every call and the whole change history; a replay of its arguments gives the same changes', () => {
    using inst = crm.instance({ fixture: 'small_startup', seed: 3, maxCallLogBytes: 128 * 1024 });
    for (let i = 0; i < 40; i++) {
      expect(inst.call('create_company', { name: `Acme ${i}` }).ok).toBe(true);
      expect(inst.call('list_contacts', { limit: 100 }).ok).toBe(true);
    }
    const log = inst.callLog();
    expect(log).toHaveLength(80);
    expect(log.filter((e) => e.result_dropped).length).toBeGreaterThan(40);
    expect(log[0]).toMatchObject({
      index: 1,
      tool: 'create_company',
      args: { name: 'Acme 0' },
      ok: true,
      result_dropped: true,
      result_bytes: expect.any(Number),
    });
    expect(log.at(-1)).toMatchObject({
      index: 80,
      tool: 'list_contacts',
      result: expect.anything(),
    });
    expect(inst.changeLog().filter((c) => c.table === 'companies')).toHaveLength(40);

    using again = crm.instance({ fixture: 'small_startup', seed: 3 });
    for (const e of log) again.call(e.tool, e.args);
    expect(again.changes()).toEqual(inst.changes());
    expect(again.changeLog()).toEqual(inst.changeLog());
    // A fork carries the log as it is, drops and bound included.
    using fork = inst.fork();
    expect(fork.callLog()).toEqual(log);
  });

  it('refuses a bound that is not a whole number of bytes, naming the option', () => {
    expect(() => crm.instance({ fixture: 'small_startup', maxCallLogBytes: -1 })).toThrow(
      /maxCallLogBytes must be a whole number of bytes >= 0/,
    );
    expect(() => createApp({ worlds: [crm], maxCallLogBytes: 1.5 })).toThrow(/maxCallLogBytes/);
  });

  it('a server passes its bound to every session', async () => {
    const seahaven = createApp({ worlds: [crm], maxCallLogBytes: 32 * 1024 });
    const post = (body: unknown) => ({
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    await seahaven.app.request('/reset', post({ fixture: 'small_startup' }));
    for (let i = 0; i < 20; i++)
      await seahaven.app.request(
        '/step',
        post({
          action: { type: 'call_tool', tool_name: 'list_contacts', arguments: { limit: 100 } },
        }),
      );
    const [session] = [...seahaven.sessions.list()];
    const log = session.inst.callLog();
    expect(log).toHaveLength(20);
    expect(log.filter((e) => !e.result_dropped).length).toBeLessThan(10);
    seahaven.sessions.endAll('shutdown');
  });
});
