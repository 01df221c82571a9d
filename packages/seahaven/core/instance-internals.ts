/**
 * Keys of the members the kit's own modules use beyond an instance's public API (and the check of a call's result): the served call (a transport writes
 * the result's JSON without serialising it again), the fixture build and the stores' open connections. No subpath exports
 * this module, so code outside the kit cannot reach these members, and their declarations are stripped from the
 * published types.
 */
import type { ToolFailure } from './call-failure.ts';

/** `inst[callWithJson](name, args)`: `call()`, also returning the JSON text the call log recorded. */
export const callWithJson: unique symbol = Symbol('seahaven.callWithJson');
/** `inst[advanceWithJson](ms)`: `advanceClock()`, also returning the JSON text of its outcome. */
export const advanceWithJson: unique symbol = Symbol('seahaven.advanceWithJson');
/** `inst[advanceInSlices](ms)`: `advanceClock()` as a `ClockRun`, run a slice at a time. */
export const advanceInSlices: unique symbol = Symbol('seahaven.advanceInSlices');
/** `inst[runFixtureBuild](fn)`: run a fixture's builder as one transaction, recording nothing. */
export const runFixtureBuild: unique symbol = Symbol('seahaven.runFixtureBuild');
/** `inst[storeDatabases]()`: each store's open connection, host first, with the episode so far committed. */
export const storeDatabases: unique symbol = Symbol('seahaven.storeDatabases');

/** `inst[openBytes]()`: the bytes of the databases it holds open, what a fork of it would copy (sleeping stores share their images). */
export const openBytes: unique symbol = Symbol('seahaven.openBytes');

/**
 * A call's outcome as a transport sends it: the result or the failure, and its JSON text (the text the call log
 * recorded), so the transport writes it without serialising it again.
 */
export type CallOutcome =
  { ok: true; result: unknown; json: string } | { ok: false; error: ToolFailure; json: string };

/** What may give a result's JSON text where the code that made it has it already (an operation's `json`). */
export interface KnownJson {
  json?(result: unknown): string | undefined;
}

/**
 * A call's result checked and serialised; throws (the call is rolled back) when it is a Promise or not JSON. The text
 * is `from.json(result)` where that gives one.
 */
export function outcomeOf(name: string, value: unknown, from?: KnownJson): CallOutcome {
  if (value instanceof Promise) {
    value.catch(() => undefined);
    throw new TypeError(`${name} returned a Promise; tools and operations must be synchronous`);
  }
  const result = value === undefined ? null : value;
  try {
    const json = from?.json === undefined || result === null ? undefined : from.json(result);
    return { ok: true, result, json: json ?? JSON.stringify(result) ?? 'null' };
  } catch (e) {
    throw new TypeError(
      `${name} returned a value that is not JSON (${(e as Error).message}); return plain objects, arrays, strings, numbers, booleans and null`,
    );
  }
}

/** An advance of the clock run in slices (`inst[advanceInSlices](ms)`). */
export interface ClockRun {
  /** Run until the work is done or `budgetMs` milliseconds are spent: the outcome when done, null while work remains. */
  slice(budgetMs: number): CallOutcome | null;
}
