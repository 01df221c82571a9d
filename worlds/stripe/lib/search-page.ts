/**
 * Search endpoints (`/v1/<resource>/search`): Stripe's query language over one table, in the search envelope
 * `{ object: 'search_result', data, has_more, next_page, url }`. Immediately consistent, unlike Stripe's (which lags
 * up to a minute): an agent sees what it just wrote, and episodes stay deterministic.
 */
import type { Ctx } from 'seahaven';
import { invalidRequest } from './errors.ts';
import { limitOf } from './list.ts';
import { checkSearch, SEARCH_FIELDS } from './search.ts';
import { searchPlan } from './search-sql.ts';
import type { ApiSearchResult } from './objects.ts';
import type { Stored, Table } from './store.ts';

export interface SearchParams {
  query: string;
  limit?: number | null;
  page?: string | null;
  expand?: string[] | null;
}

/** One page of search results, newest first; `page` is the previous page's `next_page`. */
export function searchPage<T extends Table>(
  ctx: Ctx,
  table: T,
  params: SearchParams,
  url: string,
): ApiSearchResult<Stored<T>> {
  const fields = SEARCH_FIELDS[table];
  const parsed = checkSearch(params.query, fields);
  const limit = limitOf(params.limit);
  let offset = 0;
  if (params.page) {
    const m = /^page_(\d+)$/.exec(params.page);
    if (!m)
      throw invalidRequest(
        `Invalid page: ${params.page}; pass the next_page of the previous result.`,
        'page',
      );
    offset = Number(m[1]);
    if (!Number.isSafeInteger(offset))
      throw invalidRequest(
        `Invalid page: ${params.page}; pass the next_page of the previous result.`,
        'page',
      );
  }
  const live =
    table === 'customers' || table === 'products' || table === 'prices' ? 'deleted = 0' : '1';
  // The order index holds every search column and a field's index its matches in order, so SQL tests the clauses on
  // index entries (or a few candidates' rows) and reads the JSON of this page's rows only (search-sql.ts).
  const plan = searchPlan(ctx.db, table, parsed);
  const from = `${plan.from} WHERE ${live} AND ${plan.sql}`;
  const found = ctx.db
    .all<{ data: string }>(
      // eslint-disable-next-line seahaven/no-sql-interpolation -- fixed clause text from search-sql.ts; values are parameters
      `SELECT data FROM ${from} ORDER BY created DESC, seq DESC LIMIT ? OFFSET ?`,
      ...plan.args,
      limit + 1,
      offset,
    )
    .map((r) => JSON.parse(r.data) as Stored<T>);
  const has_more = found.length > limit;
  const data = found.slice(0, limit);
  const out: ApiSearchResult<Stored<T>> = {
    object: 'search_result',
    data,
    has_more,
    next_page: has_more ? `page_${offset + limit}` : null,
    url,
  };
  if (params.expand?.includes('total_count'))
    out.total_count = ctx.db.one<{ n: number }>(
      // eslint-disable-next-line seahaven/no-sql-interpolation -- as above
      `SELECT count(*) AS n FROM ${from}`,
      ...plan.args,
    )!.n;
  return out;
}
