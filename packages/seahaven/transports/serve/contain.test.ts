import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, z } from '../../core/index.ts';
import { startServer, type RunningServer, type ServerOptions } from './index.ts';
import { spawnServe } from './test-fixtures/spawn-serve.ts';
import { WireProbe, callFrame, wsUrlOf } from './wire-probe.ts';

// No client ends the server. Before: one key's episode filled its database, SQLite dropped the episode's transaction,
// and the idle reaper's hibernation threw `cannot commit - no transaction is active` from its timer; nothing caught it,
// and the process exited with every session. Now the episode that hit its limit ends alone, with resource_exhausted;
// the reaper, hibernation and socket callbacks log their own failures and go on; and `seahaven serve` contains
// whatever escapes anyway.

const ledger = defineWorld({
  name: 'ledger',
  version: '1',
  schema:
    'CREATE TABLE entries (id INTEGER PRIMARY KEY, note TEXT NOT NULL) STRICT; CREATE TABLE scratch (id INTEGER PRIMARY KEY, pad TEXT NOT NULL) STRICT;',
  // Writes to a table without capture triggers take no statement journal: SQLITE_FULL there undoes the whole episode.
  untracked: ['scratch'],
  tools: [
    defineTool({
      name: 'add',
      description: 'Add an entry.',
      input: z.object({ note: z.string().max(100) }),
      run: (ctx, { note }) =>
        Number(ctx.db.run('INSERT INTO entries (note) VALUES (?)', note).lastInsertRowid),
    }),
    defineTool({
      name: 'pad',
      description: 'Write n rows of padding.',
      input: z.object({ n: z.number().int().max(100_000) }),
      run(ctx, { n }) {
        for (let i = 0; i < n; i++)
          ctx.db.run('INSERT INTO scratch (pad) VALUES (?)', 'x'.repeat(2000));
        return n;
      },
    }),
  ],
});

/** A server, closed when the test ends. Each test has its own, so the tests run at once. */
async function started(
  onTestFinished: TestContext['onTestFinished'],
  options: ServerOptions,
): Promise<RunningServer> {
  const server = await startServer(options);
  onTestFinished(() => server.close());
  return server;
}

describe.concurrent('one episode filling its database', () => {
  it('ends that episode only, with resource_exhausted; hibernation of it does not throw, and a reset starts afresh', async ({
    expect,
    onTestFinished,
  }) => {
    const logged: string[] = [];
    const server = await started(onTestFinished, {
      worlds: [ledger],
      port: 0,
      maxDbGrowthBytes: 1024 * 1024,
      hibernateAfterMs: 50,
      logger: (l) => logged.push(l),
    });
    const attacker = await WireProbe.open(wsUrlOf(server.url));
    const bystander = await WireProbe.open(wsUrlOf(server.url));
    expect(
      (await attacker.ask(callFrame('add', { note: 'first' }))).data.observation.error,
    ).toBeNull();
    const full = await attacker.ask(callFrame('pad', { n: 5000 }));
    expect(full.data.metadata.seahaven_error).toMatchObject({
      code: 'resource_exhausted',
      message: expect.stringContaining('this episode ended'),
      details: { option: '--max-episode-db-mb' },
    });
    const state = await attacker.ask({ type: 'state' });
    expect(state).toMatchObject({
      type: 'error',
      data: {
        code: 'RESOURCE_EXHAUSTED',
        message: expect.stringContaining('Reset to start a new episode'),
        episode_ended: true,
      },
    });
    // The reaper hibernates idle sessions every few tens of milliseconds: the ended episode's must not throw.
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await bystander.ask(callFrame('add', { note: 'still here' }))).data.observation.result.data,
    ).toBe(1);
    expect((await attacker.ask({ type: 'reset', data: {} })).type).toBe('observation');
    expect(
      (await attacker.ask(callFrame('add', { note: 'again' }))).data.observation.result.data,
    ).toBe(1);
    expect(logged).toEqual([]);
    await attacker.close();
    await bystander.close();
  });
});

describe.concurrent('failures outside any request', () => {
  it('the reaper logs a session it cannot hibernate or end, and goes on reaping and serving the others', async ({
    expect,
    onTestFinished,
  }) => {
    const logged: string[] = [];
    const server = await started(onTestFinished, {
      worlds: [crm],
      port: 0,
      hibernateAfterMs: 40,
      idleTimeoutMs: 400,
      logger: (l) => logged.push(l),
    });
    const broken = await WireProbe.open(wsUrlOf(server.url));
    const other = await WireProbe.open(wsUrlOf(server.url));
    await broken.ask(callFrame('list_companies', {}));
    await other.ask(callFrame('list_companies', {}));
    const session = [...server.sessions.list()][0];
    const inst = session.inst as unknown as { hibernate(): void; destroy(): void };
    const destroy = inst.destroy.bind(inst);
    inst.hibernate = () => {
      throw new Error('injected hibernation failure');
    };
    inst.destroy = () => {
      destroy();
      throw new Error('injected failure ending a session');
    };
    await new Promise((r) => setTimeout(r, 200));
    expect(logged.join('\n')).toContain('injected hibernation failure');
    expect(logged.join('\n')).toContain('contained; the server goes on');
    expect((await other.ask(callFrame('list_companies', {}))).data.observation.error).toBeNull();
    // Past the idle timeout the reaper ends both; the failing destroy is logged, the socket still closed.
    expect((await broken.closed).code).toBe(1000);
    expect((await other.closed).code).toBe(1000);
    expect(logged.join('\n')).toContain('injected failure ending a session');
    expect(server.sessions.size).toBe(0);
    const after = await WireProbe.open(wsUrlOf(server.url));
    expect((await after.ask(callFrame('list_companies', {}))).type).toBe('observation');
    await after.close();
  });

  it('a socket whose close callback fails is logged; the other sessions go on', async ({
    expect,
    onTestFinished,
  }) => {
    const logged: string[] = [];
    const server = await started(onTestFinished, {
      worlds: [crm],
      port: 0,
      logger: (l) => logged.push(l),
    });
    const leaving = await WireProbe.open(wsUrlOf(server.url));
    const staying = await WireProbe.open(wsUrlOf(server.url));
    await leaving.ask({ type: 'state' });
    const session = [...server.sessions.list()][0];
    server.sessions.onSessionEnd((s) => {
      if (s === session) throw new Error('injected failure in a close callback');
    });
    await leaving.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(logged.join('\n')).toContain('injected failure in a close callback');
    expect((await staying.ask(callFrame('list_companies', {}))).data.observation.error).toBeNull();
    await staying.close();
  });

  it('seahaven serve logs an uncaught exception and an unhandled rejection, and keeps serving', async ({
    expect,
  }) => {
    const inject = fileURLToPath(new URL('./test-fixtures/inject-uncaught.mjs', import.meta.url));
    const serve = await spawnServe(['crm'], { nodeArgs: ['--import', inject] });
    try {
      const ws = await WireProbe.open(wsUrlOf(serve.url));
      serve.child.kill('SIGUSR2');
      for (let i = 0; i < 100 && !serve.stderr().includes('injected unhandled rejection'); i++)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
      expect(serve.stderr()).toContain(
        'uncaught exception (contained; the server goes on): Error: injected failure in a timer',
      );
      expect(serve.stderr()).toContain(
        'unhandled promise rejection (contained; the server goes on): Error: injected unhandled rejection',
      );
      expect((await ws.ask(callFrame('list_companies', {}))).type).toBe('observation');
      expect((await fetch(`${serve.url}/health`)).status).toBe(200);
      await ws.close();
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
    }
  });
});
