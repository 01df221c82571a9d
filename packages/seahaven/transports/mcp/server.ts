/**
 * The MCP face of one instance: an SDK `Server` that lists the world's tools and calls them, and nothing else. There
 * are no resources or prompts, so an agent cannot read its grade, the task's grader or the changes it made.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { InstanceError } from '../../core/errors.ts';
import type { EpisodeLimits, Instance, InstanceOptions } from '../../core/instance.ts';
import { callWithJson } from '../../core/instance-internals.ts';
import { toolCallResult } from '../serve/observation.ts';
import { SUBMIT_TOOL, rewardJson } from '../serve/payload.ts';
import type { World } from '../../core/world.ts';

/**
 * What an MCP session may choose about its instance: the reset options of the OpenEnv protocol that make sense here,
 * and `submit_tool` (list a `submit` tool that grades the task; needs `task`).
 */
export type McpResetOptions = Pick<
  InstanceOptions,
  'fixture' | 'seed' | 'clock' | 'now' | 'task'
> & { submit_tool?: boolean };

const RESET_KEYS: readonly string[] = ['fixture', 'seed', 'clock', 'now', 'task', 'submit_tool'];

// Ajv is only used by the SDK for elicitation results, which these servers never request; one compiler serves every
// session instead of one per session.
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * Build the SDK server for one instance. `instance()` is asked on every request, so a session whose instance could not
 * be started answers each request with the JSON-RPC error that explains why.
 * @example
 * const inst = world.instance({ fixture: 'small_startup' });
 * const server = createWorldServer(world, () => inst);
 * await server.connect(new StdioServerTransport());
 */
export function createWorldServer(
  world: World,
  instance: () => Instance,
  options: { task?: string; instructions?: string; submitTool?: boolean } = {},
): Server {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name: world.mcp.name, version: world.version },
    {
      capabilities: { tools: {} },
      instructions: instructionsFor(world, options.task, options.instructions),
      jsonSchemaValidator: sharedValidator,
    },
  );
  // The SDK puts a thrown error's message on the wire as is, and McpError's message already carries the
  // "MCP error <code>: " prefix that clients add again; send the bare message.
  const live = (): Instance => {
    try {
      return instance();
    } catch (e) {
      const error = rpcErrorOf(e);
      throw Object.assign(new Error(error.message), error);
    }
  };
  const submit =
    options.submitTool === true
      ? [
          {
            name: SUBMIT_TOOL.name,
            description: SUBMIT_TOOL.description,
            inputSchema: SUBMIT_TOOL.input_schema as { type: 'object' },
          },
        ]
      : [];
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // Annotations go out as the tool gave them; a tool without them sends none, so the client applies MCP's defaults.
    tools: [
      ...live()
        .tools()
        .map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema as { type: 'object' },
          ...(t.annotations ? { annotations: { ...t.annotations } } : {}),
        })),
      ...submit,
    ],
  }));
  // The call's outcome and its JSON text, as the call log recorded it, made into MCP's tool result (observation.ts).
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    if (submit.length > 0 && request.params.name === SUBMIT_TOOL.name)
      return submitResult(live(), args);
    return toolCallResult(live()[callWithJson](request.params.name, args));
  });
  return server;
}

/** The `submit` tool's result: the task's grade as `{reward, passed}`, where a harness reading `reward` finds it. */
function submitResult(inst: Instance, args: Record<string, unknown>): CallToolResult {
  if (Object.keys(args).length > 0) {
    const error = {
      code: 'invalid_arguments',
      message: `submit takes no arguments; call it with {} (got ${Object.keys(args).join(', ')})`,
    };
    return {
      content: [{ type: 'text', text: JSON.stringify(error) }],
      structuredContent: error,
      isError: true,
    };
  }
  const grade = inst.submit();
  const data = { reward: grade.reward, passed: grade.passed };
  // The text as the other transports write it: the reward as a float, so Python reads one.
  return {
    content: [
      {
        type: 'text',
        text: `{"reward":${rewardJson(grade.reward)},"passed":${grade.passed === true}}`,
      },
    ],
    structuredContent: data,
  };
}

/**
 * The JSON-RPC error object for a failure: an `McpError` keeps its code and data, anything else is an internal error.
 * @example
 * rpcErrorOf(new McpError(-32602, 'no fixture "x"')); // { code: -32602, message: 'no fixture "x"' }
 */
export function rpcErrorOf(e: unknown): { code: number; message: string; data?: unknown } {
  if (e instanceof McpError) {
    const prefix = `MCP error ${e.code}: `;
    const message = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    return e.data === undefined
      ? { code: e.code, message }
      : { code: e.code, message, data: e.data };
  }
  return { code: ErrorCode.InternalError, message: e instanceof Error ? e.message : String(e) };
}

/** The world's own instructions, followed by the task's prompt when the session plays a task. */
function instructionsFor(
  world: World,
  taskId: string | undefined,
  extra?: string,
): string | undefined {
  const prompt = taskId === undefined ? undefined : world.task(taskId)?.prompt;
  const parts = [
    world.mcp.instructions,
    prompt === undefined ? undefined : `Your task: ${prompt}`,
    extra,
  ].filter((p): p is string => p !== undefined && p !== '');
  return parts.length === 0 ? undefined : parts.join('\n\n');
}

/**
 * Start an instance for an MCP session. As with `world.instance()`, a task starts from its own fixture and another
 * fixture beside it is refused. Mistakes in the reset options become an `InvalidParams` JSON-RPC error whose message
 * names the fix; a broken fixture image is an `InternalError`.
 * @example
 * const inst = openInstance(world, { fixture: 'small_startup', seed: 7 }, { logger: (line) => process.stderr.write(line + '\n') });
 */
export function openInstance(
  world: World,
  reset: McpResetOptions,
  options: Pick<InstanceOptions, 'logger' | 'slowCallMs'> & EpisodeLimits = {},
): Instance {
  const { submit_tool: submitTool, ...instanceReset } = reset;
  if (submitTool === true && instanceReset.task === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'submit_tool lists a submit tool that grades the task; name the task too (task)',
      { code: 'invalid_reset' },
    );
  }
  try {
    return world.instance({ ...instanceReset, ...options });
  } catch (e) {
    if (e instanceof InstanceError) {
      throw new McpError(
        e.code === 'fixture_invalid' ? ErrorCode.InternalError : ErrorCode.InvalidParams,
        e.message,
        { code: e.code },
      );
    }
    if (e instanceof RangeError)
      throw new McpError(ErrorCode.InvalidParams, e.message, { code: 'invalid_reset' });
    throw e;
  }
}

/**
 * Read reset options from a URL query string (`?fixture=small_startup&seed=7&clock=tick&task=…&now=…&submit_tool=1`). Other query
 * parameters are left alone: they may belong to whatever mounts the endpoint.
 * @example
 * resetFromQuery(new URL('http://127.0.0.1:8000/mcp?fixture=big_co&seed=3').searchParams); // { fixture: 'big_co', seed: 3 }
 */
export function resetFromQuery(query: URLSearchParams): McpResetOptions {
  const out: Record<string, unknown> = {};
  for (const key of RESET_KEYS) {
    const value = query.get(key);
    if (value === null) continue;
    if (key === 'submit_tool') {
      if (!['1', 'true', '0', 'false'].includes(value))
        throw new McpError(
          ErrorCode.InvalidParams,
          `submit_tool in the query string is 1 or 0, like ?task=add_lead&submit_tool=1; got ${JSON.stringify(value)}`,
          { code: 'invalid_reset' },
        );
      out.submit_tool = value === '1' || value === 'true';
    } else if (key === 'seed') {
      if (!/^\d{1,16}$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `seed in the query string must be a whole number >= 0, like ?seed=7; got ${JSON.stringify(value)}`,
          { code: 'invalid_reset' },
        );
      }
      out.seed = Number(value);
    } else {
      out[key] = value;
    }
  }
  return checkReset(out, 'the query string');
}

/**
 * Read reset options from an object, as sent in `initialize` under `capabilities.experimental.seahaven`. Unknown keys
 * and wrong types are refused, so a typo does not silently start the wrong episode; `null` counts as absent.
 * @example
 * resetFromObject({ fixture: 'small_startup', seed: 1 }, 'capabilities.experimental.seahaven');
 */
export function resetFromObject(value: unknown, where: string): McpResetOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `${where} must be an object like {"fixture": "small_startup", "seed": 7}`,
      { code: 'invalid_reset' },
    );
  }
  const unknown = Object.keys(value).filter((k) => !RESET_KEYS.includes(k));
  if (unknown.length > 0) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `${where} has unknown key(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}; allowed: ${RESET_KEYS.join(', ')}`,
      { code: 'invalid_reset' },
    );
  }
  const present = Object.entries(value).filter(([, v]) => v !== null);
  return checkReset(Object.fromEntries(present), where);
}

function checkReset(value: Record<string, unknown>, where: string): McpResetOptions {
  const bad = (message: string) =>
    new McpError(ErrorCode.InvalidParams, `${message} in ${where}`, { code: 'invalid_reset' });
  for (const key of ['fixture', 'now', 'task']) {
    if (value[key] !== undefined && (typeof value[key] !== 'string' || value[key] === ''))
      throw bad(`${key} must be a non-empty string`);
  }
  if (
    value.seed !== undefined &&
    (typeof value.seed !== 'number' || !Number.isSafeInteger(value.seed) || value.seed < 0)
  )
    throw bad(`seed must be a whole number >= 0, got ${JSON.stringify(value.seed)}`);
  if (value.clock !== undefined && value.clock !== 'fixed' && value.clock !== 'tick')
    throw bad(`clock must be "fixed" or "tick", got ${JSON.stringify(value.clock)}`);
  if (value.submit_tool !== undefined && typeof value.submit_tool !== 'boolean')
    throw bad(`submit_tool must be true or false, got ${JSON.stringify(value.submit_tool)}`);
  const out: McpResetOptions = {};
  for (const key of RESET_KEYS)
    if (value[key] !== undefined) (out as Record<string, unknown>)[key] = value[key];
  return out;
}
