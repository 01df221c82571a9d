/**
 * One client over several servers (`SeahavenClient.connect([urls…])`, `HostPool`): sessions go to the host with the
 * fewest, a host that refuses or is full is skipped, a lost connection is reported with the episode it ended
 * (`LOST`, never replayed) and the next reset starts on another host. Servers run in process on ports of their own;
 * a TCP relay in front of some lets a test cut every connection at once, as a dead host would.
 */
import {
  createServer,
  connect as tcpConnect,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { startServer, type RunningServer } from '../../transports/serve/index.ts';
import { HostPool, SeahavenClient } from './index.ts';
import { rejection } from './test-rejection.ts';
import { freePort } from '../../transports/serve/test-fixtures/free-port.ts';

const ADA = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@acmerobotics.example',
  company_id: 'cmp_acme',
  title: 'Head of Research',
  stage: 'lead',
};
const quiet = () => {};

interface Relay {
  url: string;
  /** Refuse new connections and reset every open one, as a host whose server died. */
  kill(): Promise<void>;
}

/** A TCP relay on a port of its own to `target`'s port. */
async function relay(target: RunningServer): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = tcpConnect(target.port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async kill() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.resetAndDestroy();
      await closed;
    },
  };
}

/** A port nothing listens on. */
async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

let servers: RunningServer[];
beforeAll(async () => {
  servers = await Promise.all(
    [0, 1, 2].map(() => startServer({ worlds: [crm], port: 0, logger: quiet })),
  );
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('SeahavenClient over several hosts', () => {
  it('puts each new session on the host with the fewest, and says which host it is on', async () => {
    const urls = servers.map((s) => s.url);
    const pool = new HostPool(urls);
    const clients = await Promise.all(
      Array.from({ length: 9 }, () => SeahavenClient.connect(pool)),
    );
    try {
      expect(pool.status().map((h) => h.sessions)).toEqual([3, 3, 3]);
      for (const [i, url] of urls.entries()) {
        expect(clients.filter((c) => c.host === url)).toHaveLength(3);
        expect(servers[i].sessions.size).toBe(3);
      }
      // Three sessions end on the first host: the next two new ones go there.
      await Promise.all(clients.filter((c) => c.host === urls[0]).map((c) => c.close()));
      expect(pool.status().map((h) => h.sessions)).toEqual([0, 3, 3]);
      const more = await Promise.all([SeahavenClient.connect(pool), SeahavenClient.connect(pool)]);
      clients.push(...more);
      expect(more.map((c) => c.host)).toEqual([urls[0], urls[0]]);
      // A client plays its episodes where it connected.
      const r = await more[0].reset({ task: 'add_lead', seed: 1 });
      expect(more[0].episodeId).toBe(r.metadata.episode_id);
      await more[0].call('create_contact', ADA);
      expect((await more[0].submit()).reward).toBe(1);
      expect(more[0].host).toBe(urls[0]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    expect(pool.status().map((h) => h.sessions)).toEqual([0, 0, 0]);
  });

  it('shares one pool between connects given the same list, and keeps one URL working as before', async () => {
    const urls = [servers[1].url, servers[2].url];
    const a = await SeahavenClient.connect(urls);
    const b = await SeahavenClient.connect([...urls].reverse());
    const single = await SeahavenClient.connect(servers[0].url);
    try {
      expect(new Set([a.host, b.host])).toEqual(new Set(urls));
      expect(single.host).toBe(servers[0].url);
    } finally {
      await Promise.all([a.close(), b.close(), single.close()]);
    }
    await expect(single.reset()).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('skips a host that refuses the connection, and names every host when none accepts', async () => {
    const dead = await deadUrl();
    const pool = new HostPool([dead, servers[0].url, servers[1].url]);
    const clients = await Promise.all(
      Array.from({ length: 4 }, () => SeahavenClient.connect(pool)),
    );
    try {
      expect(clients.map((c) => c.host).filter((h) => h === dead)).toEqual([]);
      const [first] = pool.status();
      expect(first.sessions).toBe(0);
      expect(first.unavailable?.reason).toMatch(/ECONNREFUSED/);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const other = await deadUrl();
    const e = await rejection(SeahavenClient.connect(new HostPool([dead, other])));
    expect(e.code).toBe('CONNECT');
    expect(e.message).toContain(dead.replace('http', 'ws'));
    expect(e.message).toContain(other.replace('http', 'ws'));
  });

  it('reports an episode lost with its host, never replays it, and starts the next reset on another host', async () => {
    const relays = await Promise.all([relay(servers[0]), relay(servers[1])]);
    const pool = new HostPool(relays.map((r) => r.url));
    const env = await SeahavenClient.connect(pool);
    try {
      const first = env.host;
      const reset = await env.reset({ task: 'add_lead', seed: 7 });
      await env.call('search_contacts', { query: 'acme' });
      const pending = env.call('create_contact', ADA);
      await relays[relays.findIndex((r) => r.url === first)].kill();
      const lost = await rejection(pending);
      expect(lost.code).toBe('LOST');
      expect(lost.data).toMatchObject({
        host: first,
        episode_id: reset.metadata.episode_id,
        episode_lost: true,
      });
      expect(lost.message).toContain('never replayed');
      await expect(env.state()).rejects.toMatchObject({ code: 'LOST' });
      expect(pool.status().find((h) => h.url === first)).toMatchObject({
        sessions: 0,
        unavailable: expect.any(Object),
      });

      const again = await env.reset({ task: 'add_lead', seed: 7 });
      expect(env.host).not.toBe(first);
      expect(again.metadata.episode_id).not.toBe(reset.metadata.episode_id);
      const fresh = await env.state();
      expect(fresh).toMatchObject({ step_count: 0, changes: [] }); // nothing of the lost episode came along
      await env.call('create_contact', ADA);
      expect((await env.submit()).reward).toBe(1);
      expect(env.episodeId).toBe(again.metadata.episode_id);
    } finally {
      await env.close();
      await Promise.all(relays.map((r) => r.kill()));
    }
  });

  it('reports a server that shuts down mid-episode (SIGTERM, a rollout) as a lost episode too', async () => {
    const leaving = await startServer({ worlds: [crm], port: 0, logger: quiet });
    const env = await SeahavenClient.connect(new HostPool([leaving.url, servers[1].url]));
    try {
      expect(env.host).toBe(leaving.url);
      const r = await env.reset({ task: 'add_lead', seed: 4 });
      await leaving.close();
      const lost = await rejection(env.call('pipeline_summary', {}));
      expect(lost).toMatchObject({
        code: 'LOST',
        data: { host: leaving.url, episode_id: r.metadata.episode_id, episode_lost: true },
      });
      await env.reset({ task: 'add_lead', seed: 4 });
      expect(env.host).toBe(servers[1].url);
    } finally {
      await env.close();
    }
  });

  it('says a connection lost after a submit took nothing unfinished', async () => {
    const r = await relay(servers[2]);
    const env = await SeahavenClient.connect([r.url, servers[0].url]);
    try {
      await env.reset({ task: 'add_lead', seed: 2 });
      const hostOfEpisode = env.host;
      await env.call('create_contact', ADA);
      expect((await env.submit()).reward).toBe(1);
      expect(hostOfEpisode).toBe(r.url); // both hosts had no session: the first listed is tried first
      await r.kill();
      const e = await rejection(env.state());
      expect(e).toMatchObject({ code: 'LOST', data: { host: r.url, episode_lost: false } });
      expect(e.message).toContain('finished');
    } finally {
      await env.close();
      await r.kill();
    }
  });

  it('moves a reset turned away by a full server to another host', async () => {
    const full = await startServer({ worlds: [crm], port: 0, maxSessions: 1, logger: quiet });
    const holder = await SeahavenClient.connect(full.url);
    try {
      const env = await SeahavenClient.connect(new HostPool([full.url, servers[0].url]));
      expect(env.host).toBe(full.url); // no session of this pool is there yet, so it is tried first
      const r = await env.reset({ fixture: 'small_startup' });
      expect(env.host).toBe(servers[0].url);
      expect(r.observation.fixture).toBe('small_startup');
      await env.close();
    } finally {
      await holder.close();
      await full.close();
    }
  });

  it('forks onto the same host, counted in the pool', async () => {
    const pool = new HostPool([servers[0].url, servers[1].url]);
    await using env = await SeahavenClient.connect(pool);
    await env.reset({ task: 'add_lead', seed: 3 });
    await using branch = await env.fork();
    expect(branch.host).toBe(env.host);
    expect(pool.status().find((h) => h.url === env.host)?.sessions).toBe(2);
    await branch.call('create_contact', ADA);
    expect((await branch.submit()).reward).toBe(1);
  });
});
