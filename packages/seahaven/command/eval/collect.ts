/**
 * `seahaven collect`: a run's episodes as `results.jsonl` in OpenEnv's collect format (one line per episode:
 * `episode_id`, chat `messages` ready for SFT, `reward`, `done`, `tool_trace`, `metrics`, `verify_metrics`,
 * `artifacts` with the world's change log, `task`, `extra`), `metadata.json` beside it, and a dataset card; and the
 * upload of the three to a Hugging Face dataset through `@huggingface/hub`.
 *
 * Values whose shape depends on the tool (call arguments, results, row keys and values) are written as JSON text,
 * as OpenAI's own `function.arguments` is, so every line has the same columns and types and loads as one Arrow table
 * (`datasets.load_dataset("json", …)`) whatever the world's tools return.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from './agent.ts';
import type { ChangeLogEntry, Change } from '../../core/capture.ts';
import type { World } from '../../core/world-types.ts';
import { writeAtomic, type RunSettings } from './store.ts';

export interface CollectLine {
  episode_id: string;
  messages: EpisodeRecord['messages'];
  reward: number;
  done: boolean;
  tool_trace: {
    tool_name: string;
    arguments: string;
    result: {
      data: string;
      done: boolean;
      metadata: { call: number | null };
      error: string | null;
    };
  }[];
  metrics: {
    turns: number;
    tool_calls: number;
    failed_calls: number;
    rows_changed: number;
    prompt_tokens: number;
    completion_tokens: number;
    model_retries: number;
  };
  verify_metrics: {
    passed: boolean;
    reward: number;
    criteria: { name: string; score: number; weight: number; reason: string }[];
  };
  artifacts: { change_log: ChangeRow[]; changes: ChangeRow[] };
  task: {
    id: string;
    prompt: string;
    fixture: string | null;
    fixture_sha256: string | null;
    seed: number;
    trial: number;
  };
  extra: {
    world: string;
    world_version: string;
    model: string;
    model_seed: number;
    stop: string;
    error: string | null;
  };
}

/** One row change: which call made it (none for the net changes), and its key and values as JSON text. */
export interface ChangeRow {
  call: number | null;
  tool: string | null;
  table: string;
  op: string;
  key: string;
  before: string | null;
  after: string | null;
}

function changeRow(c: Change | ChangeLogEntry): ChangeRow {
  const logged = 'call' in c ? c : undefined;
  return {
    call: logged?.call ?? null,
    tool: logged?.tool ?? null,
    table: c.table,
    op: c.op,
    key: JSON.stringify(c.key),
    before: c.before === undefined ? null : JSON.stringify(c.before),
    after: c.after === undefined ? null : JSON.stringify(c.after),
  };
}

export function collectLine(r: EpisodeRecord, settings: RunSettings, prompt: string): CollectLine {
  return {
    episode_id: r.episode_id,
    messages: r.messages,
    reward: r.reward,
    done: true,
    tool_trace: r.tool_trace.map((t) => ({
      tool_name: t.tool_name,
      arguments: JSON.stringify(t.arguments),
      result: {
        data: JSON.stringify(t.result.data),
        done: false,
        metadata: { call: t.result.metadata?.call ?? null },
        error: t.result.error,
      },
    })),
    metrics: {
      turns: r.turns,
      tool_calls: r.tool_trace.length,
      failed_calls: r.tool_trace.filter((t) => t.result.error !== null).length,
      rows_changed: r.changes.length,
      prompt_tokens: r.usage.prompt_tokens,
      completion_tokens: r.usage.completion_tokens,
      model_retries: r.model_retries,
    },
    verify_metrics: {
      passed: r.passed,
      reward: r.reward,
      criteria: r.criteria.map((c) => ({
        name: c.name,
        score: c.score,
        weight: c.weight,
        reason: c.reason,
      })),
    },
    artifacts: { change_log: r.change_log.map(changeRow), changes: r.changes.map(changeRow) },
    task: {
      id: r.task,
      prompt,
      fixture: r.fixture,
      fixture_sha256: r.fixture_sha256,
      seed: r.seed,
      trial: r.trial,
    },
    extra: {
      world: settings.world.name,
      world_version: settings.world.version,
      model: settings.model,
      model_seed: r.model_seed,
      stop: r.stop,
      error: r.error,
    },
  };
}

export interface Collected {
  kept: number;
  dropped: number;
  files: string[];
}

/** The dataset card: front matter the hub reads (license, tags, the data file), then what the lines hold. */
export function datasetCard(
  settings: RunSettings,
  kept: number,
  meanReward: number,
  successRate: number,
): string {
  return `---
license: other
task_categories:
- text-generation
tags:
- seahaven
- openenv
- agent-trajectories
- tool-use
configs:
- config_name: default
  data_files:
  - split: train
    path: results.jsonl
---

# ${settings.model} on ${settings.world.name} ${settings.world.version}

${kept} episodes played by \`${settings.model}\` in the Seahaven world **${settings.world.name}** ${settings.world.version}
(tasks ${settings.tasks.join(', ')}; seeds ${settings.seeds.join(', ')}; ${settings.trials} trial(s) each; at most ${settings.max_turns} turns).
Mean reward ${meanReward.toFixed(3)}, ${(100 * successRate).toFixed(1)}% passed.

Each line of \`results.jsonl\` is one episode in OpenEnv's collect format: \`episode_id\`, \`messages\` (OpenAI chat
messages: system, user with the task, assistant turns with tool calls, tool results; ready for SFT), \`reward\` (the
world's grade of the final state), \`done\`, \`tool_trace\`, \`metrics\`, \`verify_metrics\` (each criterion of the
grade), \`artifacts\` (the rows each call changed, and the net changes), \`task\` and \`extra\`. Call arguments,
results and row values are JSON text. \`metadata.json\` has the settings of the run (model, world version, fixture
hashes, seeds), so any episode can be replayed byte for byte from its task, seed and calls.
`;
}

/** Write `results.jsonl`, `metadata.json` and `README.md` (the card) into `dir` from its episodes. */
export function writeCollection(
  dir: string,
  world: World,
  settings: RunSettings,
  records: readonly EpisodeRecord[],
  minReward: number | undefined,
): Collected {
  const kept = records.filter((r) => minReward === undefined || r.reward >= minReward);
  const lines = kept.map((r) =>
    JSON.stringify(collectLine(r, settings, world.task(r.task)?.prompt ?? '')),
  );
  writeAtomic(join(dir, 'results.jsonl'), lines.map((l) => l + '\n').join(''));
  const meanReward = kept.length === 0 ? 0 : kept.reduce((s, r) => s + r.reward, 0) / kept.length;
  const successRate = kept.length === 0 ? 0 : kept.filter((r) => r.passed).length / kept.length;
  const metadata = {
    format: 'seahaven.collect/1',
    settings,
    min_reward: minReward ?? null,
    episodes: records.length,
    kept: kept.length,
    dropped: records.length - kept.length,
    avg_reward: meanReward,
    success_rate: successRate,
    episode_ids: kept.map((r) => r.episode_id),
  };
  writeAtomic(join(dir, 'metadata.json'), JSON.stringify(metadata, null, 2) + '\n');
  writeAtomic(join(dir, 'README.md'), datasetCard(settings, kept.length, meanReward, successRate));
  return {
    kept: kept.length,
    dropped: records.length - kept.length,
    files: ['results.jsonl', 'metadata.json', 'README.md'],
  };
}

export class PushError extends Error {}

/** Upload the collection's three files to the dataset `repo` (created if needed) in one commit. */
export async function pushCollection(
  dir: string,
  repo: string,
  options: { token: string | undefined; hubUrl: string; private?: boolean; title: string },
): Promise<{ url: string; commit: string; created: boolean }> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(repo))
    throw new PushError(
      `--push-to-hub ${repo}: give the dataset as owner/name, like my-user/crm-trajectories`,
    );
  const hint = 'pass a Hugging Face write token with --hf-token or set HF_TOKEN';
  if (options.token === undefined || options.token === '')
    throw new PushError(`no Hugging Face token: ${hint}`);
  const hubUrl = options.hubUrl.replace(/\/+$/, '');
  const { createRepo, uploadFiles } = await import('@huggingface/hub');
  const target = { type: 'dataset' as const, name: repo };
  const fail = (e: unknown) => {
    const status = (e as { statusCode?: number }).statusCode;
    const said = String((e as Error).message ?? e)
      .replace(/\. URL: [\s\S]*$/, '')
      .replace(/\s+/g, ' ');
    if (status === 401)
      return new PushError(`${hubUrl} rejected the token (HTTP 401: ${said}); ${hint}`);
    if (status === 403)
      return new PushError(
        `${hubUrl} refused to write to the dataset ${repo} (HTTP 403: ${said}); use a token with write access to it`,
      );
    if (status !== undefined)
      return new PushError(
        `uploading the dataset ${repo} to ${hubUrl} failed (HTTP ${status}: ${said}); nothing was committed, so run the same command again`,
      );
    return new PushError(
      `could not reach ${hubUrl} (${said}); check the network (or HF_ENDPOINT), then run the same command again`,
    );
  };
  let created = true;
  try {
    await createRepo({
      repo: target,
      accessToken: options.token,
      hubUrl,
      ...(options.private ? { visibility: 'private' as const } : {}),
    });
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode !== 409) throw fail(e);
    created = false;
  }
  try {
    const files = ['README.md', 'metadata.json', 'results.jsonl'];
    const out = await uploadFiles({
      repo: target,
      accessToken: options.token,
      hubUrl,
      commitTitle: options.title,
      files: files.map((path) => ({ path, content: new Blob([readFileSync(join(dir, path))]) })),
    });
    return { url: `${hubUrl}/datasets/${repo}`, commit: out?.commit.oid ?? '', created };
  } catch (e) {
    throw fail(e);
  }
}
