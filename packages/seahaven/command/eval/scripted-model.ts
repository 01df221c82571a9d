/**
 * A scripted model behind a real HTTP server speaking OpenAI's chat-completions protocol, for tests and the bench.
 * It reads the task from the user message and the episode's seed and trial from the request's `seed` (as the runner
 * sends them), and for trials the script marks good it answers with the task's gold tool calls one turn at a time
 * (the calls the gold solution makes on that seed, played once in process beforehand), then a closing message; for
 * the others it makes a call the world refuses and stops. Deterministic by task, seed and trial.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { World } from '../../core/world-types.ts';

export interface ScriptedModelOptions {
  world: World;
  /** Whether this trial gets the gold calls. */
  good: (task: string, seed: number, trial: number) => boolean;
  /** Answer this many requests with 503 first (transient failures to retry). */
  failFirst?: number;
  /** Answer every request with 401, as a server does to a wrong key. */
  refuseKey?: boolean;
  /** The key the server wants (`Authorization: Bearer …`); any key when undefined. */
  apiKey?: string;
}

export interface ScriptedModel {
  url: string;
  /** Requests answered (including the refused ones). */
  requests: number;
  /** Requests per episode, keyed `task.s<seed>.t<trial>`. */
  perEpisode: Map<string, number>;
  close(): Promise<void>;
}

interface GoldCall {
  tool: string;
  args: unknown;
}

function goldCalls(world: World, task: string, seed: number): GoldCall[] {
  const inst = world.instance({ task, seed });
  try {
    const t = inst.task()!;
    if (t.gold === undefined) throw new Error(`task ${task} has no gold solution to script`);
    t.gold(inst);
    return inst.callLog().map((c) => ({ tool: c.tool, args: c.args }));
  } finally {
    inst.destroy();
  }
}

async function body(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const byPrompt = new Map(options.world.tasks.map((t) => [t.prompt, t.id]));
  const gold = new Map<string, GoldCall[]>();
  let failures = options.failFirst ?? 0;
  const state: Omit<ScriptedModel, 'url' | 'close'> = { requests: 0, perEpisode: new Map() };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      state.requests++;
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
        return send(404, {
          error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' },
        });
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (options.refuseKey || (options.apiKey !== undefined && key !== options.apiKey))
        return send(401, {
          error: {
            message: 'Incorrect API key provided',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
      if (failures > 0) {
        failures--;
        return send(503, { error: { message: 'overloaded, try again', type: 'server_error' } });
      }
      const request = JSON.parse(text) as {
        model: string;
        seed?: number;
        messages: { role: string; content?: string }[];
      };
      const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
      const task = byPrompt.get(prompt);
      if (task === undefined || typeof request.seed !== 'number')
        return send(400, {
          error: {
            message: 'the scripted model knows no such task, or the request has no seed',
            type: 'invalid_request_error',
          },
        });
      const seed = Math.floor(request.seed / 1000);
      const trial = request.seed % 1000;
      const episode = `${task}.s${seed}.t${trial}`;
      state.perEpisode.set(episode, (state.perEpisode.get(episode) ?? 0) + 1);
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      let calls: GoldCall[];
      if (options.good(task, seed, trial)) {
        const key = `${task}/${seed}`;
        if (!gold.has(key)) gold.set(key, goldCalls(options.world, task, seed));
        calls = gold.get(key)!;
      } else {
        // A wrong call: the gold solution's last tool (the one that does the work) with no arguments, which the world refuses.
        calls = [
          { tool: goldCalls(options.world, task, seed).at(-1)?.tool ?? 'no_such_tool', args: {} },
        ];
      }
      const message =
        turn < calls.length
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: `call_${turn}`,
                  type: 'function',
                  function: { name: calls[turn].tool, arguments: JSON.stringify(calls[turn].args) },
                },
              ],
            }
          : { role: 'assistant', content: 'Done.' };
      send(200, {
        id: `chatcmpl-${episode}-${turn}`,
        object: 'chat.completion',
        created: 0,
        model: request.model,
        choices: [
          {
            index: 0,
            message,
            finish_reason: turn < calls.length ? 'tool_calls' : 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
