/**
 * The model behind an OpenAI-compatible chat-completions endpoint (vLLM, Ollama, llama.cpp's server, OpenAI, …),
 * through the official `openai` SDK. Transient failures (a refused or dropped connection, a timeout, 429, 5xx) are
 * retried with exponential backoff; what no retry can fix (a refused key, an unknown model, a URL nothing answers
 * at) stops the whole run with one line that names the fix.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';

/** A failure the run cannot go on after: every episode would meet it. */
export class FatalModelError extends Error {}

/** A failure of this one request that retrying will not fix (a prompt too long, a 400): the episode ends with it. */
export class EpisodeModelError extends Error {}

export interface ModelOptions {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Retries of a transient failure, after the first try. Default 4. */
  retries?: number;
  /** The first backoff in milliseconds, doubled on each retry. Default 500. */
  backoffMs?: number;
  /** Milliseconds before a request is abandoned (and retried). Default 600 000. */
  timeoutMs?: number;
}

export type ChatRequest = Omit<ChatCompletionCreateParamsNonStreaming, 'model' | 'stream'>;

export interface Model {
  readonly name: string;
  /** One reply; `onRetry` hears each retry of a transient failure. */
  complete(
    request: ChatRequest,
    signal?: AbortSignal,
    onRetry?: () => void,
  ): Promise<ChatCompletion>;
}

function transient(e: unknown): boolean {
  if (e instanceof APIConnectionError) return true;
  return (
    e instanceof APIError &&
    (e.status === 408 || e.status === 409 || e.status === 429 || (e.status ?? 0) >= 500)
  );
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** One line for a failure of the model server, naming what to change. */
export function describeModelError(
  e: unknown,
  options: Pick<ModelOptions, 'baseUrl' | 'model'>,
): string {
  const where = options.baseUrl;
  if (e instanceof APIConnectionError) {
    let code: string | undefined;
    for (
      let c: unknown = e.cause;
      c !== undefined && c !== null && code === undefined;
      c = (c as { cause?: unknown }).cause
    ) {
      const found = (c as { code?: unknown }).code;
      if (typeof found === 'string') code = found;
    }
    return `cannot reach the model server at ${where}${code ? ` (${code})` : ''}: start it, or fix --base-url`;
  }
  if (e instanceof APIError) {
    const said = (e.message ?? '').replace(/\s+/g, ' ').slice(0, 200);
    if (e.status === 401 || e.status === 403)
      return `the model server at ${where} refused the API key (${e.status}: ${said}); pass a valid one with --api-key or OPENAI_API_KEY`;
    if (e.status === 404)
      return `the model server at ${where} has no model "${options.model}" or no chat completions route (404: ${said}); check --model and --base-url (it usually ends in /v1)`;
    return `the model server at ${where} answered ${e.status ?? 'an error'}: ${said}`;
  }
  return `the model call failed: ${(e as Error)?.message ?? String(e)}`;
}

export function openaiModel(options: ModelOptions): Model {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 600_000,
  });
  const retries = options.retries ?? 4;
  const backoff = options.backoffMs ?? 500;
  // Once the server has answered, a refused connection is a hiccup; before, it is a wrong URL.
  let answeredOnce = false;
  return {
    name: options.model,
    async complete(request, signal, onRetry) {
      for (let attempt = 0; ; attempt++) {
        try {
          const reply = await client.chat.completions.create(
            { ...request, model: options.model, stream: false },
            { signal },
          );
          answeredOnce = true;
          if (!Array.isArray(reply?.choices) || reply.choices.length === 0)
            throw new EpisodeModelError(
              `the model server at ${options.baseUrl} answered without choices; is it an OpenAI-compatible chat completions server?`,
            );
          return reply;
        } catch (e) {
          if (signal?.aborted) throw e;
          if (e instanceof EpisodeModelError) throw e;
          const again = transient(e) && attempt < retries;
          if (again) {
            onRetry?.();
            await sleep(backoff * 2 ** attempt, signal);
            continue;
          }
          const line = describeModelError(e, options);
          if (e instanceof APIConnectionError && !answeredOnce) throw new FatalModelError(line);
          if (e instanceof APIError && (e.status === 401 || e.status === 403 || e.status === 404))
            throw new FatalModelError(line);
          if (transient(e)) throw new FatalModelError(`${line} (gave up after ${retries} retries)`);
          throw new EpisodeModelError(line);
        }
      }
    },
  };
}
