/**
 * `seahaven eval`'s report and `seahaven collect`'s dataset where they are used: report.html opened from disk in
 * Debian's chromium with every network request refused (it must need none) and no console error; the same report
 * served by `eval --serve`, its step link opening the episode live in the console; and results.jsonl loaded with
 * Python's `datasets` (`$SEAHAVEN_TRL_PYTHON`, else `.venv-trl/bin/python`, which `.ci/run` builds). Without
 * chromium or `datasets` a test is skipped with one printed line outside CI, and fails in CI.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crm from '@seahaven/crm';
import { browserTests, launchChromium, type Chromium } from './console-screenshot.ts';
import { play } from 'seahaven/internal/command/eval/command';
import { writeCollection } from 'seahaven/internal/command/eval/collect';
import {
  startScriptedModel,
  type ScriptedModel,
} from 'seahaven/internal/command/eval/scripted-model';
import { serveRun } from 'seahaven/internal/command/eval/serve-run';
import { readEpisodes, readSettings } from 'seahaven/internal/command/eval/store';

const repo = fileURLToPath(new URL('..', import.meta.url));
const inCi = Boolean(process.env.CI);
const browser = browserTests();
if (!browser.run) process.stderr.write(`e2e/eval: report tests ${browser.reason}\n`);

function findDatasetsPython(): string | undefined {
  const candidate = process.env.SEAHAVEN_TRL_PYTHON ?? `${repo}.venv-trl/bin/python`;
  if (!process.env.SEAHAVEN_TRL_PYTHON && !existsSync(candidate)) return undefined;
  return spawnSync(candidate, ['-c', 'import datasets'], { stdio: 'ignore', timeout: 120_000 })
    .status === 0
    ? candidate
    : undefined;
}
const python = findDatasetsPython();
if (python === undefined && !inCi)
  process.stderr.write(
    'e2e/eval: the datasets test skipped, no Python with datasets (python3 -m venv .venv-trl && .venv-trl/bin/pip install datasets, or set SEAHAVEN_TRL_PYTHON)\n',
  );

const dir = mkdtempSync(join(tmpdir(), 'seahaven-e2e-eval-'));
let model: ScriptedModel;
let chromium: Chromium | undefined;

beforeAll(async () => {
  model = await startScriptedModel({
    world: crm,
    good: (task, _s, trial) => task !== 'qualify_globex_leads' || trial === 0,
  });
  await play(
    crm,
    {
      model: 'scripted',
      baseUrl: model.url,
      apiKey: 'none',
      tasks: 'add_lead,qualify_globex_leads,add_company',
      trials: '3',
      seeds: '0-1',
      out: dir,
    },
    { env: {}, progress: () => {} },
  );
  if (browser.run) chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A page that records every console error, page error and request it made. */
async function watched(): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await chromium!.context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  return { page, problems, requests };
}

describe('the eval report in chromium', () => {
  it.skipIf(!browser.run && !inCi)(
    'opens offline from disk with its table and plots, and no console error',
    async () => {
      const { page, problems, requests } = await watched();
      await page.route(/^(?!file:)/, (route) => route.abort());
      await page.goto(pathToFileURL(join(dir, 'report.html')).href);
      expect(await page.title()).toBe('scripted on crm: eval report');
      expect(await page.locator('table').first().locator('tr').count()).toBe(1 + 3 + 1);
      expect(await page.locator('svg[aria-label="pass^k by k"] polyline').count()).toBe(4);
      expect(
        await page.locator('svg[aria-label="reward distribution per task"] circle').count(),
      ).toBe(18);
      expect(
        await page.locator('svg[aria-label="failures per criterion"] rect').count(),
      ).toBeGreaterThan(0);
      // Each failed episode has its section, linked from the list, with its diff.
      const failed = readEpisodes(dir).filter((r) => !r.passed);
      expect(failed.length).toBe(4);
      await page.click(`a[href="#ep-${failed[0].episode_id}"]`);
      await expect
        .poll(() => page.evaluate(() => location.hash))
        .toBe(`#ep-${failed[0].episode_id}`);
      expect(
        await page
          .locator(`#ep-${failed[0].episode_id.replaceAll('.', '\\.')} h4`)
          .first()
          .textContent(),
      ).toContain('Net changes');
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it.skipIf(!browser.run && !inCi)(
    'served by eval --serve, a step link opens the episode live in the console, ready to fork',
    async () => {
      const server = await serveRun(dir, crm, { port: 0 });
      try {
        const { page, problems } = await watched();
        await page.goto(`${server.url}/eval/report.html`);
        const record = readEpisodes(dir).find(
          (r) => r.task === 'qualify_globex_leads' && !r.passed,
        )!;
        const link = page.locator(`#ep-${record.episode_id.replaceAll('.', '\\.')} a.live`).nth(1);
        const href = (await link.getAttribute('href'))!;
        const step = Number(href.split('/').at(-1));
        await link.click();
        await page.waitForURL(/\/console\/#crm\//);
        const id = decodeURIComponent(page.url().split('/').at(-1)!);
        await expect
          .poll(async () => (await page.textContent('body')) ?? '')
          .toContain(`Session ${id.slice(0, 8)}`);
        const res = await fetch(`${server.url}/console/api/sessions/crm/${id}`);
        const { session } = (await res.json()) as {
          session: { task?: unknown; seed: number; call_count?: number };
        };
        expect(session.seed).toBe(record.seed);
        const { calls } = (await (
          await fetch(`${server.url}/console/api/sessions/crm/${id}/timeline`)
        ).json()) as { calls: { index?: number }[] };
        expect(calls.filter((c) => c.index !== undefined).at(-1)?.index ?? 0).toBe(step);
        await page.getByRole('button', { name: 'Fork' }).click();
        await expect.poll(() => page.url()).not.toContain(id);
        expect(problems).toEqual([]);
        await page.close();
      } finally {
        await server.close();
      }
    },
  );
});

it.skipIf(python === undefined && !inCi)(
  "collect's results.jsonl loads with Python's datasets",
  () => {
    if (python === undefined)
      throw new Error(
        'no Python can import datasets; install it: python3 -m venv .venv-trl && .venv-trl/bin/pip install datasets (or set SEAHAVEN_TRL_PYTHON)',
      );
    writeCollection(dir, crm, readSettings(dir), readEpisodes(dir), undefined);
    const script = [
      'import json, sys',
      'from datasets import load_dataset',
      'ds = load_dataset("json", data_files=sys.argv[1], split="train")',
      'print(json.dumps({"rows": ds.num_rows, "columns": ds.column_names, "roles": [m["role"] for m in ds[0]["messages"]], "rewards": sorted(set(ds["reward"]))}))',
    ].join('\n');
    const r = spawnSync(python, ['-c', script, join(dir, 'results.jsonl')], {
      encoding: 'utf8',
      timeout: 170_000,
      env: { ...process.env, HF_HUB_OFFLINE: '1', HF_DATASETS_CACHE: join(dir, 'hf-cache') },
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      rows: number;
      columns: string[];
      roles: string[];
      rewards: number[];
    };
    expect(out.rows).toBe(18);
    expect(out.columns).toEqual([
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
    expect(out.roles.slice(0, 2)).toEqual(['system', 'user']);
    expect(out.rewards.at(-1)).toBe(1);
  },
  180_000,
);
