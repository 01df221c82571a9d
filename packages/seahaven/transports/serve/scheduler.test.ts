import { describe, expect, it } from 'vitest';
import type { Instance } from '../../core/instance.ts';
import type { ReplySocket } from './outbox.ts';
import { FairScheduler } from './scheduler.ts';
import { Session, SessionRegistry, type JobResult, type SessionEndpoint } from './sessions.ts';

type FakeSession = Session & { answer: ((text: string) => JobResult) | null };
/** Stands for a server's endpoint: it answers each session's frames with the session's `answer`. */
const endpoint: SessionEndpoint = {
  name: 'fake',
  answerFrame: (s, text) => (s as FakeSession).answer?.(text),
};
const fakeSession = (id: string): FakeSession =>
  Object.assign(new Session(id, endpoint, 'ws', { destroy() {} } as Instance, id), {
    answer: null,
  });
/** A socket that hands every reply written to it to `record`. */
const socket = (record: (reply: string) => void): ReplySocket => ({
  readyState: 1,
  send: (data) => record(String(data)),
});

/** Record which session ran each frame job. */
function recorder(sessions: FakeSession[], log: string[]): void {
  for (const s of sessions) s.answer = (text) => void log.push(`${s.id}:${text}`);
}

/**
 * A job of 50 slices, each logged as `heavy:<n>`; during its third, a frame arrives on `light` (as from its socket,
 * between turns).
 */
function fiftySlices(scheduler: FairScheduler, light: FakeSession, log: string[]) {
  return (): JobResult => {
    let slices = 0;
    return {
      resume: () => {
        slices++;
        if (slices === 3) setImmediate(() => scheduler.push(light, 'call'));
        log.push(`heavy:${slices}`);
        return slices === 50;
      },
    };
  };
}

describe('FairScheduler', () => {
  it('runs each session in order and takes turns, so a session with a long queue cannot starve the others', async () => {
    const scheduler = new FairScheduler();
    const greedy = fakeSession('g');
    const others = ['a', 'b', 'c'].map(fakeSession);
    const log: string[] = [];
    recorder([greedy, ...others], log);
    for (let i = 0; i < 100; i++) scheduler.push(greedy, String(i));
    for (const s of others) scheduler.push(s, '0');
    await scheduler.idle();
    expect(log.slice(0, 4)).toEqual(['g:0', 'a:0', 'b:0', 'c:0']);
    expect(log.filter((l) => l.startsWith('g:'))).toEqual(
      Array.from({ length: 100 }, (_, i) => `g:${i}`),
    );
  });

  it('holds the replies of a turn and writes them together, in order, once the turn yields', async () => {
    const scheduler = new FairScheduler();
    const sessions = ['a', 'b', 'c'].map(fakeSession);
    const wire: string[] = [];
    let ran = 0;
    for (const s of sessions) {
      s.answer = (text) => {
        ran++;
        // Nothing has been written while the turn still runs frames.
        expect(wire).toEqual([]);
        scheduler.outbox.send(
          socket((t) => wire.push(t)),
          `${s.id}:${text}`,
        );
      };
    }
    for (const s of sessions) scheduler.push(s, '1');
    scheduler.push(sessions[0], '2');
    await scheduler.idle();
    expect(ran).toBe(4);
    expect(wire).toEqual(['a:1', 'b:1', 'c:1', 'a:2']);
    // Outside a turn a write goes out at once.
    scheduler.outbox.send(
      socket((t) => wire.push(t)),
      'now',
    );
    expect(wire.at(-1)).toBe('now');
  });

  it('does not hold a reply longer than flushMs while a turn goes on', async () => {
    const scheduler = new FairScheduler(50, 1);
    const fast = fakeSession('fast');
    const slow = fakeSession('slow');
    // The order of events, not their times: each slow job outlasts flushMs (1 ms) however loaded the machine is.
    const events: string[] = [];
    fast.answer = () => {
      scheduler.outbox.send(
        socket(() => events.push('reply written')),
        'reply',
      );
    };
    slow.answer = () => {
      events.push('slow job');
      const until = performance.now() + 20;
      while (performance.now() < until);
    };
    scheduler.push(fast, 'x');
    scheduler.push(slow, 'y');
    scheduler.push(slow, 'y');
    await scheduler.idle();
    // Written after the first slow job, not after the whole turn.
    expect(events).toEqual(['slow job', 'reply written', 'slow job']);
  });

  it('sends held replies before a job of a session whose jobs usually take long', async () => {
    const scheduler = new FairScheduler(100, 0.5);
    const fast = fakeSession('fast');
    const slow = fakeSession('slow');
    const delays: number[] = [];
    fast.answer = () => {
      const at = performance.now();
      scheduler.outbox.send(
        socket(() => delays.push(performance.now() - at)),
        'reply',
      );
    };
    slow.answer = () => {
      const until = performance.now() + 5;
      while (performance.now() < until);
    };
    for (let i = 0; i < 3; i++) scheduler.push(fast, 'x');
    for (let i = 0; i < 3; i++) scheduler.push(slow, 'y');
    await scheduler.idle();
    expect(delays).toHaveLength(3);
    // The first reply waits for one slow job (nothing is known about that session yet); later ones go out before it.
    expect(delays[0]).toBeGreaterThanOrEqual(4);
    expect(delays[1]).toBeLessThan(2);
    expect(delays[2]).toBeLessThan(2);
  });

  it('gives a closed-loop client as many turns as a greedy session whose jobs are slow', async () => {
    const scheduler = new FairScheduler(1);
    const greedy = fakeSession('greedy');
    const client = fakeSession('client');
    const ran = { greedy: 0, client: 0 };
    const spin = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    greedy.answer = () => {
      ran.greedy++;
      spin(2);
    };
    // Like a client waiting for each reply before it sends the next frame, which arrives on a later turn of the loop.
    client.answer = () => {
      ran.client++;
      if (ran.greedy < 30) setTimeout(() => scheduler.push(client, 'next'), 0);
    };
    for (let i = 0; i < 30; i++) scheduler.push(greedy, 'slow');
    scheduler.push(client, 'first');
    await scheduler.idle();
    await new Promise((r) => setTimeout(r, 5));
    await scheduler.idle();
    expect(ran.greedy).toBe(30);
    expect(ran.client).toBeGreaterThanOrEqual(27);
  });

  it('holds a session with an asynchronous job until it settles, while other sessions keep running', async () => {
    const scheduler = new FairScheduler();
    const slow = fakeSession('slow');
    const fast = fakeSession('fast');
    const log: string[] = [];
    let release!: () => void;
    slow.answer = (text) => {
      log.push(`slow:${text}:start`);
      if (text === '0')
        return new Promise<void>((r) => (release = r)).then(() => void log.push('slow:0:end'));
      log.push(`slow:${text}:end`);
    };
    fast.answer = (text) => void log.push(`fast:${text}`);
    scheduler.push(slow, '0');
    scheduler.push(slow, '1');
    for (let i = 0; i < 3; i++) scheduler.push(fast, String(i));
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['slow:0:start', 'fast:0', 'fast:1', 'fast:2']);
    release();
    await scheduler.idle();
    expect(log.slice(4)).toEqual(['slow:0:end', 'slow:1:start', 'slow:1:end']);
  });

  it('yields to I/O between turns when work exceeds the budget', async () => {
    const scheduler = new FairScheduler(1);
    const s = fakeSession('s');
    let turns = 0;
    let lastTick = -1;
    let tick = 0;
    const timer = setInterval(() => tick++, 0);
    s.answer = () => {
      const until = performance.now() + 0.3;
      while (performance.now() < until);
      if (tick !== lastTick) {
        turns++;
        lastTick = tick;
      }
    };
    for (let i = 0; i < 40; i++) scheduler.push(s, 'x');
    await scheduler.idle();
    clearInterval(timer);
    expect(turns).toBeGreaterThan(2);
  });

  it('answers waiting HTTP jobs when their session ends instead of leaving them hanging', async () => {
    const registry = new SessionRegistry({ maxSessions: 10, idleTimeoutMs: 0 });
    const scheduler = new FairScheduler();
    const s = fakeSession('s');
    registry.add(s);
    let release!: () => void;
    s.answer = () => new Promise<void>((r) => (release = r));
    scheduler.push(s, 'busy');
    const outcome = new Promise<string>((resolve) =>
      scheduler.push(s, () => resolve(s.closed ? 'told closed' : 'ran')),
    );
    await new Promise((r) => setTimeout(r, 5));
    registry.end(s, 'shutdown');
    expect(await outcome).toBe('told closed');
    release();
    await scheduler.idle();
    expect(registry.size).toBe(0);
  });

  it('never swallows a failing job: it is logged under a reference and its session is answered with that reference, in order', async () => {
    const lines: string[] = [];
    const scheduler = new FairScheduler(undefined, undefined, (l) => lines.push(l));
    const s = fakeSession('s');
    const replies: string[] = [];
    // The session's socket: a failed job's answer is an EXECUTION_ERROR frame carrying the reference.
    s.socket = socket((reply) => {
      const frame = JSON.parse(reply);
      replies.push(
        frame.type === 'error' && frame.data.code === 'EXECUTION_ERROR'
          ? frame.data.message
          : frame.data,
      );
    });
    s.answer = (text) => {
      if (text === 'throw') throw new Error('sync failure at /srv/world/fixtures/x.sqlite');
      if (text === 'reject') return Promise.reject(new Error('async failure'));
      scheduler.outbox.send(s.socket!, JSON.stringify({ type: 'ok', data: `ok:${text}` }));
    };
    for (const job of ['1', 'throw', '2', 'reject', '3']) scheduler.push(s, job);
    await scheduler.idle();
    expect(replies).toHaveLength(5);
    expect(replies.filter((r) => r.startsWith('ok:'))).toEqual(['ok:1', 'ok:2', 'ok:3']);
    expect([replies[1], replies[3]]).toEqual([
      expect.stringMatching(/^internal error \(server error \w+;/),
      expect.stringMatching(/^internal error/),
    ]);
    expect(replies.join('\n')).not.toContain('/srv/');
    const ref = /server error (\w+)/.exec(replies[1])![1];
    expect(lines.find((l) => l.includes(ref))).toContain(
      'sync failure at /srv/world/fixtures/x.sqlite',
    );
    expect(lines.some((l) => l.includes('async failure'))).toBe(true);
  });

  it('resumes a job that runs in slices once per round: other sessions are answered between slices, its own next job after it', async () => {
    const scheduler = new FairScheduler();
    const heavy = fakeSession('heavy');
    const light = fakeSession('light');
    const log: string[] = [];
    heavy.answer = (text) => {
      if (text !== 'advance') return void log.push(`heavy:${text}`);
      let left = 5;
      log.push('heavy:slice');
      return {
        resume: () => {
          log.push('heavy:slice');
          return --left === 0;
        },
      };
    };
    light.answer = (text) => void log.push(`light:${text}`);
    scheduler.push(heavy, 'advance');
    scheduler.push(heavy, 'after');
    for (let i = 0; i < 3; i++) scheduler.push(light, String(i));
    await scheduler.idle();
    expect(log).toEqual([
      'heavy:slice',
      'light:0',
      'heavy:slice',
      'light:1',
      'heavy:slice',
      'light:2',
      'heavy:slice',
      'heavy:slice',
      'heavy:slice',
      'heavy:after',
    ]);
  });

  it('answers a light session that arrives while a sliced job is in progress, before the job ends', async () => {
    // A budget of 0 yields to I/O after every job, as a real slice, which spends the whole budget, does.
    const scheduler = new FairScheduler(0);
    const heavy = fakeSession('heavy');
    const light = fakeSession('light');
    const log: string[] = [];
    heavy.answer = fiftySlices(scheduler, light, log);
    light.answer = (text) => void log.push(`light:${text}`);
    scheduler.push(heavy, 'advance');
    await scheduler.idle();
    const answered = log.indexOf('light:call');
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(log.indexOf('heavy:50'));
    expect(log.filter((l) => l.startsWith('heavy:'))).toHaveLength(50);
  });

  it('ends its turn after a slice, so a frame that arrives during one is answered, and written, before the next', async () => {
    // The default budget (4 ms) would hold many slices this short: the turn must still yield after each.
    const scheduler = new FairScheduler();
    const heavy = fakeSession('heavy');
    const light = fakeSession('light');
    const log: string[] = [];
    const lightSocket = socket((reply) => log.push(`wire:${reply}`));
    heavy.answer = fiftySlices(scheduler, light, log);
    light.answer = (text) => {
      log.push(`light:${text}`);
      scheduler.outbox.send(lightSocket, 'reply');
    };
    scheduler.push(heavy, 'advance');
    await scheduler.idle();
    const at = log.indexOf('heavy:3');
    expect(log.slice(at, at + 4)).toEqual(['heavy:3', 'light:call', 'wire:reply', 'heavy:4']);
  });

  it('ends a sliced job whose session closes, and answers a slice that throws with its one reply', async () => {
    const lines: string[] = [];
    const scheduler = new FairScheduler(undefined, undefined, (l) => lines.push(l));
    const s = fakeSession('s');
    const replies: string[] = [];
    s.socket = socket((reply) => replies.push(reply));
    let resumed = 0;
    s.answer = (text) => {
      if (text === 'ok') return void scheduler.outbox.send(s.socket!, 'ok');
      return {
        resume: () => {
          if (++resumed === 2) throw new Error('slice failed');
          return false;
        },
      };
    };
    scheduler.push(s, 'advance');
    scheduler.push(s, 'ok');
    await scheduler.idle();
    expect(resumed).toBe(2);
    expect(replies).toHaveLength(2);
    expect(replies[0]).toMatch(/internal error \(server error/);
    expect(replies[1]).toBe('ok');
    expect(lines.some((l) => l.includes('slice failed'))).toBe(true);
  });
});
