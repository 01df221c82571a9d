import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crm from '../../../../worlds/crm/index.ts';
import { startServer, type RunningServer } from '../../transports/serve/server.ts';
import { defineTask, defineTool, defineWorld, z } from '../../core/index.ts';
import { expectChanges, inserted } from '../../libraries/rewards/index.ts';
import { play } from './command.ts';
import { startScriptedModel, type ScriptedModel } from './scripted-model.ts';
import { readEpisodes } from './store.ts';

// A run on a served world with its grader token takes each episode's whole grade and change log from the server (the
// `submit` step with `trace: true`) instead of replaying the episode here; the records are the same.
const SECRET = 'eval-remote-test-secret';
const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'seahaven-eval-remote-'));
  dirs.push(d);
  return d;
};
const good = (task: string, _seed: number, trial: number) =>
  task === 'add_lead' ? trial % 2 === 0 : task === 'add_company';

let model: ScriptedModel;
let server: RunningServer;
beforeAll(async () => {
  model = await startScriptedModel({ world: crm, good });
  // Keeping no call result in its call log, the server's trace is told apart from a replay here by result_dropped.
  server = await startServer({ worlds: [crm], port: 0, graderToken: SECRET, maxCallLogBytes: 0 });
});
afterAll(async () => {
  await server.close();
  await model.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const flags = {
  model: 'scripted',
  apiKey: 'none',
  tasks: 'add_lead,add_company',
  trials: '2',
  concurrency: '2',
};
const strip = (dir: string) =>
  readEpisodes(dir).map(({ duration_ms: _d, calls, ...rest }) => ({
    ...rest,
    calls: calls.map(({ index, tool, args, ok }) => ({ index, tool, args, ok })),
  }));

describe('seahaven eval --url with the grader token', () => {
  it("records each episode from the server's trace, the same records as in process, and says so", async () => {
    const [here, there] = [fresh(), fresh()];
    const f = { ...flags, baseUrl: model.url };
    await play(crm, { ...f, out: here }, { env: {}, progress: () => {} });
    const lines: string[] = [];
    const remote = await play(
      crm,
      { ...f, out: there, url: server.url, graderToken: SECRET },
      { env: {}, progress: (l) => lines.push(l) },
    );
    expect(remote.source).toBe(
      `episodes on ${server.url}: whole grades and change logs from the server (grader token); the first episode replayed here as a check`,
    );
    expect(lines[0]).toBe(remote.source);
    const records = readEpisodes(there);
    // The call log is the server's (it kept no results), not one replayed here.
    expect(records.flatMap((r) => r.calls).every((c) => c.result_dropped === true)).toBe(true);
    expect(records.some((r) => r.change_log.length > 0)).toBe(true);
    expect(strip(there)).toEqual(strip(here));
    expect(remote.summary.tasks.map((t) => [t.task, t.successes])).toEqual([
      ['add_lead', 1],
      ['add_company', 2],
    ]);
  });

  it('takes the token from SEAHAVEN_GRADER_TOKEN; without one it replays, and says how to skip that', async () => {
    const lines: string[] = [];
    const byEnv = await play(
      crm,
      {
        ...flags,
        baseUrl: model.url,
        tasks: 'add_company',
        trials: '1',
        out: fresh(),
        url: server.url,
      },
      { env: { SEAHAVEN_GRADER_TOKEN: SECRET }, progress: (l) => lines.push(l) },
    );
    expect(byEnv.source).toContain('from the server (grader token)');
    expect(readEpisodes(join(dirs.at(-1)!))[0].calls[0].result_dropped).toBe(true);
    const replaying = await play(
      crm,
      {
        ...flags,
        baseUrl: model.url,
        tasks: 'add_company',
        trials: '1',
        out: fresh(),
        url: server.url,
      },
      { env: {}, progress: () => {} },
    );
    expect(replaying.source).toBe(
      `episodes on ${server.url}: whole grades and change logs by replaying each episode here (no grader token: pass --grader-token or set SEAHAVEN_GRADER_TOKEN to take them from the server)`,
    );
    expect(readEpisodes(join(dirs.at(-1)!))[0].calls[0]).not.toHaveProperty('result_dropped');
    // In process the variable is not the runner's business.
    const local = await play(
      crm,
      { ...flags, baseUrl: model.url, tasks: 'add_company', trials: '1', out: fresh() },
      { env: { SEAHAVEN_GRADER_TOKEN: SECRET }, progress: () => {} },
    );
    expect(local.source).toBeNull();
  });

  it('refuses a token the server does not have, and --grader-token without --url, naming the fix', async () => {
    await expect(
      play(
        crm,
        { ...flags, baseUrl: model.url, out: fresh(), url: server.url, graderToken: 'wrong' },
        { env: {}, progress: () => {} },
      ),
    ).rejects.toThrow(/the grader token is wrong/);
    await expect(
      play(
        crm,
        { ...flags, baseUrl: model.url, out: fresh(), graderToken: SECRET },
        { env: {}, progress: () => {} },
      ),
    ).rejects.toThrow('--grader-token goes with --url');
  });

  it('stops when the server plays the task from another fixture than the one here, or its first episode comes out otherwise here', async () => {
    const world = (email: string, shout = false) =>
      defineWorld({
        name: 'notes',
        version: '1.0.0',
        schema: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT;',
        tools: [
          defineTool({
            name: 'add_note',
            description: 'Add a note.',
            input: z.object({ text: z.string().max(100).describe('The note, like "call Ada".') }),
            run: (ctx, { text }) =>
              void ctx.db.run(
                'INSERT INTO notes (text) VALUES (?)',
                shout ? text.toUpperCase() : text,
              ),
          }),
        ],
        fixtures: {
          one: {
            description: 'One note.',
            difficulty: 1,
            now: '2026-06-01T09:00:00.000Z',
            build: (ctx) => void ctx.db.run('INSERT INTO notes (id, text) VALUES (1, ?)', email),
          },
        },
        tasks: [
          defineTask({
            id: 'note',
            fixture: 'one',
            prompt: 'Add a note "hello".',
            grade: expectChanges([inserted('notes', { text: 'hello' })]),
            gold: (inst) => void inst.call('add_note', { text: 'hello' }),
          }),
        ],
      });
    const here = world('first');
    const notes = await startServer({ worlds: [world('second')], port: 0, graderToken: SECRET });
    // The same fixture, but a tool that does otherwise there: the first episode, replayed here, tells.
    const shouting = await startServer({
      worlds: [world('first', true)],
      port: 0,
      graderToken: SECRET,
    });
    const notesModel = await startScriptedModel({ world: here, good: () => true });
    try {
      const run = play(
        here,
        {
          model: 'scripted',
          baseUrl: notesModel.url,
          apiKey: 'none',
          out: fresh(),
          url: notes.url,
          graderToken: SECRET,
        },
        { env: {}, progress: () => {} },
      );
      await expect(run).rejects.toThrow(
        /played note on notes 1\.0\.0 from a fixture of sha256 [0-9a-f]{64}, not notes 1\.0\.0 from [0-9a-f]{64}; is it serving this same notes 1\.0\.0 with the same fixtures\?/,
      );
      const odd = play(
        here,
        {
          model: 'scripted',
          baseUrl: notesModel.url,
          apiKey: 'none',
          out: fresh(),
          url: shouting.url,
          graderToken: SECRET,
        },
        { env: {}, progress: () => {} },
      );
      await expect(odd).rejects.toThrow(
        `the episode's grade or changes on ${shouting.url} differ from the same episode replayed here; is it serving this same notes 1.0.0 with the same fixtures?`,
      );
    } finally {
      await notes.close();
      await shouting.close();
      await notesModel.close();
    }
  });
});
