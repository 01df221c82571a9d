import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentGrade } from 'seahaven';
import { SeahavenClient } from 'seahaven/client';
import { createMcpHttpHandler } from 'seahaven/internal/transports/mcp/index';
import { startServer, type RunningServer } from 'seahaven/serve';
import { recordGold } from 'seahaven/internal/transports/serve/test-fixtures/wire-gold';
import { stripe } from '../index.ts';

// A trainer and an agent on the wire. Over OpenEnv (`/ws`), a client playing a hard task's gold solution gets reward
// 1.0 at submit, the grade the same episode gets in process. Over MCP (Streamable HTTP on the same server), an agent
// given the same task sees Stripe's 29 tools and nothing that grades: no grading tool, no resources or prompts, no
// reward in any reply.

const TASK = 'fix_failing_card';
let server: RunningServer;
let mcp: ReturnType<typeof createMcpHttpHandler>;

beforeAll(async () => {
  mcp = createMcpHttpHandler({ world: stripe });
  server = await startServer({ worlds: [stripe], port: 0, mcpHttp: mcp });
}, 60_000);
afterAll(async () => {
  await server.close();
  await mcp.close();
});

describe(`${TASK} on the wire`, () => {
  it('OpenEnv: a client playing the gold solution over /ws earns reward 1.0 on submit', async () => {
    const twin = recordGold(stripe, TASK);
    expect(twin.grade).toMatchObject({ reward: 1, passed: true });
    await using env = await SeahavenClient.connect(server.url);
    const start = await env.reset({ task: TASK });
    expect(start.observation).toMatchObject({
      fixture: 'small_startup',
      seed: 0,
      task: { id: TASK, prompt: stripe.task(TASK)!.prompt },
    });
    expect(start.observation.tools).toHaveLength(29);
    for (const c of twin.calls) expect(await env.call(c.tool, c.args)).toEqual(c.outcome);
    const done = await env.submit();
    expect(done.reward).toBe(1);
    expect(done.done).toBe(true);
    // The agent's view of the in-process grade: the same reward and criteria ids, without names or reasons.
    expect(done.grade).toEqual(agentGrade(twin.grade));
  }, 60_000);

  it('OpenEnv: submitting without doing anything earns 0', async () => {
    await using env = await SeahavenClient.connect(server.url);
    await env.reset({ task: TASK });
    const done = await env.submit();
    expect([done.reward, done.grade.passed]).toEqual([0, false]);
  }, 60_000);

  it('MCP: the agent sees exactly the 29 tools and no grade', async () => {
    const client = new Client({ name: 'stripe-task-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`/mcp?task=${TASK}`, server.url)),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(stripe.tools.map((t) => t.name).sort());
      expect(tools).toHaveLength(29);
      expect(tools.filter((t) => /submit|grade|reward|score/i.test(t.name))).toEqual([]);
      // No resources or prompts through which a grade or the changes could be read.
      const caps = client.getServerCapabilities() ?? {};
      expect(caps.resources).toBeUndefined();
      expect(caps.prompts).toBeUndefined();
      // The task reaches the agent as words in the instructions; its grader does not.
      expect(client.getInstructions()).toContain(stripe.task(TASK)!.prompt);
      // Playing the gold solution: every reply is the API's answer, none carries a reward or a grade.
      for (const c of recordGold(stripe, TASK).calls) {
        const reply = await client.callTool({ name: c.tool, arguments: c.args });
        expect(reply.isError ?? false).toBe(false);
        expect(reply.structuredContent).toEqual((c.outcome as { result: unknown }).result);
        expect(JSON.stringify(reply)).not.toMatch(/"(reward|grade|passed|criteria)"/);
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});
