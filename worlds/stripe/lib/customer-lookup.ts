/** Customers by id, for every resource that names one (kept apart from resources/customers.ts so those can import it without a cycle). */
import type { Ctx } from 'seahaven';
import { resourceMissing } from './errors.ts';
import { get, type Stored } from './store.ts';

/** A customer's stored object (deleted customers keep their stub). */
export function getCustomer(ctx: Ctx, id: string, param = 'customer'): Stored<'customers'> {
  const c = get(ctx, 'customers', id);
  if (c === undefined) throw resourceMissing('customer', id, param);
  return c;
}

/** A live (not deleted) customer, or 404. */
export function liveCustomer(ctx: Ctx, id: string, param = 'customer'): Stored<'customers'> {
  const c = getCustomer(ctx, id, param);
  if (c.deleted) throw resourceMissing('customer', id, param);
  return c;
}
