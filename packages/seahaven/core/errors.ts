/**
 * Errors: one root, `SeahavenError`, with two branches. `AgentError` is what the agent sees: `ToolError` (and its
 * subclasses) thrown by a tool becomes the failed call's `{code, message, details}`. `AuthorError` is a mistake of the
 * world's author or of the harness driving it: `DefinitionError` (a definition the kit refuses at import) and
 * `InstanceError` (a misuse of an instance) here, `GraderError`, `NeedsDatabaseError` and `CurriculumError` in the
 * libraries. Every error carries a stable `code` and its branch's `kind`.
 *
 * Each class of the kit carries a brand under a `Symbol.for` key, and `instanceof` checks the brand: a process can hold
 * two copies of the kit (a world importing the package's sources while the host runs its build, or two installed
 * versions), and an error thrown by one copy must still be recognised by the other. A subclass the kit does not
 * define (`class PaymentError extends ToolError`) is checked with ordinary `instanceof`.
 */

/**
 * The codes the kit gives a failed call itself (`invalid_arguments`, `unknown_tool`, `unknown_operation`,
 * `constraint_violation`, `resource_exhausted`, `internal`), and any code a world's tool chooses.
 */
export type AgentErrorCode =
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'unknown_operation'
  | 'constraint_violation'
  | 'resource_exhausted'
  | 'internal'
  | (string & {});

/** The codes of an `InstanceError`: what the harness did wrong with an instance. */
export type InstanceErrorCode =
  | 'unknown_fixture'
  | 'unknown_task'
  | 'no_task'
  | 'unknown_store'
  | 'invalid_seed'
  | 'invalid_clock'
  | 'invalid_now'
  | 'invalid_limit'
  | 'invalid_slow_call_ms'
  | 'fixture_invalid'
  | 'fixture_mismatch'
  | 'no_http_face'
  | 'not_read_only'
  | 'destroyed'
  | 'advancing'
  | 'resource_exhausted';

/**
 * The codes of an `AuthorError`: an `InstanceError`'s, `invalid_definition` (a `DefinitionError`), and those of the
 * libraries' author errors (`invalid_grader`, `needs_database`, a `CurriculumError`'s).
 */
export type AuthorErrorCode = InstanceErrorCode | 'invalid_definition' | (string & {});

/** Any error code of the kit or of a world. */
export type SeahavenErrorCode = AgentErrorCode | AuthorErrorCode;

type ErrorClass = abstract new (...args: never[]) => SeahavenError<string>;

/** Each class of the kit's brand key; a class not in it (a user's subclass) has none. */
const BRANDS = new WeakMap<ErrorClass, symbol>();

/** Give `cls` a brand, `Symbol.for('seahaven.<name>')`: its instances carry it, and `instanceof cls` checks it. */
export function brandErrorClass(cls: ErrorClass, name: string): void {
  BRANDS.set(cls, Symbol.for(`seahaven.${name}`));
}

/**
 * The root of every error the kit and its libraries throw on purpose: a stable `code`, and a `kind` that says whom
 * it is for: `'agent'` (an `AgentError`) or `'author'` (an `AuthorError`). `e instanceof SeahavenError` is true for
 * an error of any copy of the kit in the process.
 */
export abstract class SeahavenError<C extends string = SeahavenErrorCode> extends Error {
  readonly code: C;
  /** Whom the error is for: the agent (its tool call failed) or the world's author or harness (a mistake to fix). */
  abstract get kind(): 'agent' | 'author';
  constructor(code: C, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    for (
      let cls: unknown = new.target;
      typeof cls === 'function' && cls !== Error;
      cls = Object.getPrototypeOf(cls)
    ) {
      const key = BRANDS.get(cls as ErrorClass);
      if (key !== undefined) Object.defineProperty(this, key, { value: true });
    }
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    const key = BRANDS.get(this);
    if (key === undefined) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[key] === true
    );
  }
}

/**
 * A failure the agent sees: thrown from a tool, it rolls the call back and the agent gets `{code, message, details}`.
 * Throw a `ToolError`; a subclass of its own is for a world that carries more (Stripe World's `StripeError`).
 */
export abstract class AgentError<C extends string = AgentErrorCode> extends SeahavenError<C> {
  readonly details?: Record<string, unknown>;
  constructor(code: C, message: string, details?: Record<string, unknown>) {
    super(code, message);
    if (details !== undefined) this.details = details;
  }
  override get kind(): 'agent' {
    return 'agent';
  }
}

/** A mistake of the world's author or of the harness: never shown to an agent; the message names the fix. */
export abstract class AuthorError<C extends string = AuthorErrorCode> extends SeahavenError<C> {
  override get kind(): 'author' {
    return 'author';
  }
}

/**
 * A failure the agent should see: the call is rolled back and the agent gets `{code, message, details}`.
 * `e instanceof ToolError` is true for a `ToolError` of any copy of the kit in the process.
 */
export class ToolError extends AgentError {
  constructor(code: AgentErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'ToolError';
  }
}

/** An author mistake in a world, tool, fixture or task definition (code `invalid_definition`). The message names the fix. */
export class DefinitionError extends AuthorError<'invalid_definition'> {
  constructor(message: string) {
    super('invalid_definition', message);
    this.name = 'DefinitionError';
  }
}

/** A harness-side misuse of an instance (unknown fixture, bad seed, destroyed instance), with a stable `code`. */
export class InstanceError extends AuthorError<InstanceErrorCode> {
  constructor(code: InstanceErrorCode, message: string) {
    super(code, message);
    this.name = 'InstanceError';
  }
}

brandErrorClass(SeahavenError, 'SeahavenError');
brandErrorClass(AgentError, 'AgentError');
brandErrorClass(AuthorError, 'AuthorError');
brandErrorClass(ToolError, 'ToolError');
brandErrorClass(DefinitionError, 'DefinitionError');
brandErrorClass(InstanceError, 'InstanceError');
