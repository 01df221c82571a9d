/**
 * Errors: `ToolError` is an agent-facing failure; `DefinitionError` is an author mistake caught at definition time;
 * `InstanceError` is a harness-side misuse of an instance.
 *
 * Each carries a brand under a `Symbol.for` key, and `instanceof` checks the brand: a process can hold two copies of
 * the kit (a world importing the package's sources while the host runs its build, or two installed versions), and an
 * error thrown by one copy must still be recognised by the other.
 */

const TOOL_ERROR = Symbol.for('seahaven.ToolError');
const DEFINITION_ERROR = Symbol.for('seahaven.DefinitionError');
const INSTANCE_ERROR = Symbol.for('seahaven.InstanceError');

function brand(error: Error, key: symbol): void {
  Object.defineProperty(error, key, { value: true });
}

/** Whether `value` carries `key`'s brand; for a subclass (`class MyError extends ToolError`), ordinary `instanceof`. */
function hasBrand(cls: abstract new (...args: never[]) => unknown, base: abstract new (...args: never[]) => unknown, key: symbol, value: unknown): boolean {
  if (cls !== base) return Function.prototype[Symbol.hasInstance].call(cls, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true;
}

/**
 * A failure the agent should see: the call is rolled back and the agent gets `{code, message, details}`.
 * `e instanceof ToolError` is true for a `ToolError` of any copy of the kit in the process.
 */
export class ToolError extends Error {
  readonly code: string;
  readonly details?: Record<string, unknown>;
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    if (details !== undefined) this.details = details;
    brand(this, TOOL_ERROR);
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, ToolError, TOOL_ERROR, value);
  }
}

/** An author mistake in a world, tool, fixture or task definition. The message names the fix. */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
    brand(this, DEFINITION_ERROR);
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, DefinitionError, DEFINITION_ERROR, value);
  }
}

/** A harness-side misuse of an instance (unknown fixture, bad seed, destroyed instance). */
export class InstanceError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'InstanceError';
    this.code = code;
    brand(this, INSTANCE_ERROR);
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, InstanceError, INSTANCE_ERROR, value);
  }
}
