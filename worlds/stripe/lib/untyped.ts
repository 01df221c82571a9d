/**
 * The two untyped escape hatches left in Stripe World, kept in this one module so that the `no-explicit-any` rule
 * (eslint.config.ts) checks every other file, and removed with their last use. New code uses `Stored<T>` (store.ts),
 * or `Record<string, unknown>` with narrowing for arbitrary JSON.
 */

/** An untyped object: what code not yet moved onto the typed objects (`Stored<'customers'>` …) still passes around. */
export type Obj = any;

/** A tool's arguments as its zod schema (tool-args.ts) parses them, until those schemas are typed from the operations' specs. */
export type UntypedParams = any;
