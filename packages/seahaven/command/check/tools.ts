/**
 * The tools check, over the tool list the agent sees (composed sub-worlds included): names, reserved names,
 * descriptions, and input schemas that are strict objects whose every argument has a JSON Schema type and a
 * description.
 * `defineTool` already refuses some of these; tools built another way (or by another copy of the kit) are checked
 * here too.
 */
import { RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN, type ToolListing } from '../../core/tool.ts';
import { finding, type Finding, type Location } from './codes.ts';
import { escapeRegExp, locateInFiles } from './locate.ts';
import type { Check } from './check.ts';

const MIN_DESCRIPTION = 20;
const MAX_DESCRIPTION = 1024;
const TYPED = ['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'not'];

/**
 * The methods TRL's GRPOTrainer keeps for itself on an `environment_factory` environment: it calls `reset` to start an
 * episode and `get_reward` to score it, and offers every other public method as a tool. A Python environment class
 * exposing a world's tools as methods therefore cannot offer a tool with one of these names.
 */
const TRL_METHODS: readonly string[] = ['reset', 'get_reward'];

type Schema = Record<string, unknown>;

/** Paths of arguments whose schema says nothing about the value (`{}` from `z.date()`, `z.custom()`, …). */
function untypedArguments(schema: Record<string, unknown>, path: string): string[] {
  const out: string[] = [];
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [key, sub] of Object.entries(properties ?? {})) {
    const at = path ? `${path}.${key}` : key;
    if (!TYPED.some((k) => k in sub)) out.push(at);
    else out.push(...untypedArguments(sub, at));
    const items = sub.items as Record<string, unknown> | undefined;
    if (items && typeof items === 'object') {
      if (!TYPED.some((k) => k in items)) out.push(`${at}[]`);
      else out.push(...untypedArguments(items, `${at}[]`));
    }
  }
  return out;
}

/** The sub-schemas that hold an argument's own properties: itself and the branches of a union (`.nullable()`, `z.union`). */
function branches(schema: Schema): Schema[] {
  const out = [schema];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list))
      for (const b of list) if (b && typeof b === 'object') out.push(...branches(b as Schema));
  }
  return out;
}

/**
 * Paths of arguments without a description (`fields.email`, `items[].price`): every property, at any depth, of the
 * input object, of objects inside it and of the objects an array holds. The description must sit on the property
 * itself, which is where an agent (and TRL's `get_json_schema`) reads it.
 */
function undescribedArguments(schema: Schema, path: string): { path: string; schema: Schema }[] {
  const out: { path: string; schema: Schema }[] = [];
  for (const part of branches(schema)) {
    const properties = part.properties as Record<string, Schema> | undefined;
    for (const [key, sub] of Object.entries(properties ?? {})) {
      if (!sub || typeof sub !== 'object') continue;
      const at = path ? `${path}.${key}` : key;
      if (typeof sub.description !== 'string' || sub.description.trim() === '')
        out.push({ path: at, schema: sub });
      out.push(...undescribedArguments(sub, at));
    }
    const items = part.items as Schema | undefined;
    if (items && typeof items === 'object' && !Array.isArray(items))
      out.push(...undescribedArguments(items, `${path}[]`));
  }
  return out;
}

/** The zod type that would declare a JSON Schema, for the fix line (`z.number().int()` for an integer). */
function zodFor(schema: Schema): string {
  if (Array.isArray(schema.enum))
    return `z.enum([${schema.enum.map((v) => JSON.stringify(v)).join(', ')}])`;
  const types = branches(schema)
    .map((b) => b.type)
    .filter((t) => typeof t === 'string' && t !== 'null');
  const nullable = branches(schema).some((b) => b.type === 'null');
  const base =
    (
      {
        string: 'z.string()',
        integer: 'z.number().int()',
        number: 'z.number()',
        boolean: 'z.boolean()',
        array: 'z.array(…)',
        object: 'z.object({ … })',
      } as Record<string, string>
    )[String(types[0])] ?? 'z.…';
  return nullable ? `${base}.nullable()` : base;
}

export function checkTools(listings: readonly ToolListing[], folder: string | null): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const tool of listings) {
    const name = typeof tool.name === 'string' ? tool.name : String(tool.name);
    const location: Location =
      locateInFiles(
        folder,
        ['.ts', '.mts', '.js', '.mjs'],
        new RegExp(`name:\\s*['"\`]${escapeRegExp(name)}['"\`]`),
      ) ?? {};
    location.object = `tool ${name}`;
    const at = { location };
    if (!TOOL_NAME_PATTERN.test(name))
      out.push(
        finding(
          'SH201',
          `Tool name "${name}" is not lower snake case (${TOOL_NAME_PATTERN}); agents and protocols expect names like "create_contact".`,
          at,
        ),
      );
    if (RESERVED_TOOL_NAMES.includes(name))
      out.push(
        finding(
          'SH202',
          `Tool "${name}" takes a name the protocol reserves (${RESERVED_TOOL_NAMES.join(', ')}).`,
          at,
        ),
      );
    else if (TRL_METHODS.includes(name))
      out.push(
        finding(
          'SH212',
          `Tool "${name}" has the name of a method TRL's trainer keeps for itself (${TRL_METHODS.join(', ')}), so seahaven_client.trl's environment class cannot offer it to the agent.`,
          at,
        ),
      );
    if (seen.has(name))
      out.push(
        finding('SH208', `Two tools are named "${name}"; the agent could not tell them apart.`, at),
      );
    seen.add(name);

    const description = typeof tool.description === 'string' ? tool.description.trim() : '';
    if (description === '')
      out.push(
        finding(
          'SH203',
          `Tool "${name}" has no description, so the agent cannot know what it does.`,
          at,
        ),
      );
    else if (description.length < MIN_DESCRIPTION || description.split(/\s+/).length < 4)
      out.push(
        finding(
          'SH204',
          `Tool "${name}" is described only as "${description}"; an agent needs to know what it does, what it returns and when to use it.`,
          at,
        ),
      );
    else if (description.length > MAX_DESCRIPTION)
      out.push(
        finding(
          'SH210',
          `Tool "${name}" has a ${description.length}-character description; long descriptions crowd the agent's context.`,
          at,
        ),
      );

    const schema = tool.inputSchema as Record<string, unknown> | undefined;
    if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
      out.push(
        finding(
          'SH205',
          `The input schema of tool "${name}" is ${schema && typeof schema === 'object' ? `of type ${JSON.stringify(schema.type ?? null)}` : 'missing'}, not an object; tool arguments are named.`,
          at,
        ),
      );
      continue;
    }
    if (schema.additionalProperties !== false)
      out.push(
        finding(
          'SH206',
          `The input schema of tool "${name}" accepts unknown keys, so a misspelt argument is silently ignored.`,
          at,
        ),
      );
    for (const arg of untypedArguments(schema, '')) {
      out.push(
        finding(
          'SH207',
          `Argument "${arg}" of tool "${name}" has no JSON Schema type, so the agent cannot know what to send.`,
          at,
        ),
      );
    }
    for (const arg of undescribedArguments(schema, '')) {
      const key = arg.path.slice(arg.path.lastIndexOf('.') + 1);
      out.push(
        finding(
          'SH211',
          `Argument "${arg.path}" of tool "${name}" has no description, so the agent must guess what to send; transformers' get_json_schema, which TRL uses, refuses such an argument.`,
          {
            ...at,
            fix: `Describe it where the input is declared: ${key}: ${zodFor(arg.schema)}.describe('…'), saying what the value is, its format or units, and an example (.describe last, after .optional()).`,
          },
        ),
      );
    }
  }
  return out;
}

export const toolsCheck: Check = {
  name: 'tools',
  description: 'tool names, reserved names, descriptions and strict object input schemas',
  run(target) {
    return target.world ? checkTools(target.world.toolListings(), target.folder) : [];
  },
};
