/** Stripe's search query language (placeholder: exact `field:"value"` clauses joined by AND). */
import { invalidRequest } from './errors.ts';
import type { Obj } from './store.ts';

export type FieldKind = 'string' | 'number' | 'boolean' | 'metadata';

/** The searchable fields of each searchable table. */
export const SEARCH_FIELDS: Partial<Record<string, Record<string, FieldKind>>> = {
  customers: { created: 'number', email: 'string', metadata: 'metadata', name: 'string', phone: 'string' },
};

export function compileSearch(query: string, fields: Record<string, FieldKind> | undefined): (o: Obj) => boolean {
  if (!fields) throw invalidRequest('This resource cannot be searched.');
  const clauses = query.split(/\s+AND\s+/).map((c) => {
    const m = /^(\w+):["'](.*)["']$/.exec(c.trim());
    if (!m || !fields[m[1]]) throw invalidRequest(`Invalid search query: ${query}`, 'query');
    return (o: Obj) => String(o[m[1]]) === m[2];
  });
  return (o) => clauses.every((f) => f(o));
}
