import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, ToolError, z, type WorldSpec } from '../index.ts';
import { crm } from '../../../../worlds/crm/index.ts';

const billing = defineWorld({
  name: 'billing',
  version: '1.0.0',
  schema: `CREATE TABLE invoices (id TEXT PRIMARY KEY, customer TEXT NOT NULL, amount_cents INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'open') STRICT;`,
  tools: [
    defineTool({
      name: 'create_invoice',
      description: 'Bill a customer.',
      input: z.object({ customer: z.string(), amount_cents: z.number().int().positive() }),
      run(ctx, { customer, amount_cents }) {
        const id = ctx.ids.token('in_', 12);
        ctx.db.run(
          'INSERT INTO invoices (id, customer, amount_cents) VALUES (?, ?, ?)',
          id,
          customer,
          amount_cents,
        );
        return ctx.db.one('SELECT * FROM invoices WHERE id = ?', id);
      },
    }),
    defineTool({
      name: 'void_invoice',
      description: 'Void an open invoice.',
      input: z.object({ id: z.string() }),
      run(ctx, { id }) {
        const r = ctx.db.run(
          "UPDATE invoices SET status = 'void' WHERE id = ? AND status = 'open'",
          id,
        );
        if (r.changes === 0) throw new ToolError('not_open', `invoice ${id} is not open`);
        return { id, status: 'void' };
      },
    }),
    defineTool({
      name: 'list_invoices',
      description: 'List invoices.',
      input: z.object({}),
      run: (ctx) => ctx.db.all('SELECT * FROM invoices ORDER BY id'),
    }),
  ],
});

/** The host's own tool: wins a deal and bills it through the embedded billing world, in one call. */
const winAndBill = defineTool({
  name: 'win_and_bill',
  description: 'Mark a deal won and invoice its amount.',
  input: z.object({ deal_id: z.string(), fail_after_billing: z.boolean().default(false) }),
  run(ctx, { deal_id, fail_after_billing }) {
    const deal = ctx.db.one<{ amount_cents: number; company_id: string }>(
      'SELECT amount_cents, company_id FROM deals WHERE id = ?',
      deal_id,
    );
    if (!deal) throw new ToolError('not_found', `no deal ${deal_id}`);
    ctx.db.run("UPDATE deals SET stage = 'won' WHERE id = ?", deal_id);
    const invoice = ctx.worlds.billing.call('create_invoice', {
      customer: deal.company_id,
      amount_cents: deal.amount_cents,
    });
    if (fail_after_billing) throw new ToolError('refused', 'rolled back on purpose');
    return {
      deal_id,
      invoice,
      open: ctx.worlds.billing.db.all("SELECT id FROM invoices WHERE status = 'open' ORDER BY id")
        .length,
    };
  },
});

const company = defineWorld({
  name: 'company',
  version: '1.0.0',
  schema: crm.schema,
  tools: [...crm.tools, winAndBill],
  fixtures: { small_startup: crm.fixtures.small_startup },
  worlds: { billing: { world: billing, prefix: 'billing_', block: ['list_invoices'] } },
});

describe('composition', () => {
  it('shows one flat tool list, host first, sub-world tools prefixed and filtered', () => {
    const names = company
      .instance()
      .tools()
      .map((t) => t.name);
    expect(names.slice(0, crm.tools.length + 1)).toEqual([
      ...crm.tools.map((t) => t.name),
      'win_and_bill',
    ]);
    expect(names.slice(crm.tools.length + 1)).toEqual([
      'billing_create_invoice',
      'billing_void_invoice',
    ]);
  });

  it('changes both stores and names the store of each row', () => {
    const inst = company.instance({ fixture: 'small_startup', seed: 3 });
    const r = inst.call('win_and_bill', { deal_id: 'deal_acme_fleet' });
    expect(r).toMatchObject({ ok: true, result: { deal_id: 'deal_acme_fleet', open: 1 } });
    const direct = inst.call('billing_create_invoice', { customer: 'walk-in', amount_cents: 500 });
    expect(direct.ok).toBe(true);
    const tables = inst.changes().map((c) => `${c.table}:${c.op}`);
    expect(tables).toEqual(['billing.invoices:insert', 'billing.invoices:insert', 'deals:update']);
    expect(inst.changeLog().map((c) => [c.call, c.tool, c.table])).toEqual([
      [1, 'win_and_bill', 'billing.invoices'],
      [1, 'win_and_bill', 'deals'],
      [2, 'billing_create_invoice', 'billing.invoices'],
    ]);
    expect(inst.queryStore('billing', 'SELECT count(*) AS n FROM invoices')).toEqual([{ n: 2 }]);
  });

  it('rolls back both stores when the host call fails', () => {
    const inst = company.instance({ fixture: 'small_startup' });
    const r = inst.call('win_and_bill', { deal_id: 'deal_acme_fleet', fail_after_billing: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(inst.changes()).toEqual([]);
    expect(inst.queryStore('billing', 'SELECT count(*) AS n FROM invoices')).toEqual([{ n: 0 }]);
    expect(inst.query("SELECT stage FROM deals WHERE id = 'deal_acme_fleet'")).toEqual([
      { stage: 'proposal' },
    ]);
  });

  it('keeps separate id streams per world and blocks hidden tools', () => {
    const inst = company.instance({ fixture: 'small_startup' });
    expect(inst.call('billing_list_invoices', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_tool' },
    });
    const fork = inst.fork();
    expect(fork.call('billing_create_invoice', { customer: 'a', amount_cents: 1 })).toEqual(
      inst.call('billing_create_invoice', { customer: 'a', amount_cents: 1 }),
    );
  });

  it('refuses clashing prefixes and unknown allow/block names at definition', () => {
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: crm.schema,
        tools: [...crm.tools],
        worlds: { b: { world: billing, prefix: 'billing_', allow: ['nope'] } },
      }),
    ).toThrow(/does not have/);
    const clash = defineTool({
      name: 'billing_void_invoice',
      description: 'clash',
      input: z.object({}),
      run: () => null,
    });
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: crm.schema,
        tools: [clash],
        worlds: { b: { world: billing, prefix: 'billing_' } },
      }),
    ).toThrow(/clashes/);
  });
});

describe('composition and restart', () => {
  it('a restart rolls every store back, and the next episode equals a fresh one', () => {
    const play = (inst: ReturnType<typeof company.instance>) => {
      inst.call('win_and_bill', { deal_id: 'deal_acme_fleet' });
      inst.call('win_and_bill', { deal_id: 'deal_acme_fleet', fail_after_billing: true });
      inst.call('billing_create_invoice', { customer: 'walk-in', amount_cents: 700 });
      return {
        changes: inst.changes(),
        changeLog: inst.changeLog(),
        callLog: inst.callLog(),
        invoices: inst.queryStore('billing', 'SELECT * FROM invoices ORDER BY id'),
        deals: inst.query("SELECT id, stage FROM deals WHERE id = 'deal_acme_fleet'"),
      };
    };
    const fresh = company.instance({ fixture: 'small_startup', seed: 3 });
    const want = play(fresh);
    const first = company.instance({ fixture: 'small_startup', seed: 8 });
    play(first);
    const again = first.restart({ fixture: 'small_startup', seed: 3 });
    expect(again).not.toBeNull();
    expect(again!.changes()).toEqual([]);
    expect(again!.queryStore('billing', 'SELECT count(*) AS n FROM invoices')).toEqual([{ n: 0 }]);
    expect(play(again!)).toEqual(want);
  });
});

describe('time passing in a composed world', () => {
  // A sub-world that charges interest while time passes, inside a host that logs each advance in its own table.
  const ledger = defineWorld({
    name: 'ledger',
    version: '1.0.0',
    schema: 'CREATE TABLE accrued (at INTEGER PRIMARY KEY, cents INTEGER NOT NULL) STRICT;',
    tools: [
      defineTool({
        name: 'total',
        description: 'Interest so far.',
        input: z.object({}),
        run: (ctx) => ctx.db.one('SELECT coalesce(sum(cents), 0) AS cents FROM accrued'),
      }),
    ],
    onClockAdvance(ctx, { from, to }) {
      ctx.db.run(
        'INSERT INTO accrued (at, cents) VALUES (?, ?)',
        to,
        Math.floor((to - from) / 1000),
      );
      return { accrued: Math.floor((to - from) / 1000) };
    },
  });
  const logTick: WorldSpec['onClockAdvance'] = (ctx, { to }) => {
    // The mount's hook ran first, in the same call: the host sees what it wrote.
    const seen = ctx.worlds.ledger.db.one<{ n: number }>(
      'SELECT count(*) AS n FROM accrued WHERE at = ?',
      to,
    )!.n;
    ctx.db.run('INSERT INTO ticks (at) VALUES (?)', to);
    return { ledger_rows_seen: seen };
  };
  const host = (hook: boolean) =>
    defineWorld({
      name: 'shop',
      version: '1.0.0',
      schema: 'CREATE TABLE ticks (at INTEGER PRIMARY KEY) STRICT;',
      tools: [
        defineTool({ name: 'noop', description: 'Nothing.', input: z.object({}), run: () => null }),
      ],
      worlds: { ledger: { world: ledger, prefix: 'ledger_' } },
      onClockAdvance: hook ? logTick : undefined,
    });

  it("runs a mounted world's hook in its store, even when the host has none", () => {
    const inst = host(false).instance();
    const r = inst.advanceClock(5000);
    expect(r).toEqual({ ok: true, result: { ledger: { accrued: 5 } } });
    expect(inst.changes().map((c) => c.table)).toEqual(['ledger.accrued']);
    expect(inst.call('ledger_total', {})).toEqual({ ok: true, result: { cents: 5 } });
  });

  it('runs the mounts first, then the host, as one call: a failure in either undoes both', () => {
    const inst = host(true).instance();
    expect(inst.advanceClock(2000)).toEqual({
      ok: true,
      result: { ledger: { accrued: 2 }, shop: { ledger_rows_seen: 1 } },
    });
    expect(inst.changes().map((c) => c.table)).toEqual(['ledger.accrued', 'ticks']);
    expect(inst.callLog().map((e) => e.tool)).toEqual(['advance_clock']);
    // The same instant again: its rows exist already, so the call fails, and nothing it wrote in either store stays.
    const before = inst.changes();
    inst.clock.base -= 2000;
    expect(inst.advanceClock(2000).ok).toBe(false);
    expect(inst.changes()).toEqual(before);
  });
});

describe('a mounted world sending its host messages (MountSpec.receive)', () => {
  /** A sub-world whose tool tells its host what it did, and reports the answer. */
  const notifier = defineWorld({
    name: 'notifier',
    version: '1.0.0',
    schema: 'CREATE TABLE sent (n INTEGER PRIMARY KEY, answer TEXT) STRICT;',
    tools: [
      defineTool({
        name: 'notify',
        description: 'Send the host a note.',
        input: z.object({ note: z.string() }),
        run(ctx, { note }) {
          if (ctx.host === undefined) return { delivered: false };
          let answer: unknown;
          try {
            answer = ctx.host.send({ note });
          } catch (e) {
            answer = `threw: ${(e as Error).message}`;
          }
          ctx.db.run('INSERT INTO sent (answer) VALUES (?)', JSON.stringify(answer));
          return { delivered: true, answer };
        },
      }),
    ],
  });
  const inbox = defineWorld({
    name: 'inbox',
    version: '1.0.0',
    schema: 'CREATE TABLE notes (note TEXT PRIMARY KEY, at TEXT NOT NULL) STRICT;',
    tools: [
      defineTool({
        name: 'list_notes',
        description: 'The notes received.',
        input: z.object({}),
        run: (ctx) => ctx.db.all('SELECT note FROM notes ORDER BY note'),
      }),
    ],
    worlds: {
      notifier: {
        world: notifier,
        prefix: 'n_',
        receive(ctx, message) {
          const { note } = message as { note: string };
          ctx.db.run('INSERT INTO notes (note, at) VALUES (?, ?)', note, ctx.clock.iso());
          if (note === 'boom') throw new ToolError('refused', 'no booms');
          return { stored: note, call: ctx.call.index };
        },
      },
    },
  });

  it("runs the host's receive with the host's context in the same call, and answers what it returns", () => {
    const inst = inbox.instance();
    const r = inst.call('n_notify', { note: 'hello' });
    expect(r).toMatchObject({
      ok: true,
      result: { delivered: true, answer: { stored: 'hello', call: 1 } },
    });
    expect(inst.query('SELECT note FROM notes')).toEqual([{ note: 'hello' }]);
    expect(inst.changes().map((c) => c.table)).toEqual(['notes', 'notifier.sent']);
    inst.destroy();
  });

  it('undoes what a throwing receive wrote and hands the throw to the sender', () => {
    const inst = inbox.instance();
    const r = inst.call('n_notify', { note: 'boom' });
    expect(r).toMatchObject({ ok: true, result: { answer: 'threw: no booms' } });
    expect(inst.query('SELECT count(*) AS n FROM notes')).toEqual([{ n: 0 }]);
    inst.destroy();
  });

  it('leaves ctx.host undefined for a world on its own, and refuses a receive that is not a function', () => {
    const alone = notifier.instance();
    expect(alone.call('notify', { note: 'x' })).toMatchObject({
      ok: true,
      result: { delivered: false },
    });
    alone.destroy();
    expect(() =>
      defineWorld({
        name: 'bad',
        version: '1.0.0',
        schema: 'CREATE TABLE t (id TEXT PRIMARY KEY) STRICT;',
        tools: [
          defineTool({
            name: 'noop',
            description: 'Nothing.',
            input: z.object({}),
            run: () => null,
          }),
        ],
        worlds: { notifier: { world: notifier, prefix: 'n_', receive: 'yes' as never } },
      }),
    ).toThrow(/receive must be a function/);
  });
});
