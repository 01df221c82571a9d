/**
 * Every argument of every tool the shipped worlds offer is described, at any depth: TRL builds tool schemas with
 * transformers' `get_json_schema`, which refuses an undescribed argument, and the agent reads them to know what to
 * send. The tools come from each world's instance, as an agent lists them; nothing here names a tool.
 */
import { describe, expect, it } from 'vitest';
import type { World } from 'seahaven';
import { crm } from '@seahaven/crm';
import { saas } from '@seahaven/saas';
import { stripe } from '@seahaven/stripe';

type Schema = Record<string, unknown>;

/** Every property of `schema`, at any depth (objects, array items, union branches, records' values), by path. */
function properties(schema: Schema, path: string): { path: string; schema: Schema }[] {
  const out: { path: string; schema: Schema }[] = [];
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const at = path ? `${path}.${key}` : key;
    out.push({ path: at, schema: sub }, ...properties(sub, at));
  }
  const inner = [
    schema.items,
    schema.additionalProperties,
    ...['anyOf', 'oneOf', 'allOf', 'prefixItems'].flatMap((k) =>
      Array.isArray(schema[k]) ? schema[k] : [],
    ),
  ];
  for (const sub of inner)
    if (sub && typeof sub === 'object' && !Array.isArray(sub))
      out.push(...properties(sub as Schema, schema.items === sub ? `${path}[]` : path));
  return out;
}

/** Every string a gold solution sends (the values graders look for), and every enum member the tools accept. */
async function goldStrings(world: World): Promise<{ sent: Set<string>; allowed: Set<string> }> {
  const sent = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') sent.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const task of world.tasks) {
    const inst = world.instance({ task: task.id, seed: 1 });
    try {
      await task.gold?.(inst);
      for (const entry of inst.callLog()) walk(entry.args);
    } finally {
      inst.destroy();
    }
  }
  const allowed = new Set<string>();
  for (const tool of world.toolListings()) {
    for (const p of properties(tool.inputSchema, ''))
      for (const v of (p.schema.enum as unknown[] | undefined) ?? [])
        if (typeof v === 'string') allowed.add(v);
  }
  return { sent, allowed };
}

describe.each([crm, stripe, saas])('the tool arguments of $name', (world: World) => {
  const inst = world.instance();
  const tools = inst.tools();
  inst.destroy();
  const args = tools.flatMap((tool) =>
    properties(tool.inputSchema, '').map((p) => ({ tool: tool.name, ...p })),
  );

  it('are all described', () => {
    expect(tools.length).toBeGreaterThan(10);
    expect(args.length).toBeGreaterThan(tools.length);
    const undescribed = args
      .filter(
        (a) => typeof a.schema.description !== 'string' || a.schema.description.trim().length < 8,
      )
      .map((a) => `${a.tool}.${a.path}`);
    expect(undescribed).toEqual([]);
  });

  it('give away no value a gold solution sends', async () => {
    const { sent, allowed } = await goldStrings(world);
    expect(sent.size).toBeGreaterThan(5);
    const texts = args.map((a) => ({
      at: `${a.tool}.${a.path}`,
      text: String(a.schema.description),
    }));
    // Plain words ("coupon") and identifiers of the API ("PostCustomers") are vocabulary; names, emails, ids, titles,
    // dates and amounts are what a task asks for.
    const vocabulary = (v: string) => /^[a-z]+$/.test(v) || /^[A-Z][a-z]+(?:[A-Z][a-z]+)+$/.test(v);
    const leaks = [...sent]
      .filter((v) => v.length >= 4 && !allowed.has(v) && !vocabulary(v))
      .flatMap((v) =>
        texts.filter((t) => t.text.includes(v)).map((t) => `${t.at} mentions ${JSON.stringify(v)}`),
      );
    expect(leaks).toEqual([]);
  });
});
