import { describe, expect, it } from 'vitest';
import { stripe } from '../index.ts';
import { checkSearch, compileSearch, SEARCH_FIELDS, type FieldSpec } from '../lib/search.ts';
import { INDEXED_FIELDS, searchPlan, searchWhere } from '../lib/search-sql.ts';
import { kindOf, readPath, SEARCH_COLUMNS } from '../lib/search-fields.ts';
import type { Obj } from '../lib/store.ts';

// Search runs as SQL over the search columns and the order index (lib/search-fields.ts, lib/search-sql.ts). These
// tests hold it to the predicates it replaced (`compileSearch` over every row, newest first) on small_startup, for
// queries built from the fixture's own values, and check that SQLite answers from the index.

const headers = { authorization: 'Bearer sk_test_searchindex' };
const LIVE = new Set(['customers', 'products', 'prices']);

/** Queries for `table`, built from values its rows hold: every field with `:`, and `~`, comparators, null, `-`, OR. */
function queriesFor(table: string, objs: Obj[]): string[] {
  const fields = SEARCH_FIELDS[table] as Record<string, FieldSpec>;
  const out: string[] = [];
  const sample = (field: string, spec: FieldSpec) => {
    const read = typeof spec === 'string' ? (o: Obj) => readPath(o, field) : spec.read;
    return objs.map(read).filter((v) => v !== null && v !== undefined);
  };
  for (const [field, spec] of Object.entries(fields)) {
    const kind = kindOf(spec);
    const values = sample(field, spec);
    if (kind === 'metadata') {
      const keys = [...new Set(objs.flatMap((o) => Object.keys(o.metadata ?? {})))].slice(0, 3);
      for (const key of keys) {
        const v = objs.find((o) => typeof o.metadata?.[key] === 'string')?.metadata[key];
        out.push(`metadata['${key}']:null`, `-metadata['${key}']:null`);
        if (typeof v === 'string' && !v.includes("'"))
          out.push(`metadata['${key}']:'${v}'`, `-metadata['${key}']:'${v}'`);
      }
      out.push(`metadata['no such key']:null`);
      continue;
    }
    out.push(`${field}:null`, `-${field}:null`);
    if (values.length === 0) continue;
    const pick = values[Math.floor(values.length / 3)];
    const id = typeof pick === 'object' ? (pick as Obj).id : pick;
    switch (kind) {
      case 'number': {
        const n = Number(pick);
        out.push(
          `${field}:${n}`,
          `${field}>${n}`,
          `${field}<=${n}`,
          `-${field}>=${n}`,
          `${field}<"${n}"`,
        );
        break;
      }
      case 'boolean':
        out.push(`${field}:true`, `${field}:'FALSE'`, `-${field}:true`);
        break;
      case 'string': {
        const text = String(pick);
        if (!text.includes('"'))
          out.push(`${field}:"${text.toUpperCase()}"`, `-${field}:"${text}"`);
        const middle = text.slice(1, 5);
        if (middle.length >= 3 && !middle.includes('"'))
          out.push(`${field}~"${middle.toUpperCase()}"`, `-${field}~"${middle}"`);
        break;
      }
      default:
        if (!String(id).includes('"'))
          out.push(
            `${field}:"${String(id).toUpperCase()}"`,
            `${field}:"${id}"`,
            `-${field}:"${id}"`,
          );
    }
  }
  const some = out.filter((q) => !q.startsWith('-')).slice(0, 4);
  out.push(
    some.join(' OR '),
    some.slice(0, 2).join(' AND '),
    `${some[0]} ${out.find((q) => q.startsWith('-'))}`,
  );
  return out;
}

describe('search over the search columns', () => {
  it('finds exactly what the predicates found, in the same order, page by page, with total_count', () => {
    const inst = stripe.instance({ fixture: 'small_startup' });
    try {
      let checked = 0;
      const indexes = new Set<string>();
      for (const table of Object.keys(SEARCH_FIELDS)) {
        const live = LIVE.has(table) ? 'deleted = 0' : '1';
        const objs = inst
          .query<{ data: string }>(
            `SELECT data FROM ${table} WHERE ${live} ORDER BY created DESC, seq DESC`,
          )
          .map((r) => JSON.parse(r.data) as Obj);
        expect(objs.length, table).toBeGreaterThan(0);
        const path = `/${table}/search`;
        const absent = (INDEXED_FIELDS[table] ?? []).flatMap((f) => {
          const kind = kindOf((SEARCH_FIELDS[table] as Record<string, FieldSpec>)[f]);
          const q =
            kind === 'number'
              ? `${f}>99999999`
              : kind === 'boolean'
                ? `${f}:true`
                : `${f}:'none of these'`;
          return [`${q} created>0`, `${q} OR ${q.replace('99999999', '88888888')}`];
        });
        for (const query of [...queriesFor(table, objs), ...absent]) {
          const want = objs.filter(compileSearch(query, SEARCH_FIELDS[table])).map((o) => o.id);
          // Every match, by the SQL the search pages run.
          const where = searchWhere(table, checkSearch(query, SEARCH_FIELDS[table]));
          const all = inst
            .query<{ id: string }>(
              `SELECT id FROM ${table} WHERE ${live} AND ${where.sql} ORDER BY created DESC, seq DESC`,
              ...where.args,
            )
            .map((r) => r.id);
          expect(all, `${table}: ${query}`).toEqual(want);
          // Whichever index a plan reads (a field's, when its candidates are at most the limit, or the order index
          // past it), it finds the same rows in the same order.
          const db = {
            one: <T>(sql: string, ...args: unknown[]) => inst.query<T>(sql, ...args)[0],
          };
          for (const limit of [0, 2, 2000]) {
            const plan = searchPlan(db, table, checkSearch(query, SEARCH_FIELDS[table]), limit);
            for (const m of plan.from.matchAll(/INDEXED BY (\w+)/g)) indexes.add(m[1]);
            if (plan.from.endsWith('NOT INDEXED')) indexes.add(`${table} by rowid`);
            const planned = inst
              .query<{ id: string }>(
                `SELECT id FROM ${plan.from} WHERE ${live} AND ${plan.sql} ORDER BY created DESC, seq DESC`,
                ...plan.args,
              )
              .map((r) => r.id);
            expect(planned, `${table} from ${plan.from}: ${query}`).toEqual(want);
          }
          // And two pages through the face, with total_count.
          const got: string[] = [];
          let page: string | null = null;
          for (let n = 0; n < 2; n++) {
            const params = new URLSearchParams({ query, limit: '20', 'expand[]': 'total_count' });
            if (page !== null) params.set('page', page);
            const reply = inst.request({
              method: 'GET',
              path,
              query: params.toString(),
              headers,
              body: '',
            });
            expect(reply.status, `${table}: ${query}`).toBe(200);
            const body = JSON.parse(reply.body as string) as {
              data: Obj[];
              next_page: string | null;
              total_count: number;
            };
            got.push(...body.data.map((o) => o.id));
            expect(body.total_count, `${table}: ${query}`).toBe(want.length);
            page = body.next_page;
            if (page === null) break;
          }
          expect(got, `${table}: ${query}`).toEqual(want.slice(0, 40));
          expect(page === null, `${table}: ${query}`).toBe(want.length <= got.length);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(150);
      // Every field index was read by some plan, as was every order index, and OR queries read rows by rowid.
      expect(indexes).toContain('charges by rowid');
      for (const [table, fields] of Object.entries(INDEXED_FIELDS))
        for (const f of fields) expect(indexes, table).toContain(`${table}_search_${f}`);
      for (const table of Object.keys(SEARCH_FIELDS)) expect(indexes).toContain(`${table}_order`);
    } finally {
      inst.destroy();
    }
  });

  it('has a column for every searchable field, carried by the order index SQLite walks', () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      for (const [table, columns] of Object.entries(SEARCH_COLUMNS)) {
        const indexed = inst
          .query<{ name: string }>(
            'SELECT name FROM pragma_index_info(?) WHERE name IS NOT NULL',
            `${table}_order`,
          )
          .map((r) => r.name);
        expect(indexed.slice(0, 2)).toEqual(['created', 'seq']);
        expect(indexed.slice(2).filter((c) => c !== 'deleted')).toEqual(
          columns.map((c) => c.column),
        );
        // A page walks the index in the order it shows, without sorting; the clauses are tested on its entries.
        const field = columns[columns.length - 1].field;
        const where = searchWhere(table, checkSearch(`-${field}:null`, SEARCH_FIELDS[table]));
        const plan = inst.query<{ detail: string }>(
          `EXPLAIN QUERY PLAN SELECT data FROM ${table} WHERE ${LIVE.has(table) ? 'deleted = 0' : '1'} AND ${where.sql} ORDER BY created DESC, seq DESC LIMIT 11 OFFSET 0`,
          ...where.args,
        );
        expect(
          plan.map((r) => r.detail),
          table,
        ).toEqual([`SCAN ${table} USING INDEX ${table}_order`]);
      }
    } finally {
      inst.destroy();
    }
  });
});
