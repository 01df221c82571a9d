/** Tools: the actions an agent can take in a world, each a zod-typed input and a synchronous `run(ctx, input)`. */
import { z } from 'zod';
import { DefinitionError } from './errors.ts';
import type { Ctx } from './ctx.ts';

/** Names the protocol uses for its own actions; a tool may not take them. */
export const RESERVED_TOOL_NAMES: readonly string[] = [
  'reset',
  'step',
  'state',
  'close',
  'submit',
  'list_tools',
  'call_tool',
  'advance_clock',
];
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * MCP's tool annotations: hints about a tool's behaviour for the client (to ask before a destructive call, say). They
 * are hints, not guarantees; the kit sends them as given and assumes none a tool does not give.
 */
export interface ToolAnnotations {
  /** A human-readable name for the tool, like "Create a contact". */
  title?: string;
  /** The tool changes nothing (MCP's default: false). */
  readOnlyHint?: boolean;
  /** The tool may delete or overwrite what exists, rather than only add (MCP's default: true). Meaningful when not read-only. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect (MCP's default: false). Meaningful when not read-only. */
  idempotentHint?: boolean;
  /** The tool reaches an open world of external entities rather than a closed domain (MCP's default: true). */
  openWorldHint?: boolean;
}

const ANNOTATION_KEYS: readonly string[] = [
  'title',
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
];
const EXAMPLE_ANNOTATIONS = "annotations: { title: 'Find contacts', readOnlyHint: true }";

/**
 * Check a tool's annotations; `where` opens the message (`defineTool("x")`). Returns a frozen copy holding only the keys
 * given.
 * @example
 * checkAnnotations('defineTool("list_notes")', { readOnlyHint: true }); // { readOnlyHint: true }
 */
export function checkAnnotations(where: string, value: unknown): Readonly<ToolAnnotations> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DefinitionError(
      `${where}: annotations must be an object, like ${EXAMPLE_ANNOTATIONS}; got ${Array.isArray(value) ? 'an array' : (JSON.stringify(value) ?? typeof value)}.`,
    );
  }
  const entries = Object.entries(value);
  const unknown = entries.map(([k]) => k).filter((k) => !ANNOTATION_KEYS.includes(k));
  if (unknown.length > 0) {
    throw new DefinitionError(
      `${where}: annotations has unknown key(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}; MCP's tool annotations are ${ANNOTATION_KEYS.join(', ')}.`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of entries) {
    if (v === undefined) continue;
    if (key === 'title') {
      if (typeof v !== 'string' || v.trim() === '')
        throw new DefinitionError(
          `${where}: annotations.title must be a non-empty string, like title: 'Find contacts'; got ${JSON.stringify(v) ?? typeof v}.`,
        );
      out.title = v.trim();
    } else {
      if (typeof v !== 'boolean')
        throw new DefinitionError(
          `${where}: annotations.${key} must be true or false; got ${JSON.stringify(v) ?? typeof v}.`,
        );
      out[key] = v;
    }
  }
  if (out.readOnlyHint === true && out.destructiveHint === true) {
    throw new DefinitionError(
      `${where}: annotations say the tool is both read-only and destructive; a tool that changes nothing cannot destroy anything, so drop one of readOnlyHint and destructiveHint.`,
    );
  }
  return Object.freeze(out as ToolAnnotations);
}

/** What `defineTool` takes. */
export interface ToolSpec<I extends z.ZodObject = z.ZodObject, R = unknown> {
  /** `^[a-z][a-z0-9_]{0,63}$`, not a reserved protocol name. */
  name: string;
  /** Shown to agents; say what the tool does and when to use it. */
  description: string;
  /**
   * A zod object; unknown keys are refused. Describe every argument (`.describe('…')`, last): the agent reads it, and
   * transformers' `get_json_schema`, which TRL uses, refuses an undescribed argument (`seahaven check` reports SH211).
   */
  input: I;
  /** MCP's tool annotations (`title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`), sent to MCP clients as given. */
  annotations?: ToolAnnotations;
  /** Synchronous; returns JSON-serialisable data. Throw `ToolError` for failures the agent should see. */
  run(ctx: Ctx, input: z.output<I>): R;
}

/** The agent-facing listing of a tool. */
export interface ToolListing {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Present only when the tool gives annotations. */
  annotations?: ToolAnnotations;
}

/** A defined tool. */
export interface Tool<I extends z.ZodObject = z.ZodObject, R = unknown> {
  readonly name: string;
  readonly description: string;
  readonly input: I;
  readonly inputSchema: Record<string, unknown>;
  /** Present only when the spec gave annotations. */
  readonly annotations?: Readonly<ToolAnnotations>;
  run(ctx: Ctx, input: z.output<I>): R;
}

/**
 * Define a tool. Mistakes fail here, with a message that names the fix.
 * @example
 * const getContact = defineTool({
 *   name: 'get_contact', description: 'Fetch one contact by id.',
 *   input: z.object({ id: z.string().describe('Contact id, like con_…') }),
 *   run: (ctx, { id }) => ctx.db.one('SELECT * FROM contacts WHERE id = ?', id),
 * });
 */
export function defineTool<I extends z.ZodObject, R>(spec: ToolSpec<I, R>): Tool<I, R> {
  const where = `defineTool(${JSON.stringify(spec?.name)})`;
  if (typeof spec?.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    throw new DefinitionError(
      `${where}: the name must match ${TOOL_NAME_PATTERN} (lower snake case, at most 64 characters), like "create_contact".`,
    );
  }
  if (RESERVED_TOOL_NAMES.includes(spec.name)) {
    throw new DefinitionError(
      `${where}: "${spec.name}" is reserved for the protocol (${RESERVED_TOOL_NAMES.join(', ')}); rename the tool, e.g. "${spec.name}_record".`,
    );
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw new DefinitionError(
      `${where}: the description is empty; write one sentence telling the agent what the tool does.`,
    );
  }
  if (!(spec.input instanceof z.ZodObject)) {
    throw new DefinitionError(
      `${where}: input must be a zod object, like z.object({ id: z.string() }); use z.object({}) for a tool without arguments.`,
    );
  }
  if (typeof spec.run !== 'function')
    throw new DefinitionError(`${where}: run(ctx, input) must be a function.`);
  const annotations =
    spec.annotations === undefined ? undefined : checkAnnotations(where, spec.annotations);
  const input = spec.input.strict() as unknown as I;
  const { $schema: _drop, ...inputSchema } = z.toJSONSchema(input, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return Object.freeze({
    name: spec.name,
    description: spec.description.trim(),
    input,
    inputSchema,
    ...(annotations ? { annotations } : {}),
    run: spec.run,
  });
}

/** A violation of a tool's input schema. */
export interface Violation {
  path: string;
  message: string;
}

/** Every violation of a failed parse, with its path (`items[0].qty`; empty for the whole input). */
export function violationsOf(error: z.ZodError): Violation[] {
  const out: Violation[] = [];
  for (const issue of error.issues) {
    let path = '';
    for (const p of issue.path)
      path += typeof p === 'number' ? `[${p}]` : path === '' ? String(p) : '.' + String(p);
    if (issue.code === 'unrecognized_keys') {
      // One violation per unknown key, at the key's own path, so an agent sees exactly what to drop.
      for (const key of issue.keys)
        out.push({
          path: path === '' ? key : `${path}.${key}`,
          message: `Unknown key "${key}"; remove it`,
        });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}
