import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Rng, Stream } from '../random.ts';
import { crm } from '../../../../worlds/crm/index.ts';
import { randomArgs, rememberValues, type SeenValues } from '../random-args.ts';

const fresh = (): SeenValues => ({ strings: [], integers: [] });
const schemaOf = (input: z.ZodObject) =>
  z.toJSONSchema(input.strict(), { io: 'input' }) as Record<string, unknown>;

describe('randomArgs', () => {
  it('is a function of the seed', () => {
    const schema = crm.toolListings().find((t) => t.name === 'create_deal')!.inputSchema;
    const draw = (seed: string) => {
      const rng = new Rng(new Stream(seed));
      return Array.from({ length: 5 }, () => randomArgs(schema, rng, fresh()));
    };
    expect(draw('a')).toEqual(draw('a'));
    expect(draw('a')).not.toEqual(draw('b'));
  });

  it('mostly produces arguments the tool accepts', () => {
    const rng = new Rng(new Stream('valid'));
    let valid = 0;
    let total = 0;
    for (const tool of crm.tools) {
      for (let i = 0; i < 20; i++, total++)
        if (tool.input.safeParse(randomArgs(tool.inputSchema, rng, fresh())).success) valid++;
    }
    expect(valid / total).toBeGreaterThan(0.8);
  });

  it('follows patterns, formats, bounds and enums', () => {
    const schema = schemaOf(
      z.object({
        day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        currency: z.string().regex(/^[a-z]{3}$/),
        code: z.string().regex(/^(?:INV|CRN)-\d{3,5}$/),
        email: z.string().email(),
        qty: z.number().int().min(1).max(9),
        kind: z.enum(['call', 'email']),
        tags: z.array(z.string()).min(1).max(2),
      }),
    );
    const rng = new Rng(new Stream('shapes'));
    for (let i = 0; i < 50; i++) {
      const args = randomArgs(schema, rng, fresh()) as Record<string, unknown>;
      expect(args.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(args.currency).toMatch(/^[a-z]{3}$/);
      expect(args.code).toMatch(/^(?:INV|CRN)-\d{3,5}$/);
      expect(z.string().email().safeParse(args.email).success).toBe(true);
      expect(args.qty).toBeGreaterThanOrEqual(1);
      expect(args.qty).toBeLessThanOrEqual(9);
      expect(['call', 'email']).toContain(args.kind);
      expect((args.tags as string[]).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('reuses strings and ids seen in results', () => {
    const seen = fresh();
    rememberValues(
      { contacts: [{ id: 'con_1', name: 'Ada', company_id: 7 }], next_cursor: null },
      seen,
    );
    expect(seen).toEqual({ strings: ['con_1', 'Ada'], integers: [7] });
    const schema = schemaOf(z.object({ id: z.string() }));
    const rng = new Rng(new Stream('reuse'));
    const ids = Array.from(
      { length: 40 },
      () => (randomArgs(schema, rng, seen) as { id: string }).id,
    );
    expect(ids.filter((id) => id === 'con_1' || id === 'Ada').length).toBeGreaterThan(10);
  });
});
