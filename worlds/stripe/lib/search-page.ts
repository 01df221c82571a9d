/**
 * Search endpoints (`/v1/<resource>/search`): Stripe's query language over one table, in the search envelope
 * `{ object: 'search_result', data, has_more, next_page, url }`. Immediately consistent, unlike Stripe's (which lags
 * up to a minute): an agent sees what it just wrote, and episodes stay deterministic.
 */
import type { Ctx } from '../../../kit/index.ts';
import { invalidRequest } from './errors.ts';
import { limitOf } from './list.ts';
import { compileSearch, SEARCH_FIELDS } from './search.ts';
import { rows, type Obj, type Table } from './store.ts';

export interface SearchParams {
  query: string;
  limit?: number | null;
  page?: string | null;
  expand?: string[];
}

/** One page of search results, newest first; `page` is the previous page's `next_page`. */
export function searchPage(ctx: Ctx, table: Table, params: SearchParams, url: string): Obj {
  const fields = SEARCH_FIELDS[table];
  const matches = compileSearch(params.query, fields);
  const limit = limitOf(params.limit);
  let offset = 0;
  if (params.page) {
    const m = /^page_(\d+)$/.exec(params.page);
    if (!m) throw invalidRequest(`Invalid page: ${params.page}; pass the next_page of the previous result.`, 'page');
    offset = Number(m[1]);
  }
  const live = table === 'customers' || table === 'products' || table === 'prices' ? 'deleted = 0' : '1';
  const all = rows(ctx, table, live, []).filter(matches);
  const data = all.slice(offset, offset + limit);
  const has_more = all.length > offset + limit;
  const out: Obj = { object: 'search_result', data, has_more, next_page: has_more ? `page_${offset + limit}` : null, url };
  if (params.expand?.includes('total_count')) out.total_count = all.length;
  return out;
}
