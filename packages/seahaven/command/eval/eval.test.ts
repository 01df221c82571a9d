import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crm from '../../../../worlds/crm/index.ts';
import { startServer } from '../../transports/serve/server.ts';
import { seahaven as run } from '../../core/test/cli-in-process.ts';
import { play } from './command.ts';
import { startScriptedModel, type ScriptedModel } from './scripted-model.ts';
import { readEpisodes } from './store.ts';
import type { EvalSummary } from './summary.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'seahaven-eval-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** The command line, in process (an async call, so the model server in this process can answer it). */
const seahaven = (args: string[], env: Record<string, string> = {}) =>
  run(args, { cwd: root, env: { OPENAI_API_KEY: '', ...env } });

// add_lead passes on trials 0 and 2 of 4; add_company on every trial; log_call on none.
const good = (task: string, _seed: number, trial: number) =>
  task === 'add_lead' ? trial % 2 === 0 : task === 'add_company';
const quiet = { env: {}, progress: () => {} };

describe('seahaven eval against a scripted OpenAI-compatible server', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({ world: crm, good, apiKey: 'sk-test' });
  });
  afterAll(() => model.close());

  it('pass^k matches the hand computation: 2 of 4 gives pass^1 1/2 and pass^2 1/6', async () => {
    const out = fresh();
    const played = await play(
      crm,
      {
        model: 'scripted',
        baseUrl: model.url,
        apiKey: 'sk-test',
        tasks: 'add_lead,add_company,log_call',
        trials: '4',
        out,
        concurrency: '3',
      },
      quiet,
    );
    const s = JSON.parse(readFileSync(join(out, 'eval.json'), 'utf8')) as EvalSummary;
    expect(s).toEqual(JSON.parse(JSON.stringify(played.summary)));
    const lead = s.tasks.find((t) => t.task === 'add_lead')!;
    expect(lead).toMatchObject({
      trials: 4,
      successes: 2,
      pass_k_exact: { 1: '1/2', 2: '1/6', 3: '0', 4: '0' },
    });
    expect(lead.pass_k).toEqual({ 1: 0.5, 2: 1 / 6, 3: 0, 4: 0 });
    expect(s.tasks.find((t) => t.task === 'add_company')!.pass_k).toEqual({
      1: 1,
      2: 1,
      3: 1,
      4: 1,
    });
    expect(s.tasks.find((t) => t.task === 'log_call')!.pass_k['1']).toBe(0);
    // Over tasks: the mean of (1/2, 1, 0) and of (1/6, 1, 0).
    expect(s.overall.pass_k_exact).toMatchObject({ 1: '1/2', 2: '7/18' });
    expect(s.overall).toMatchObject({ tasks: 3, episodes: 12, successes: 6 });
    // Criteria are the world's: a failed add_lead fails its insert criterion.
    expect(
      Object.values(lead.criterion_failures).reduce((a, b) => a + b, 0),
    ).toBeGreaterThanOrEqual(2);
    // Reproducible: the run records what it was played with.
    expect(s.settings).toMatchObject({
      model: 'scripted',
      world: { name: 'crm', version: crm.version },
      seeds: [0],
      trials: 4,
      max_turns: 20,
    });
    expect(Object.keys(s.settings.fixtures).length).toBeGreaterThan(0);
    for (const h of Object.values(s.settings.fixtures)) expect(h).toMatch(/^[0-9a-f]{64}$/);
    // Each episode's record: the chat transcript, the tool trace, and the world's change log.
    const eps = readEpisodes(out);
    expect(eps).toHaveLength(12);
    const passed = eps.find((e) => e.task === 'add_lead' && e.passed)!;
    expect(passed.messages[0].role).toBe('system');
    expect(passed.messages[1]).toEqual({ role: 'user', content: crm.task('add_lead')!.prompt });
    expect(passed.tool_trace.length).toBeGreaterThan(0);
    expect(passed.change_log.some((c) => c.table === 'contacts' && c.op === 'insert')).toBe(true);
    expect(passed.stop).toBe('answered');
    const failed = eps.find((e) => e.task === 'add_lead' && !e.passed)!;
    expect(failed.reward).toBeLessThan(1);
    expect(failed.tool_trace).toHaveLength(1);
    expect(failed.tool_trace[0].result.error).toMatch(/^invalid_arguments: /);
    expect(failed.stop).toBe('answered');
  });

  it('the same seeds and trials give the same episodes, byte for byte apart from timing', async () => {
    const [a, b] = [fresh(), fresh()];
    for (const out of [a, b])
      await play(
        crm,
        {
          model: 'scripted',
          baseUrl: model.url,
          apiKey: 'sk-test',
          tasks: 'add_lead',
          seeds: '0-1',
          trials: '2',
          out,
          concurrency: '2',
        },
        quiet,
      );
    const strip = (dir: string) => readEpisodes(dir).map(({ duration_ms: _d, ...rest }) => rest);
    expect(strip(a)).toEqual(strip(b));
    expect(strip(a).map((e) => e.episode_id)).toEqual([
      'add_lead.s0.t0',
      'add_lead.s0.t1',
      'add_lead.s1.t0',
      'add_lead.s1.t1',
    ]);
  });

  it('a resumed run plays only the episodes that are missing', async () => {
    const out = fresh();
    const flags = {
      model: 'scripted',
      baseUrl: model.url,
      apiKey: 'sk-test',
      tasks: 'add_lead,add_company',
      trials: '3',
      out,
      concurrency: '2',
    };
    await play(crm, flags, quiet);
    // An interrupted run: two episodes never written.
    unlinkSync(join(out, 'episodes', 'add_lead.s0.t1.json'));
    unlinkSync(join(out, 'episodes', 'add_company.s0.t2.json'));
    model.perEpisode.clear();
    const again = await play(crm, flags, quiet);
    expect(again.run).toMatchObject({ total: 6, played: 2, skipped: 4, resumed: true });
    expect([...model.perEpisode.keys()].sort()).toEqual(['add_company.s0.t2', 'add_lead.s0.t1']);
    expect(again.summary.overall.episodes).toBe(6);
    expect(readdirSync(join(out, 'episodes')).filter((f) => !f.endsWith('.json'))).toEqual([]);
    // Other settings in the same folder are refused, naming what differs.
    await expect(play(crm, { ...flags, trials: '5' }, quiet)).rejects.toThrow(
      /holds a run with other settings \(trials: 3 there, 5 now\)/,
    );
  });

  it('an episode file that cannot be written stops the run naming it; the files before it stay whole, and a rerun resumes', async () => {
    const out = fresh();
    const flags = {
      model: 'scripted',
      baseUrl: model.url,
      apiKey: 'sk-test',
      tasks: 'add_company',
      trials: '3',
      out,
      concurrency: '1',
    };
    // A folder where the second episode's temporary file would go: its write fails.
    const blocked = join(out, 'episodes', `add_company.s0.t1.json.${process.pid}.tmp`);
    mkdirSync(blocked, { recursive: true });
    await expect(play(crm, flags, quiet)).rejects.toThrow(
      /could not write add_company\.s0\.t1 into /,
    );
    expect(readdirSync(join(out, 'episodes')).filter((f) => f.endsWith('.json'))).toEqual([
      'add_company.s0.t0.json',
    ]);
    expect(
      JSON.parse(readFileSync(join(out, 'episodes', 'add_company.s0.t0.json'), 'utf8')),
    ).toMatchObject({ episode_id: 'add_company.s0.t0', passed: true });
    rmSync(blocked, { recursive: true });
    const again = await play(crm, flags, quiet);
    expect(again.run).toMatchObject({ total: 3, played: 2, skipped: 1, resumed: true });
  });

  it('--url plays the same episodes on a served world, through the same loop', async () => {
    const server = await startServer({ worlds: [crm], port: 0 });
    try {
      const [here, there] = [fresh(), fresh()];
      const flags = {
        model: 'scripted',
        baseUrl: model.url,
        apiKey: 'sk-test',
        tasks: 'add_lead,add_company',
        trials: '2',
        concurrency: '2',
      };
      await play(crm, { ...flags, out: here }, quiet);
      const remote = await play(crm, { ...flags, out: there, url: server.url }, quiet);
      expect(remote.settings.url).toBe(server.url);
      expect(remote.summary.tasks.map((t) => [t.task, t.successes])).toEqual([
        ['add_lead', 1],
        ['add_company', 2],
      ]);
      const strip = (dir: string) => readEpisodes(dir).map(({ duration_ms: _d, ...rest }) => rest);
      expect(strip(there)).toEqual(strip(here));
    } finally {
      await server.close();
    }
  });

  it('stops an episode at its budget of turns or tokens, then submits it', async () => {
    const out = fresh();
    await play(
      crm,
      {
        model: 'scripted',
        baseUrl: model.url,
        apiKey: 'sk-test',
        tasks: 'add_lead',
        maxTurns: '1',
        out,
      },
      quiet,
    );
    const [turns] = readEpisodes(out);
    expect(turns).toMatchObject({ turns: 1, stop: 'max_turns', passed: false });
    expect(turns.tool_trace).toHaveLength(1);
    const out2 = fresh();
    // The scripted model spends 5 completion tokens a turn: 12 tokens allow three turns, the last one cut to 2 tokens.
    const gold = await startScriptedModel({ world: crm, good: () => true });
    await play(
      crm,
      {
        model: 'scripted',
        baseUrl: gold.url,
        apiKey: 'none',
        tasks: 'qualify_globex_leads',
        maxTokens: '12',
        out: out2,
      },
      quiet,
    ).finally(() => gold.close());
    const [tokens] = readEpisodes(out2);
    expect(tokens).toMatchObject({
      turns: 3,
      stop: 'max_tokens',
      usage: { completion_tokens: 15 },
      passed: false,
    });
    expect(tokens.tool_trace).toHaveLength(3);
  });

  it('retries transient model errors with backoff', async () => {
    const flaky = await startScriptedModel({ world: crm, good: () => true, failFirst: 2 });
    try {
      const out = fresh();
      const played = await play(
        crm,
        {
          model: 'scripted',
          baseUrl: flaky.url,
          apiKey: 'none',
          tasks: 'add_company',
          out,
          concurrency: '1',
          retries: '3',
          // 1 ms, then 2 ms: the default half a second, then a second, would only make the test wait.
          retryBackoff: '1',
        },
        quiet,
      );
      expect(played.summary.overall.successes).toBe(1);
      expect(readEpisodes(out)[0].model_retries).toBe(2);
    } finally {
      await flaky.close();
    }
  });

  it('from the command line: progress, the summary, and one clear line for a refused key, an unreachable URL or no key', async () => {
    const out = fresh();
    const ok = await seahaven(
      [
        'eval',
        'crm',
        '--model',
        'scripted',
        '--base-url',
        model.url,
        '--tasks',
        'add_company',
        '--trials',
        '2',
        '--out',
        out,
      ],
      { OPENAI_API_KEY: 'sk-test' },
    );
    expect(ok.stderr).toContain('2/2 episodes (0 from before), passed 2 (100.0%)');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('scripted on crm');
    expect(ok.stdout).toContain('pass^2 1.000');
    expect(existsSync(join(out, 'report.html'))).toBe(true);

    const refused = await seahaven([
      'eval',
      'crm',
      '--model',
      'scripted',
      '--base-url',
      model.url,
      '--api-key',
      'sk-wrong',
      '--tasks',
      'add_company',
      '--out',
      fresh(),
    ]);
    expect(refused.status).toBe(1);
    expect(
      refused.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('seahaven:')),
    ).toEqual([
      expect.stringMatching(
        /refused the API key \(401.*pass a valid one with --api-key or OPENAI_API_KEY$/,
      ),
    ]);
    expect(refused.stderr).not.toMatch(/\n\s+at /);

    const closed = await freePort();
    const away = await seahaven([
      'eval',
      'crm',
      '--model',
      'm',
      '--base-url',
      `http://127.0.0.1:${closed}/v1`,
      '--api-key',
      'none',
      '--tasks',
      'add_company',
      '--retries',
      '0',
      '--out',
      fresh(),
    ]);
    expect(away.status).toBe(1);
    expect(away.stderr).toContain(
      `\nseahaven: cannot reach the model server at http://127.0.0.1:${closed}/v1 (ECONNREFUSED): start it, or fix --base-url\n`,
    );
    expect(away.stderr).not.toMatch(/\n\s+at /);

    const nokey = await seahaven([
      'eval',
      'crm',
      '--model',
      'm',
      '--base-url',
      model.url,
      '--out',
      fresh(),
    ]);
    expect(nokey.status).toBe(2);
    expect(nokey.stderr).toBe(
      'seahaven: no API key: pass --api-key <key> or set OPENAI_API_KEY (for a local server that needs none, --api-key none)\n',
    );
  }, 60_000);
});

describe('retries of a transient model error', () => {
  it('--retries and --retry-backoff default to 4 and 500 ms, and take whole numbers only', async () => {
    const { numbers } = await import('./options.ts');
    expect(numbers({})).toEqual({ concurrency: 4, retries: 4, retryBackoffMs: 500 });
    expect(numbers({ retries: '2', retryBackoff: '25' })).toMatchObject({
      retries: 2,
      retryBackoffMs: 25,
    });
    expect(numbers({ retryBackoff: '0' }).retryBackoffMs).toBe(0);
    expect(() => numbers({ retryBackoff: '0.5' })).toThrow(
      '--retry-backoff 0.5: give a whole number from 0 to 600000',
    );
    expect(() => numbers({ retryBackoff: 'fast' })).toThrow(/^--retry-backoff fast: /);
  });
});

describe('which tasks a run plays', () => {
  it('--tasks, a tag, a curriculum or one of its stages, each refused clearly when unknown', async () => {
    const { selectTasks, parseSeeds } = await import('./options.ts');
    expect(selectTasks(crm, 'log_call,add_lead', undefined)).toEqual(['add_lead', 'log_call']);
    expect(selectTasks(crm, undefined, undefined)).toEqual(crm.tasks.map((t) => t.id));
    expect(selectTasks(crm, undefined, 'tag:delete')).toEqual(
      crm.tasks.filter((t) => t.tags?.includes('delete')).map((t) => t.id),
    );
    const curriculum = crm.curricula[0];
    const stages = curriculum.stages as { name: string; tasks?: string[] }[];
    expect(selectTasks(crm, undefined, `${curriculum.name}:${stages[0].name}`)).toEqual(
      expect.arrayContaining(stages[0].tasks ?? []),
    );
    expect(selectTasks(crm, undefined, curriculum.name).length).toBeGreaterThanOrEqual(
      selectTasks(crm, undefined, `${curriculum.name}:${stages[0].name}`).length,
    );
    expect(() => selectTasks(crm, 'nope', undefined)).toThrow(
      /crm has no task nope; its tasks are add_lead, /,
    );
    expect(() => selectTasks(crm, undefined, 'nope')).toThrow(
      /give all, tag:<tag>, or a curriculum/,
    );
    expect(() => selectTasks(crm, undefined, `${curriculum.name}:nope`)).toThrow(
      /has no stage "nope"/,
    );
    expect(parseSeeds('0-2,7')).toEqual([0, 1, 2, 7]);
    expect(() => parseSeeds('a')).toThrow(/like 0,1,2 or 0-4/);
  });
});
