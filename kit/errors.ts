/** Errors: `ToolError` is an agent-facing failure; `DefinitionError` is an author mistake caught at definition time. */

/** A failure the agent should see: the call is rolled back and the agent gets `{code, message, details}`. */
export class ToolError extends Error {
  readonly code: string;
  readonly details?: Record<string, unknown>;
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

/** An author mistake in a world, tool, fixture or task definition. The message names the fix. */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}

/** A harness-side misuse of an instance (unknown fixture, bad seed, destroyed instance). */
export class InstanceError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'InstanceError';
    this.code = code;
  }
}
