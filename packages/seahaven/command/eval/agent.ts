/**
 * The agent loop of one episode: a system prompt naming the world and a user message with the task, the world's
 * tools in the OpenAI tool format, each tool call the model makes run in the episode and its result sent back as a
 * tool message, until the model answers without a tool call or the budget (turns, tokens) is spent; then submit.
 * The grade is the world's; the transcript is kept ready for fine-tuning (OpenAI chat `messages`).
 */
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ToolListing } from '../../core/tool.ts';
import type { Criterion } from '../../core/task.ts';
import type { ChangeLogEntry, Change } from '../../core/capture.ts';
import type { CallLogEntry } from '../../core/call-history.ts';
import type { EpisodeEnv } from './env.ts';
import { EpisodeModelError, type Model } from './model.ts';

/** One planned episode: a task, the episode seed (the world's random streams), and the trial number. */
export interface EpisodeKey {
  task: string;
  seed: number;
  trial: number;
}

export interface Budget {
  maxTurns: number;
  /** Completion tokens the episode may spend over all its turns; undefined: no limit. */
  maxTokens?: number;
  temperature?: number;
}

/** The step of the tool trace, as OpenEnv's collect format writes it. */
export interface TraceStep {
  tool_name: string;
  arguments: Record<string, unknown>;
  /** `metadata.call`: the world's number of the call (null when the world refused it before it ran, or it never reached the world). */
  result: { data: unknown; done: boolean; metadata: { call: number | null }; error: string | null };
}

/** Why the loop stopped. */
export type StopReason = 'answered' | 'max_turns' | 'max_tokens' | 'model_error';

/** Everything recorded of one episode: what `episodes/<id>.json` holds. */
export interface EpisodeRecord extends EpisodeKey {
  format: 'seahaven.episode/1';
  episode_id: string;
  /** The seed sent to the model with each request, so a sampling server can repeat it. */
  model_seed: number;
  fixture: string | null;
  fixture_sha256: string | null;
  reward: number;
  passed: boolean;
  criteria: Criterion[];
  turns: number;
  stop: StopReason;
  error: string | null;
  usage: { prompt_tokens: number; completion_tokens: number };
  model_retries: number;
  /** Milliseconds the episode took, model time included (wall clock; the only figure that is not replayed). */
  duration_ms: number;
  messages: ChatCompletionMessageParam[];
  tool_trace: TraceStep[];
  calls: CallLogEntry[];
  change_log: ChangeLogEntry[];
  changes: Change[];
}

export function episodeId(key: EpisodeKey): string {
  return `${key.task}.s${key.seed}.t${key.trial}`;
}

/** The seed each model request carries: the episode's seed and trial, one number (trials are below 1000). */
export function modelSeed(key: EpisodeKey): number {
  return key.seed * 1000 + key.trial;
}

export function openaiTools(tools: readonly ToolListing[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

export function systemPrompt(world: string): string {
  return (
    `You are an agent working in ${world} through its tools. Do the user's task by calling the tools; ` +
    'read what each call returns before the next. When the task is done, reply with a short message and no tool call.'
  );
}

function parseArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
    return 'the arguments must be a JSON object';
  } catch (e) {
    return `the arguments are not JSON (${(e as Error).message}); send a JSON object`;
  }
}

/** Play one episode on `env` (already opened) with `model`, and grade it. */
export async function runEpisode(
  env: EpisodeEnv,
  model: Model,
  world: string,
  key: EpisodeKey,
  budget: Budget,
  signal?: AbortSignal,
): Promise<EpisodeRecord> {
  const began = performance.now();
  let retries = 0;
  const start = await env.start(key.task, key.seed);
  const tools = openaiTools(start.tools);
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: systemPrompt(world) },
    { role: 'user', content: start.prompt },
  ];
  const trace: TraceStep[] = [];
  /** The steps of the trace whose call reached the environment, in order: one call log entry each. */
  const reached: number[] = [];
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  let stop: StopReason = 'max_turns';
  let error: string | null = null;
  let turns = 0;
  while (turns < budget.maxTurns) {
    const left =
      budget.maxTokens === undefined ? undefined : budget.maxTokens - usage.completion_tokens;
    if (left !== undefined && left <= 0) {
      stop = 'max_tokens';
      break;
    }
    let reply;
    try {
      reply = await model.complete(
        {
          messages,
          tools,
          seed: modelSeed(key),
          ...(left === undefined ? {} : { max_tokens: left }),
          ...(budget.temperature === undefined ? {} : { temperature: budget.temperature }),
        },
        signal,
        () => retries++,
      );
    } catch (e) {
      if (!(e instanceof EpisodeModelError)) throw e;
      stop = 'model_error';
      error = e.message;
      break;
    }
    turns++;
    usage.prompt_tokens += reply.usage?.prompt_tokens ?? 0;
    usage.completion_tokens += reply.usage?.completion_tokens ?? 0;
    const said = reply.choices[0].message;
    const calls = (said.tool_calls ?? []).filter((c) => c.type === 'function');
    messages.push(
      calls.length > 0
        ? {
            role: 'assistant',
            content: said.content ?? null,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.function.name, arguments: c.function.arguments },
            })),
          }
        : { role: 'assistant', content: said.content ?? '' },
    );
    if (calls.length === 0) {
      stop = 'answered';
      break;
    }
    for (const c of calls) {
      const args = parseArguments(c.function.arguments);
      if (typeof args !== 'string') reached.push(trace.length);
      const outcome =
        typeof args === 'string'
          ? { ok: false as const, error: { code: 'invalid_arguments', message: args } }
          : await env.call(c.function.name, args);
      const content =
        outcome.json === undefined
          ? JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error })
          : outcome.ok
            ? outcome.json
            : `{"error":${outcome.json}}`;
      messages.push({ role: 'tool', tool_call_id: c.id, content });
      trace.push({
        tool_name: c.function.name,
        arguments: typeof args === 'string' ? {} : args,
        result: {
          data: outcome.ok ? outcome.result : null,
          done: false,
          metadata: { call: null },
          error: outcome.ok ? null : `${outcome.error.code}: ${outcome.error.message}`,
        },
      });
    }
  }
  const grade = await env.submit();
  const t = await env.trace();
  reached.forEach((step, i) => (trace[step].result.metadata.call = t.calls[i]?.index ?? null));
  return {
    format: 'seahaven.episode/1',
    episode_id: episodeId(key),
    ...key,
    model_seed: modelSeed(key),
    fixture: start.fixture,
    fixture_sha256: t.fixtureSha256,
    reward: grade.reward,
    passed: grade.passed,
    criteria: grade.criteria,
    turns,
    stop,
    error,
    usage,
    model_retries: retries,
    duration_ms: Math.round(performance.now() - began),
    messages,
    tool_trace: trace,
    calls: t.calls,
    change_log: t.changeLog,
    changes: t.changes,
  };
}
