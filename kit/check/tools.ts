/**
 * The tools check, over the tool list the agent sees (composed sub-worlds included): names, reserved names,
 * descriptions, and input schemas that are strict objects whose every argument has a JSON Schema type.
 * `defineTool` already refuses some of these; tools built another way (or by another copy of the kit) are checked
 * here too.
 */
import { RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN, type ToolListing } from '../tool.ts';
import { finding, type Finding, type Location } from './codes.ts';
import { escapeRegExp, locateInFiles } from './locate.ts';
import type { Check } from './check.ts';

const MIN_DESCRIPTION = 20;
const MAX_DESCRIPTION = 1024;
const TYPED = ['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'not'];

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

export function checkTools(listings: readonly ToolListing[], folder: string | null): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const tool of listings) {
    const name = typeof tool.name === 'string' ? tool.name : String(tool.name);
    const location: Location = locateInFiles(folder, ['.ts', '.mts', '.js', '.mjs'], new RegExp(`name:\\s*['"\`]${escapeRegExp(name)}['"\`]`)) ?? {};
    location.object = `tool ${name}`;
    const at = { location };
    if (!TOOL_NAME_PATTERN.test(name)) out.push(finding('SH201', `Tool name "${name}" is not lower snake case (${TOOL_NAME_PATTERN}); agents and protocols expect names like "create_contact".`, at));
    if (RESERVED_TOOL_NAMES.includes(name)) out.push(finding('SH202', `Tool "${name}" takes a name the protocol reserves (${RESERVED_TOOL_NAMES.join(', ')}).`, at));
    if (seen.has(name)) out.push(finding('SH208', `Two tools are named "${name}"; the agent could not tell them apart.`, at));
    seen.add(name);

    const description = typeof tool.description === 'string' ? tool.description.trim() : '';
    if (description === '') out.push(finding('SH203', `Tool "${name}" has no description, so the agent cannot know what it does.`, at));
    else if (description.length < MIN_DESCRIPTION || description.split(/\s+/).length < 4) out.push(finding('SH204', `Tool "${name}" is described only as "${description}"; an agent needs to know what it does, what it returns and when to use it.`, at));
    else if (description.length > MAX_DESCRIPTION) out.push(finding('SH210', `Tool "${name}" has a ${description.length}-character description; long descriptions crowd the agent's context.`, at));

    const schema = tool.inputSchema as Record<string, unknown> | undefined;
    if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
      out.push(finding('SH205', `The input schema of tool "${name}" is ${schema && typeof schema === 'object' ? `of type ${JSON.stringify(schema.type ?? null)}` : 'missing'}, not an object; tool arguments are named.`, at));
      continue;
    }
    if (schema.additionalProperties !== false) out.push(finding('SH206', `The input schema of tool "${name}" accepts unknown keys, so a misspelt argument is silently ignored.`, at));
    for (const arg of untypedArguments(schema, '')) {
      out.push(finding('SH207', `Argument "${arg}" of tool "${name}" has no JSON Schema type, so the agent cannot know what to send.`, at));
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
