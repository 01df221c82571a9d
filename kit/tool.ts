/** Tools: the actions an agent can take in a world, each a zod-typed input and a synchronous `run(ctx, input)`. */
import { z } from 'zod';
import { DefinitionError } from './errors.ts';
import type { Ctx } from './ctx.ts';

/** Names the protocol uses for its own actions; a tool may not take them. */
export const RESERVED_TOOL_NAMES: readonly string[] = ['reset', 'step', 'state', 'close', 'submit', 'list_tools', 'call_tool', 'advance_clock'];
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** What `defineTool` takes. */
export interface ToolSpec<I extends z.ZodObject = z.ZodObject, R = unknown> {
  /** `^[a-z][a-z0-9_]{0,63}$`, not a reserved protocol name. */
  name: string;
  /** Shown to agents; say what the tool does and when to use it. */
  description: string;
  /** A zod object; unknown keys are refused. */
  input: I;
  /** Synchronous; returns JSON-serialisable data. Throw `ToolError` for failures the agent should see. */
  run(ctx: Ctx, input: z.output<I>): R;
}

/** The agent-facing listing of a tool. */
export interface ToolListing {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A defined tool. */
export interface Tool<I extends z.ZodObject = z.ZodObject, R = unknown> {
  readonly name: string;
  readonly description: string;
  readonly input: I;
  readonly inputSchema: Record<string, unknown>;
  run(ctx: Ctx, input: z.output<I>): R;
}

/**
 * Define a tool. Mistakes fail here, with a message that names the fix.
 * @example
 * const getContact = defineTool({
 *   name: 'get_contact', description: 'Fetch one contact by id.',
 *   input: z.object({ id: z.string() }),
 *   run: (ctx, { id }) => ctx.db.one('SELECT * FROM contacts WHERE id = ?', id),
 * });
 */
export function defineTool<I extends z.ZodObject, R>(spec: ToolSpec<I, R>): Tool<I, R> {
  const where = `defineTool(${JSON.stringify(spec?.name)})`;
  if (typeof spec?.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    throw new DefinitionError(`${where}: the name must match ${TOOL_NAME_PATTERN} (lower snake case, at most 64 characters), like "create_contact".`);
  }
  if (RESERVED_TOOL_NAMES.includes(spec.name)) {
    throw new DefinitionError(`${where}: "${spec.name}" is reserved for the protocol (${RESERVED_TOOL_NAMES.join(', ')}); rename the tool, e.g. "${spec.name}_record".`);
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw new DefinitionError(`${where}: the description is empty; write one sentence telling the agent what the tool does.`);
  }
  if (!(spec.input instanceof z.ZodObject)) {
    throw new DefinitionError(`${where}: input must be a zod object, like z.object({ id: z.string() }); use z.object({}) for a tool without arguments.`);
  }
  if (typeof spec.run !== 'function') throw new DefinitionError(`${where}: run(ctx, input) must be a function.`);
  const input = spec.input.strict() as unknown as I;
  const { $schema: _drop, ...inputSchema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return Object.freeze({ name: spec.name, description: spec.description.trim(), input, inputSchema, run: spec.run });
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
    for (const p of issue.path) path += typeof p === 'number' ? `[${p}]` : path === '' ? String(p) : '.' + String(p);
    if (issue.code === 'unrecognized_keys') {
      // One violation per unknown key, at the key's own path, so an agent sees exactly what to drop.
      for (const key of issue.keys) out.push({ path: path === '' ? key : `${path}.${key}`, message: `Unknown key "${key}"; remove it` });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}
