/**
 * Worlds `seahaven new <name> --mount <world>` can mount in the new project: what each adds to the templates. A
 * mounted world is a package the project depends on and imports by name (`@seahaven/stripe`), which runs on the
 * project's copy of the kit; the project gets a task graded in the mounted store and a test that the agent sees the mounted world's
 * own error codes. docs/composing.md explains both.
 */

/** What a mount adds where the templates mark `{{mount:<slot>}}`. */
interface MountTemplate {
  /** The world's package, which the project depends on. */
  package: string;
  /** Lines of world.ts's imports. */
  imports: string;
  /** The `worlds:` entry of defineWorld. */
  worlds: string;
  /** Tasks of tasks.ts, the names they add to its `seahaven/rewards` import, and their names in the `tasks` list. */
  tasks: string;
  rewardsImports: string[];
  taskNames: string[];
  /** Tests of world.test.ts. */
  tests: string;
}

const STRIPE: MountTemplate = {
  package: '@seahaven/stripe',
  imports: "import { stripe } from '@seahaven/stripe';",
  worlds: [
    '// Stripe World, mounted at `stripe`: its tools are listed as stripe_<tool>, its rows are `stripe.<table>` in',
    "  // changes(), and its REST API (/v1/...) is served as this world's own (docs/composing.md).",
    "  worlds: { stripe: { world: stripe, prefix: 'stripe_', http: true } },",
  ].join('\n'),
  tasks: `export const addStripeCustomer = defineTask({
  id: 'add_stripe_customer',
  fixture: 'starter',
  prompt: 'Create a Stripe customer for Ada Lovelace, email ada@example.com.',
  difficulty: 1,
  // A mounted store's rows are named \`stripe.<table>\`. Every Stripe write also records an event: allowed, not asked for.
  grade: expectChanges([inserted('stripe.customers', { email: 'ada@example.com', name: 'Ada Lovelace' })], { allow: [inserted('stripe.events', {})] }),
  gold(inst) {
    const created = inst.call('stripe_create_customer', { name: 'Ada Lovelace', email: 'ada@example.com' });
    if (!created.ok) throw new Error(\`stripe_create_customer failed: \${created.error.message}\`);
  },
});
`,
  rewardsImports: ['inserted'],
  taskNames: ['addStripeCustomer'],
  tests: `describe('stripe (mounted)', () => {
  test('a Stripe failure reaches the agent with Stripe\\'s own error code', ({ inst }) => {
    const r = inst.call('stripe_fetch_stripe_resources', { id: 'cus_missing' });
    expect(r).toMatchObject({ ok: false, error: { code: 'stripe_api_error', details: { status: 404, error: { code: 'resource_missing' } } } });
  });

  test('a customer created through the tools is a row of the mounted store', ({ inst }) => {
    const created = inst.call('stripe_create_customer', { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(created.ok).toBe(true);
    expect(inst.queryStore('stripe', 'SELECT email FROM customers')).toEqual([{ email: 'ada@example.com' }]);
    expect(inst.changes().map((c) => c.table)).toEqual(['stripe.customers', 'stripe.events']);
  });
});
`,
};

/** The worlds `--mount` accepts, by name. */
export const MOUNTS: Readonly<Record<string, MountTemplate>> = { stripe: STRIPE };

/** Fill the `{{mount:…}}` slots of a template for `mounts` (none: the slots and their lines go). */
export function fillMounts(template: string, mounts: readonly string[]): string {
  const chosen = mounts.map((m) => MOUNTS[m]);
  const slot = (name: string): string => {
    const parts = chosen.map(
      (m) => ({ imports: m.imports, worlds: m.worlds, tasks: m.tasks, tests: m.tests })[name] ?? '',
    );
    return parts.join('\n');
  };
  return template
    .replace(
      /^( *)\/\/ \{\{mount:(imports|worlds|tasks|tests)\}\}\n/gm,
      (_, indent: string, name: string) => {
        const text = slot(name);
        return text === '' ? '' : `${indent}${text}${text.endsWith('\n') ? '' : '\n'}`;
      },
    )
    .replace(
      '{{mount:rewards-imports}}',
      [...new Set(chosen.flatMap((m) => m.rewardsImports))].map((n) => `, ${n}`).join(''),
    )
    .replace(
      '{{mount:task-names}}',
      chosen
        .flatMap((m) => m.taskNames)
        .map((n) => `, ${n}`)
        .join(''),
    );
}
