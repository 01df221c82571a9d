import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { crm } from '../../../../worlds/crm/index.ts';
import { saas } from '../../../../worlds/saas/index.ts';
import { stripe } from '../../../../worlds/stripe/index.ts';
import { createWorldServer, openInstance } from '../mcp/server.ts';
import type { Grade, Task } from '../../core/task.ts';
import type { World } from '../../core/world.ts';
import { startServer, type RunningServer } from './index.ts';
import { SUBMIT } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// Everything an agent can read of a task, over every agent-facing transport of a real server, holds none of what its
// grader looks for: no value, id or count from the whole grade's names and reasons, and no argument of the gold
// solution, unless the agent is meant to read it anyway (the prompt, the tools, the episode's fixture and clock).

const WORLDS: World[] = [crm, stripe, saas];
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ worlds: WORLDS, port: 0, graderToken: 'agent-view-test-secret' });
});
afterAll(async () => {
  await server.close();
});

/** What a grader looks for: strings (matched as whole words) and numbers (matched as whole numbers). */
interface Targets {
  strings: Set<string>;
  numbers: Set<string>;
}

/** Table and column names of a world: the structure every agent may know, never a target. */
function structure(world: World, fixture: string): Set<string> {
  const inst = world.instance({ fixture });
  try {
    const names = new Set<string>();
    const tables = inst.query<{ schema: string; name: string }>(
      "SELECT s.name AS schema, t.name FROM pragma_database_list s JOIN pragma_table_list t ON t.schema = s.name WHERE t.type = 'table'",
    );
    for (const t of tables) {
      names.add(t.name);
      for (const c of inst.query<{ name: string }>(
        `SELECT name FROM pragma_table_info(?, ?)`,
        t.name,
        t.schema,
      ))
        names.add(c.name);
    }
    return names;
  } finally {
    inst.destroy();
  }
}

function addNumber(targets: Targets, text: string): void {
  // 0 and 1 are every score and weight; a count or value of 2 and more is something to look for.
  if (Math.abs(Number(text)) >= 2) targets.numbers.add(text);
}

/** Targets quoted, named and counted in a whole grade's criteria. */
function gradeTargets(grade: Grade, targets: Targets, known: Set<string>): void {
  for (const c of grade.criteria) {
    for (const text of [c.name, c.reason]) {
      for (const m of text.matchAll(/"((?:[^"\\]|\\.)+)"/g)) targets.strings.add(m[1]);
      // Regex targets, like /^head of research$/i: their words.
      for (const m of text.matchAll(/(?:^|[\s(])\/\^?((?:[^/\\]|\\.)+?)\$?\/[a-z]*/g))
        if (/^[\w @.-]{3,}$/.test(m[1])) targets.strings.add(m[1]);
      // Ids of rows (con_dana, cus_3o2L…, deal_globex_routes), which are not the schema's names.
      for (const m of text.matchAll(/\b[a-z]{2,5}_[A-Za-z0-9_]{3,}\b/g))
        if (!known.has(m[0])) targets.strings.add(m[0]);
      for (const m of text.matchAll(/(?:exactly|at least|of|[=≈]) (-?\d+(?:\.\d+)?)\b/g))
        addNumber(targets, m[1]);
      for (const m of text.matchAll(/\((\d+) of (\d+)\)/g)) addNumber(targets, m[2]);
    }
  }
}

/** Every leaf of the gold solution's call arguments. */
function argTargets(value: unknown, targets: Targets): void {
  if (typeof value === 'string') {
    if (value.length >= 3) targets.strings.add(value);
  } else if (typeof value === 'number') {
    addNumber(targets, String(value));
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) argTargets(v, targets);
  }
}

function targetsOf(world: World, task: Task): Targets {
  const targets: Targets = { strings: new Set(), numbers: new Set() };
  const known = structure(world, task.fixture);
  const idle = world.instance({ fixture: task.fixture, task: task.id });
  gradeTargets(idle.submit(), targets, known);
  idle.destroy();
  const gold = world.instance({ fixture: task.fixture, task: task.id });
  task.gold?.(gold);
  gradeTargets(gold.submit(), targets, known);
  for (const entry of gold.callLog()) argTargets(entry.args, targets);
  gold.destroy();
  for (const name of known) targets.strings.delete(name);
  return targets;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordIn = (text: string, word: string) =>
  new RegExp(`(?<![A-Za-z0-9_])${escape(word)}(?![A-Za-z0-9_])`).test(text);
const numberIn = (text: string, n: string) =>
  new RegExp(`(?<![\\w.])${escape(n)}(?![\\w.]|\\.\\d)`).test(text);

/** What the agent can read of one task over the WebSocket, HTTP, JSON-RPC and MCP, by where it read it. */
async function agentSurfaces(world: World, task: Task): Promise<Record<string, string>> {
  const base = `${server.url}/${world.name}`;
  const out: Record<string, string> = {};
  const p = await WireProbe.open(`${base.replace('http', 'ws')}/ws`);
  try {
    p.send({ type: 'reset', data: { task: task.id } });
    out['ws reset'] = (await p.next()).text;
    p.send({ type: 'step', data: { type: 'list_tools' } });
    out['ws list_tools'] = (await p.next()).text;
    p.send({ type: 'step', data: { type: 'grade' } });
    out['ws grade at step 0'] = (await p.next()).text;
    // The episode's trace goes only to the grader token's holder: asked for without it, the step is refused.
    for (const type of ['grade', 'submit']) {
      p.send({ type: 'step', data: { type, trace: true } });
      out[`ws ${type} with trace`] = (await p.next()).text;
    }
    p.send(SUBMIT);
    out['ws submit'] = (await p.next()).text;
    p.send({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    out['ws mcp tools/list'] = (await p.next()).text;
  } finally {
    await p.close();
  }
  const post = (path: string, body: unknown) =>
    fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': `view-${task.id}` },
      body: JSON.stringify(body),
    }).then((r) => r.text());
  out['http reset'] = await post('/reset', { task: task.id });
  out['http grade at step 0'] = await post('/step', { action: { type: 'grade' } });
  out['http submit with trace'] = await post('/step', { action: { type: 'submit', trace: true } });
  out['http submit'] = await post('/step', { action: { type: 'submit' } });
  out['http state'] = await fetch(`${base}/state`, {
    headers: { 'x-session-id': `view-${task.id}` },
  }).then((r) => r.text());
  out['json-rpc tools/list'] = await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const inst = openInstance(world, { task: task.id });
  const mcp = createWorldServer(world, () => inst, { task: task.id });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'agent-view-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    out['mcp instructions'] = client.getInstructions() ?? '';
    out['mcp tools/list'] = JSON.stringify(await client.listTools());
  } finally {
    await client.close();
    inst.destroy();
  }
  return out;
}

/** What the agent is meant to read: the prompt, the tools, and the episode's fixture, seed and clock. */
function allowedText(world: World, task: Task): string {
  const inst = world.instance({ fixture: task.fixture, task: task.id });
  const text = [
    task.prompt,
    JSON.stringify(world.toolListings()),
    world.mcp.instructions ?? '',
    task.fixture,
    inst.clock.iso(),
  ].join('\n');
  inst.destroy();
  return text;
}

describe("what an agent can read of a task holds none of its grader's targets", () => {
  it.each(WORLDS.map((w) => [w.name, w] as const))(
    '%s: every task, every agent-facing transport',
    async (_name, world) => {
      expect(world.tasks.length).toBeGreaterThan(0);
      const leaks: string[] = [];
      let checked = 0;
      for (const task of world.tasks) {
        const targets = targetsOf(world, task);
        const allowed = allowedText(world, task);
        const surfaces = await agentSurfaces(world, task);
        // The trace was refused wherever the agent asked for it.
        for (const where of [
          'ws grade with trace',
          'ws submit with trace',
          'http submit with trace',
        ]) {
          if (!/grader token/.test(surfaces[where]) || surfaces[where].includes('"trace":{'))
            leaks.push(`${task.id}: the trace answered in ${where}`);
        }
        for (const s of targets.strings) {
          if (wordIn(allowed, s)) continue;
          checked++;
          for (const [where, text] of Object.entries(surfaces))
            if (wordIn(text, s) || wordIn(text, JSON.stringify(s).slice(1, -1)))
              leaks.push(`${task.id}: ${JSON.stringify(s)} in ${where}`);
        }
        for (const n of targets.numbers) {
          if (numberIn(allowed, n)) continue;
          checked++;
          for (const [where, text] of Object.entries(surfaces))
            if (numberIn(text, n)) leaks.push(`${task.id}: ${n} in ${where}`);
        }
      }
      // The walk looked for something: a change that emptied the targets would pass without checking anything.
      expect(checked).toBeGreaterThan(world.tasks.length);
      expect(leaks).toEqual([]);
    },
  );

  it('the same surfaces do carry the targets to a trainer holding the grader token', async () => {
    const task = crm.task('add_lead')!;
    const p = await WireProbe.open(`${server.url.replace('http', 'ws')}/crm/ws`);
    try {
      await p.ask({
        type: 'reset',
        data: { task: task.id, grader_token: 'agent-view-test-secret' },
      });
      p.send({ type: 'step', data: { type: 'grade' } });
      const text = (await p.next()).text;
      expect(text).toContain('cmp_acme');
      expect(text).toContain('ada.lovelace@acmerobotics.example');
      // The trace is the trainer's too: the episode's calls and the rows they changed.
      p.send({
        type: 'step',
        data: {
          type: 'call_tool',
          tool_name: 'create_contact',
          arguments: { name: 'Trace Probe', email: 'trace.probe@example.com' },
        },
      });
      await p.next();
      p.send({ type: 'step', data: { type: 'submit', trace: true } });
      const traced = (await p.next()).json.data.observation.trace;
      expect(traced.calls.map((c: { tool: string }) => c.tool)).toEqual(['create_contact']);
      expect(JSON.stringify(traced.change_log)).toContain('trace.probe@example.com');
    } finally {
      await p.close();
    }
  });
});
