import { describe, expect, it } from 'vitest';
import { createApp } from 'seahaven/serve';
import { stripe } from '../index.ts';

// The attack that ended the server, scaled down: customers with 50 metadata values of 500 characters, posted on one
// key, grew that account's database until SQLite's 1 GiB limit. With a per-episode limit (here 1 MiB past the fixture)
// the account's request that passes it is refused, naming the option, and every other account is served as before;
// so is a year of billing in one clock advance.

const form = () => {
  const f = new URLSearchParams({ name: 'Big' });
  for (let k = 0; k < 50; k++) f.set(`metadata[k${k}]`, 'v'.repeat(500));
  return f.toString();
};

describe('an account that fills its database', () => {
  it('is refused once past --max-episode-db-mb; its reads and other accounts go on', async () => {
    const logged: string[] = [];
    const { app, sessions } = createApp({
      worlds: [stripe],
      maxDbGrowthBytes: 1024 * 1024,
      logger: (l) => logged.push(l),
    });
    const post = () =>
      app.request('/v1/customers', {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk_test_attack',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form(),
      });
    let refused: Response | undefined;
    for (let i = 0; i < 200 && refused === undefined; i++) {
      const res = await post();
      if (res.status !== 200) refused = res;
    }
    expect(refused).toBeDefined();
    expect(await refused!.text()).toContain('--max-episode-db-mb');
    expect(
      (
        await app.request('/v1/customers?limit=1', {
          headers: { authorization: 'Bearer sk_test_attack' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await app.request('/v1/customers', {
          method: 'POST',
          headers: {
            authorization: 'Bearer sk_test_bystander',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'name=Ada',
        })
      ).status,
    ).toBe(200);
    expect(logged.filter((l) => /world bug|server error/.test(l))).toEqual([]);
    sessions.endAll('shutdown');
  });

  it('a year of billing past the limit fails as one call, resource_exhausted, and the episode goes on', () => {
    using inst = stripe.instance({ fixture: 'small_startup', maxDbGrowthBytes: 1024 * 1024 });
    const r = inst.advanceClock(365 * 86_400_000);
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'resource_exhausted', details: { option: '--max-episode-db-mb' } },
    });
    expect(inst.call('list_customers', { limit: 1 }).ok).toBe(true);
    expect(inst.changes()).toEqual([]);
  });
});
