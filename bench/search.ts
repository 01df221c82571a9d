/**
 * Search pages of Stripe World over `big_co` (20,000 customers, 100,000 charges), in process through the search
 * operations: typical queries of Stripe's query language, each at limit 10 and 100, with p50 and p99 per query. Floor:
 * reading the same page's rows by id from the same image with better-sqlite3 and parsing their JSON, the least any
 * search that shows them costs. Beside it, the page's SQL forced onto the order index (the plan every query had
 * before field indexes), to show what the plan saves.
 */
import Database from 'better-sqlite3';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { stripe } from '@seahaven/stripe';
import { SEARCH_FIELDS, checkSearch } from '../worlds/stripe/lib/search.ts';
import { searchWhere } from '../worlds/stripe/lib/search-sql.ts';
import type { Instance } from 'seahaven';
import { machine, percentile } from './harness.ts';

export const HEADING = '## Search (Stripe World, big_co)';

/** An operation of the search endpoint of `table`. */
const OPERATION: Record<string, string> = {
  customers: 'GetCustomersSearch',
  charges: 'GetChargesSearch',
  invoices: 'GetInvoicesSearch',
  payment_intents: 'GetPaymentIntentsSearch',
  subscriptions: 'GetSubscriptionsSearch',
};

export interface SearchQuery {
  table: string;
  query: string;
}

export interface SearchRow extends SearchQuery {
  limit: number;
  /** Objects on the page, and whether there are more. */
  found: number;
  hasMore: boolean;
  /** Milliseconds, sorted. */
  samples: number[];
  floor: number[];
  /** The page's SQL on the order index alone. */
  walk: number[];
}

export interface SearchResult {
  fixture: string;
  /** The 1-minute load average when the run started. */
  load: number;
  rows: SearchRow[];
  iterations: number;
}

/** Typical queries, with values read off the fixture (an email, a name's middle, a company, a customer, a time). */
export function typicalQueries(inst: Instance): SearchQuery[] {
  const one = <T>(sql: string): T => inst.query<T>(sql)[0];
  const c = one<{ email: string; name: string; company: string; id: string }>(
    `SELECT search_email AS email, search_name AS name, json_extract(search_metadata, '$.company') AS company, id FROM customers ORDER BY created DESC, seq DESC LIMIT 1 OFFSET (SELECT count(*) / 3 FROM customers)`,
  );
  const month = one<{ t: number }>('SELECT max(created) - 30 * 86400 AS t FROM charges').t;
  const payer = one<{ customer: string }>(
    `SELECT search_customer AS customer FROM charges WHERE search_customer IS NOT NULL ORDER BY created DESC, seq DESC LIMIT 1 OFFSET (SELECT count(*) / 2 FROM charges WHERE search_customer IS NOT NULL)`,
  ).customer;
  const middle = c.name.split(' ')[1].slice(1, 5);
  return [
    { table: 'customers', query: `email:'${c.email}'` },
    { table: 'customers', query: `name~'${middle}'` },
    { table: 'customers', query: `name~'zzzq'` },
    { table: 'customers', query: `metadata['company']:'${c.company}'` },
    { table: 'customers', query: `email:'nobody@example.com' OR name:'${c.name}'` },
    { table: 'customers', query: `-metadata['company']:null AND created<${month}` },
    { table: 'charges', query: `customer:'${payer}'` },
    { table: 'charges', query: `status:'failed' AND created>${month}` },
    { table: 'charges', query: `status:'succeeded' AND created>${month}` },
    { table: 'charges', query: `-status:'succeeded'` },
    { table: 'charges', query: `amount>100000 OR disputed:true` },
    { table: 'charges', query: `refunded:true AND payment_method_details.card.brand:'visa'` },
    { table: 'charges', query: `metadata['order']:'none'` },
    { table: 'invoices', query: `status:'open'` },
    { table: 'payment_intents', query: `status:'requires_payment_method' OR amount:1` },
    { table: 'subscriptions', query: `status:'active' AND created>${month}` },
    { table: 'subscriptions', query: `-status:'active'` },
  ];
}

function searchOnce(inst: Instance, q: SearchQuery, limit: number) {
  const r = inst.operation(OPERATION[q.table], {
    params: { query: q.query, limit },
    path: {},
    version: '2026-10-28.endive',
    idempotency_key: null,
  });
  if (!r.ok) throw new Error(`${q.table} search failed: ${JSON.stringify(r.error)}`);
  const out = r.result as { status: number; body: { data: { id: string }[]; has_more: boolean } };
  if (out.status !== 200)
    throw new Error(
      `${q.table} search "${q.query}" answered ${out.status}: ${JSON.stringify(out.body)}`,
    );
  return out.body;
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export function runSearchBench(
  opts: { quick?: boolean; fixture?: string; iterations?: number } = {},
): SearchResult {
  const fixture = opts.fixture ?? 'big_co';
  const load = loadavg()[0];
  const iterations = opts.iterations ?? (opts.quick ? 5 : 200);
  // The call log keeps no results, so that recording a page of 100 charges every call costs what it costs a server.
  const inst = stripe.instance({ fixture, maxCallLogBytes: 0 });
  const image = fileURLToPath(
    new URL(`../worlds/stripe/fixtures/${fixture}.sqlite`, import.meta.url),
  );
  const raw = new Database(image, { readonly: true });
  try {
    const rows: SearchRow[] = [];
    for (const q of typicalQueries(inst)) {
      const byId = raw.prepare(`SELECT data FROM ${q.table} WHERE id = ?`);
      for (const limit of [10, 100]) {
        // One untimed run warms the page cache and the statement caches, as a served session's earlier calls do.
        const page = searchOnce(inst, q, limit);
        const ids = page.data.map((o) => o.id);
        for (const id of ids) JSON.parse((byId.get(id) as { data: string }).data);
        const samples: number[] = [];
        const floor: number[] = [];
        const walk: number[] = [];
        const where = searchWhere(q.table, checkSearch(q.query, SEARCH_FIELDS[q.table]));
        const live = q.table === 'customers' ? 'deleted = 0' : '1';
        const walkSql = `SELECT data FROM ${q.table} INDEXED BY ${q.table}_order WHERE ${live} AND ${where.sql} ORDER BY created DESC, seq DESC LIMIT ?`;
        for (let i = 0; i < iterations; i++) {
          let t0 = process.hrtime.bigint();
          searchOnce(inst, q, limit);
          samples.push(ms(t0));
          t0 = process.hrtime.bigint();
          for (const id of ids) JSON.parse((byId.get(id) as { data: string }).data);
          floor.push(ms(t0));
          t0 = process.hrtime.bigint();
          inst.query(walkSql, ...where.args, limit + 1);
          walk.push(ms(t0));
        }
        rows.push({
          ...q,
          limit,
          found: ids.length,
          hasMore: page.has_more,
          samples: samples.sort((a, b) => a - b),
          floor: floor.sort((a, b) => a - b),
          walk: walk.sort((a, b) => a - b),
        });
      }
    }
    return { fixture, load, rows, iterations };
  } finally {
    raw.close();
    inst.destroy();
  }
}

const fmt = (v: number) => (v < 1 ? `${(v * 1000).toFixed(0)} µs` : `${v.toFixed(1)} ms`);

export function formatSearch(r: SearchResult): string {
  const worst = Math.max(...r.rows.map((row) => percentile(row.samples, 99)));
  return [
    `Machine: ${machine()}; 1-minute load average ${r.load.toFixed(1)} when the run started (other work shares the 2 cores, so p99 includes its stalls).`,
    '',
    `Each query runs through its search operation (\`inst.operation('GetChargesSearch', …)\`, in process, as the HTTP face runs it) on one instance of \`${r.fixture}\`, at limit 10 and 100: one untimed run, then ${r.iterations} timed. Floor: reading the same page's rows by id from the fixture's image (better-sqlite3, read-only) and parsing their JSON; "order walk": the page's SQL forced onto the table's order index (\`inst.query\`, no JSON parsed), the plan of every query before the field indexes. The three are timed in turn, query after query.`,
    '',
    '| resource | query | limit | found | p50 | p99 | floor p50 | ratio p50 | order walk p50 |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map((row) => {
      const p50 = percentile(row.samples, 50);
      const f50 = percentile(row.floor, 50);
      return `| ${row.table} | \`${row.query.replaceAll('|', '\\|')}\` | ${row.limit} | ${row.found}${row.hasMore ? '+' : ''} | ${fmt(p50)} | ${fmt(percentile(row.samples, 99))} | ${row.found === 0 ? '—' : fmt(f50)} | ${row.found === 0 ? '—' : (p50 / f50).toFixed(1)} | ${fmt(percentile(row.walk, 50))} |`;
    }),
    '',
    `Worst p99: ${fmt(worst)} (target < 50 ms for every query and limit: ${worst < 50 ? 'met' : 'not met'}).`,
  ].join('\n');
}
