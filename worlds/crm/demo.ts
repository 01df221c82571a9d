/** A short scripted crm episode: what `npm run demo` plays. */
import { crm } from './index.ts';

export function runDemo({
  seed = 0,
  out = console.log,
}: { seed?: number; out?: (line: string) => void } = {}): void {
  const inst = crm.instance({ fixture: 'small_startup', seed, clock: 'tick' });
  const step = (tool: string, args: Record<string, unknown>) => {
    const r = inst.call(tool, args);
    out(`→ ${tool} ${JSON.stringify(args)}`);
    out(`  ${r.ok ? 'ok' : 'error'}: ${JSON.stringify(r.ok ? r.result : r.error).slice(0, 200)}`);
    return r;
  };
  out(`crm world, fixture small_startup, seed ${seed}, ${inst.tools().length} tools`);
  step('search_contacts', { query: 'Whitaker' });
  const created = step('create_contact', {
    name: 'Grace Hopper',
    email: 'grace@navy.example',
    company_id: 'cmp_acme',
    title: 'Rear Admiral',
  });
  step('create_contact', { name: 'Grace Again', email: 'grace@navy.example' });
  step('update_deal', { id: 'deal_acme_fleet', stage: 'negotiation' });
  if (created.ok)
    step('log_activity', {
      contact_id: (created.result as { id: string }).id,
      kind: 'call',
      subject: 'Intro call',
    });
  out('');
  out('net changes:');
  for (const c of inst.changes())
    out(
      `  ${c.op.padEnd(6)} ${c.table} ${JSON.stringify(c.key)} ${JSON.stringify(c.after ?? c.before)}`,
    );
  inst.destroy();
}
