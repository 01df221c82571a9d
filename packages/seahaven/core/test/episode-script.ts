/** Plays one scripted episode and prints everything it observed as JSON (run in separate processes by determinism.test.ts). */
import { crm } from '../../../../worlds/crm/index.ts';
import { kitWorld } from './test-world.ts';

const seed = Number(process.argv[2] ?? 0);
const out: unknown[] = [];
const logs: string[] = [];

const k = kitWorld.instance({
  seed,
  clock: 'tick',
  logger: (line) => logs.push(line.split('\n')[0]),
});
const item = k.call('add_item', { label: 'widget', qty: 1 });
out.push(item);
const id = item.ok ? (item.result as { id: string }).id : '';
out.push(k.call('set_qty', { id, qty: 5 }));
out.push(k.call('stamp', {}));
k.clock.advance(3_600_000);
out.push(k.call('stamp', {}));
out.push(k.call('two_then_throw', { agentFacing: false }));
out.push(k.query("SELECT datetime('now', '-30 days') AS d, random() AS r"));
out.push(k.changes(), k.changeLog(), k.callLog(), k.state());

const c = crm.instance({ fixture: 'small_startup', seed, clock: 'tick' });
out.push(
  c.call('create_contact', {
    name: 'Ada Lovelace',
    email: 'ada@engine.example',
    company_id: 'cmp_acme',
  }),
);
out.push(c.call('update_deal', { id: 'deal_acme_fleet', stage: 'negotiation' }));
out.push(c.state(), logs);

process.stdout.write(JSON.stringify(out));
