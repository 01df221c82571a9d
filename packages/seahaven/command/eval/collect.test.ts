import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crm from '../../../../worlds/crm/index.ts';
import { startHubRecorder, type HubRecorder } from '../publish/hub-recorder.ts';
import { seahaven as run } from '../../core/test/cli-in-process.ts';
import { startScriptedModel, type ScriptedModel } from './scripted-model.ts';
import type { CollectLine } from './collect.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const TOKEN = 'hf_collect_test_token';

/** The command line, in process (an async call, so the servers in this process can answer it). */
const seahaven = (args: string[], env: Record<string, string> = {}) =>
  run(args, { cwd: root, env: { OPENAI_API_KEY: 'sk-test', HF_TOKEN: '', ...env } });

describe('seahaven collect', () => {
  let model: ScriptedModel;
  let hub: HubRecorder;
  const out = mkdtempSync(join(tmpdir(), 'seahaven-collect-'));
  beforeAll(async () => {
    // add_lead passes on even trials; log_call never.
    model = await startScriptedModel({
      world: crm,
      good: (task, _s, trial) => task === 'add_lead' && trial % 2 === 0,
    });
    hub = await startHubRecorder({ validToken: TOKEN });
  });
  afterAll(async () => {
    await model.close();
    await hub.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('writes results.jsonl in the collect format, filters by reward, and pushes a dataset with a card', async () => {
    const r = await seahaven(
      [
        'collect',
        'crm',
        '--model',
        'scripted',
        '--base-url',
        model.url,
        '--tasks',
        'add_lead,log_call',
        '--trials',
        '2',
        '--out',
        out,
        '--min-reward',
        '1',
        '--push-to-hub',
        'test-user/crm-runs',
        '--hf-token',
        TOKEN,
      ],
      { HF_ENDPOINT: hub.url },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('results.jsonl: 1 episodes with reward ≥ 1 (3 left out)');
    expect(r.stdout).toContain('Created the dataset test-user/crm-runs');
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as CollectLine);
    expect(lines.map((l) => l.episode_id)).toEqual(['add_lead.s0.t0']);
    const [line] = lines;
    expect(Object.keys(line)).toEqual([
      'episode_id',
      'messages',
      'reward',
      'done',
      'tool_trace',
      'metrics',
      'verify_metrics',
      'artifacts',
      'task',
      'extra',
    ]);
    expect(line).toMatchObject({
      reward: 1,
      done: true,
      task: { id: 'add_lead', seed: 0, trial: 0, prompt: crm.task('add_lead')!.prompt },
      extra: { world: 'crm', model: 'scripted' },
    });
    expect(line.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      ...line.tool_trace.flatMap(() => ['assistant', 'tool']),
      'assistant',
    ]);
    const insert = line.artifacts.change_log.find(
      (c) => c.table === 'contacts' && c.op === 'insert',
    )!;
    expect(insert).toMatchObject({ tool: 'create_contact', before: null });
    expect(JSON.parse(insert.after!)).toMatchObject({ email: 'ada.lovelace@acmerobotics.example' });
    expect(line.verify_metrics.passed).toBe(true);
    expect(typeof line.tool_trace[0].arguments).toBe('string');
    // Each step names the world's call, whose rows the change log lists under that number.
    const made = line.tool_trace.find((t) => t.tool_name === 'create_contact')!;
    expect(insert.call).toBe(made.result.metadata.call);

    const meta = JSON.parse(readFileSync(join(out, 'metadata.json'), 'utf8'));
    expect(meta).toMatchObject({
      episodes: 4,
      kept: 1,
      dropped: 3,
      min_reward: 1,
      settings: { model: 'scripted', trials: 2 },
    });

    expect(hub.created).toEqual([
      {
        space: 'test-user/crm-runs',
        kind: 'dataset',
        body: expect.objectContaining({
          type: 'dataset',
          name: 'crm-runs',
          organization: 'test-user',
        }),
      },
    ]);
    expect(hub.commits).toHaveLength(1);
    const files = new Map(hub.commits[0].files.map((f) => [f.path, f.bytes.toString('utf8')]));
    expect([...files.keys()].sort()).toEqual(['README.md', 'metadata.json', 'results.jsonl']);
    expect(files.get('results.jsonl')).toBe(readFileSync(join(out, 'results.jsonl'), 'utf8'));
    expect(files.get('README.md')).toMatch(
      /^---\nlicense: other\n[\s\S]*path: results.jsonl\n---\n\n# scripted on crm/,
    );
  }, 60_000);

  it('a refused token is one line, and nothing is committed', async () => {
    const commits = hub.commits.length;
    const r = await seahaven(
      [
        'collect',
        'crm',
        '--model',
        'scripted',
        '--base-url',
        model.url,
        '--tasks',
        'add_lead,log_call',
        '--trials',
        '2',
        '--out',
        out,
        '--push-to-hub',
        'test-user/other',
        '--hf-token',
        'hf_wrong',
      ],
      { HF_ENDPOINT: hub.url },
    );
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /^seahaven: http:\/\/127\.0\.0\.1:\d+ rejected the token \(HTTP 401: .*\); pass a Hugging Face write token with --hf-token or set HF_TOKEN$/,
    );
    expect(hub.commits).toHaveLength(commits);
    // The run was resumed, not played again: every episode was already there.
    expect(r.stderr).toContain('4/4 episodes (4 from before)');
  }, 60_000);
});
