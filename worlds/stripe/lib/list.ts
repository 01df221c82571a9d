/**
 * Stripe's list envelope and cursor pagination: newest first (`created` desc, then `seq` desc); `limit` 1–100
 * (default 10); `starting_after` (older than that object) or `ending_before` (the `limit` objects just newer, still
 * newest first); `created` as a unix time or a range. The SDK's auto-pagination follows `has_more`.
 */
import type { Ctx, SqlParam } from 'seahaven';
import { invalidRequest, resourceMissing } from './errors.ts';
import { positionOf, rows, type Stored, type Table } from './store.ts';

export interface ListOptions<T extends Table = Table, O = Stored<T>> {
  /** Filters as SQL over the table's columns, like `customer = ?`, with their parameters. */
  where?: [string, ...SqlParam[]][];
  /** The list's own `url` (`/v1/customers`). */
  url: string;
  /** The object name for a bad cursor's 404 (`No such customer: 'cus_…'`). */
  what: string;
  /** Leave out rows a list never shows (deleted customers). Default true for tables with a `deleted` column. */
  excludeDeleted?: boolean;
  /** Shape each object (the plans view of prices). */
  map?: (o: Stored<T>) => O;
}

export interface ListParams {
  limit?: number | null;
  starting_after?: string | null;
  ending_before?: string | null;
  created?: {
    eq?: number | null;
    gt?: number | null;
    gte?: number | null;
    lt?: number | null;
    lte?: number | null;
  } | null;
}

export interface ListEnvelope<T = object> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** The page size: 1–100, default 10. */
export function limitOf(limit: number | null | undefined): number {
  if (limit === undefined || limit === null) return 10;
  if (limit < 1 || limit > 100)
    throw invalidRequest(
      `Invalid limit: must be between 1 and 100`,
      'limit',
      'parameter_invalid_integer',
    );
  return limit;
}

const RANGE_OPS: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** One page of `table`, newest first. */
export function listPage<T extends Table, O = Stored<T>>(
  ctx: Ctx,
  table: T,
  params: ListParams,
  options: ListOptions<T, O>,
): ListEnvelope<O> {
  const limit = limitOf(params.limit);
  if (params.starting_after && params.ending_before) {
    throw invalidRequest(
      'Received both starting_after and ending_before parameters. Please pass in only one.',
      'starting_after',
    );
  }
  const clauses: string[] = [];
  const args: SqlParam[] = [];
  for (const [sql, ...values] of options.where ?? []) {
    clauses.push(sql);
    args.push(...values);
  }
  if (options.excludeDeleted ?? hasDeleted(table)) clauses.push('deleted = 0');
  for (const [op, value] of Object.entries(params.created ?? {})) {
    if (value === null || value === undefined) continue;
    clauses.push(`created ${RANGE_OPS[op]} ?`);
    args.push(value);
  }
  const cursorId = params.starting_after ?? params.ending_before;
  let ascending = false;
  if (cursorId) {
    const cursor = positionOf(ctx, table, cursorId);
    if (cursor === undefined)
      throw resourceMissing(
        options.what,
        cursorId,
        params.starting_after ? 'starting_after' : 'ending_before',
      );
    if (params.starting_after) {
      clauses.push('(created < ? OR (created = ? AND seq < ?))');
    } else {
      clauses.push('(created > ? OR (created = ? AND seq > ?))');
      ascending = true;
    }
    args.push(cursor.created, cursor.created, cursor.seq);
  }
  const found = rows(
    ctx,
    table,
    clauses.length ? clauses.join(' AND ') : '1',
    args,
    ascending,
    limit + 1,
  );
  const has_more = found.length > limit;
  let page = found.slice(0, limit);
  if (ascending) page = page.reverse();
  // Without `map` the page is the stored objects themselves (`O` defaults to `Stored<T>`).
  const data = options.map ? page.map(options.map) : (page as unknown as O[]);
  return { object: 'list', data, has_more, url: options.url };
}

const withDeleted = new Set(['customers', 'products', 'prices', 'coupons']);
function hasDeleted(table: Table): boolean {
  return withDeleted.has(table);
}

/** A list envelope over objects already in hand (nested lists such as `charge.refunds`). */
export function listOf<T>(data: T[], url: string, has_more = false): ListEnvelope<T> {
  return { object: 'list', data, has_more, url };
}
