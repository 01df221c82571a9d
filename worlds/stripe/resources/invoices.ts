/** (being written) */
import type { StripeOp } from '../lib/op.ts';

export const invoicesOps: StripeOp[] = [];
