/**
 * Browser tests of the console: a real server on a free port, Debian's chromium driven by playwright-core, and every
 * step done the way a person would, through the page.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from 'seahaven';
import { consoleRoutes, startServer, type RunningServer } from 'seahaven/serve';
import type { Instance } from 'seahaven/internal/core/instance';
import { crm } from '@seahaven/crm';
import { SeahavenClient } from 'seahaven/client';
import {
  browserTests,
  callThroughForm,
  fillField,
  launchChromium,
  playAddLead,
  scrollToTop,
  type Chromium,
} from './console-screenshot.ts';

const configure = defineTool({
  name: 'configure',
  description: 'Store a run configuration and echo it back.',
  input: z.object({
    label: z.string().min(1).describe('What to call the run.'),
    count: z.number().int().min(0).default(3),
    ratio: z.number().optional(),
    enabled: z.boolean(),
    flag: z.boolean().optional(),
    mode: z.enum(['fast', 'safe']).default('safe'),
    owner: z.object({ name: z.string(), email: z.string().email().optional() }).optional(),
    tags: z.array(z.string()).default([]),
    steps: z
      .array(z.object({ op: z.enum(['add', 'remove']), amount: z.number().int() }))
      .optional(),
    note: z.string().nullable().optional(),
    extra: z.record(z.string(), z.number()).optional(),
  }),
  run(ctx, args) {
    ctx.db.run('INSERT INTO runs (label) VALUES (?)', args.label);
    return args;
  },
});

const forms = defineWorld({
  name: 'forms',
  version: '0.1.0',
  description: 'One tool with every kind of input.',
  schema: 'CREATE TABLE runs (id INTEGER PRIMARY KEY, label TEXT NOT NULL) STRICT;',
  tools: [configure],
  fixtures: { blank: { description: 'No runs.', now: '2026-01-01T00:00:00.000Z', build() {} } },
});

const XSS = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';

let server: RunningServer;
let browser: Chromium;

// Outside CI a machine without the browser skips these tests with one line naming the install command; CI fails.
const browserStatus = browserTests();
if (!browserStatus.run) console.log(browserStatus.reason);

beforeAll(async () => {
  if (!browserStatus.run) return;
  server = await startServer({ worlds: [crm, forms], port: 0, ...consoleRoutes() });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records script errors and dialogs, so a test can assert none happened. */
async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return { page, problems };
}

/** The instance behind the session the page shows. */
async function shownInstance(page: Page): Promise<Instance> {
  const [world, id] = (await page.evaluate(() => location.hash.slice(1)))
    .split('/')
    .map(decodeURIComponent);
  const session = server.sessions.get(server.endpoints.get(world)!, id);
  if (!session) throw new Error(`the page shows session ${id} of ${world}, which is not open`);
  return session.inst;
}

const columnTexts = (page: Page, column: number) =>
  page
    .locator('table.rows tbody tr')
    .evaluateAll(
      (rows, i) => rows.map((r) => (r as HTMLTableRowElement).cells[i].textContent),
      column,
    );

describe.skipIf(!browserStatus.run)('the console in a browser', () => {
  it(
    'plays a crm task through generated forms: the diff, the tables, a refused call, the grade, a fork',
    { timeout: 90_000 },
    async () => {
      const { page, problems } = await newPage();
      await playAddLead(page, server.url);
      const inst = await shownInstance(page);
      expect(inst.taskId).toBe('add_lead');

      // The call made through the create_contact form, with the row it inserted.
      const made = page.locator('.timeline > li[data-tool="create_contact"]');
      await expect.poll(() => made.locator('.call-index').textContent()).toBe('#2');
      const insert = made.locator('.change[data-table="contacts"][data-op="insert"]');
      expect(await insert.locator('tr[data-column="name"] td.after').textContent()).toBe(
        'Ada Lovelace',
      );
      expect(await insert.locator('tr[data-column="email"] td.after').textContent()).toBe(
        'ada.lovelace@acmerobotics.example',
      );
      const ada = inst.query<{ id: string }>(
        "SELECT id FROM contacts WHERE email = 'ada.lovelace@acmerobotics.example'",
      )[0].id;
      expect(await insert.locator('.change-key').textContent()).toBe(`id=${ada}`);
      mkdirSync('test-artifacts', { recursive: true });
      await scrollToTop(page);
      await page.screenshot({ path: 'test-artifacts/console.png' });

      // Time passes: two hours, through the clock control; the clock fact moves by that much.
      const clockFact = page.locator('.facts dt:text-is("clock") + dd');
      const before = Date.parse(((await clockFact.textContent()) ?? '').split(' · ')[1]);
      await page.locator('.clock-control input').fill('2');
      await page.locator('.clock-control select').selectOption('hours');
      await page.locator('.clock-control button').click();
      await expect
        .poll(
          async () => Date.parse(((await clockFact.textContent()) ?? '').split(' · ')[1]) - before,
        )
        .toBe(2 * 3_600_000);

      // The grade, criterion by criterion, as the grader gives it.
      await page.locator('.tab[data-tab="grade"]').click();
      const grade = inst.submit();
      expect(grade.passed).toBe(true);
      expect(await page.locator('.grade .reward').textContent()).toBe('1.00');
      expect(await page.locator('.grade .badge').textContent()).toBe('passed');
      expect(await page.locator('table.criteria td.criterion-name').allTextContents()).toEqual(
        grade.criteria.map((c) => c.name),
      );
      expect(await page.locator('table.criteria td.reason').allTextContents()).toEqual(
        grade.criteria.map((c) => c.reason),
      );
      expect(
        await page
          .locator('table.criteria td.criterion-name')
          .evaluateAll((cells) => cells.map((td) => td.getAttribute('title'))),
      ).toEqual(grade.criteria.map((c) => c.id));

      // The contacts table, sorted by name both ways and paged, against SQLite's own order.
      await page.locator('.tab[data-tab="tables"]').click();
      await page.locator('select[aria-label="table"]').selectOption('contacts');
      await page.locator('table.rows[data-table="contacts"]').waitFor();
      const columns = await page
        .locator('table.rows thead button.sort')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-column')));
      const nameAt = columns.indexOf('name');
      const names = (sql: string) => inst.query<{ name: string }>(sql).map((r) => r.name);
      await page.locator('button.sort[data-column="name"]').click();
      await expect
        .poll(() => columnTexts(page, nameAt))
        .toEqual(names('SELECT name FROM contacts ORDER BY name ASC, id ASC LIMIT 25'));
      const total = inst.query<{ n: number }>('SELECT count(*) AS n FROM contacts')[0].n;
      expect(await page.locator('.page-position').textContent()).toBe(`rows 1–25 of ${total}`);
      expect(await page.locator('table.rows tr.row-insert td').nth(nameAt).textContent()).toBe(
        'Ada Lovelace',
      );
      await page.getByRole('button', { name: 'Next ›' }).click();
      await expect
        .poll(() => page.locator('.page-position').textContent())
        .toBe(`rows 26–50 of ${total}`);
      expect(await columnTexts(page, nameAt)).toEqual(
        names('SELECT name FROM contacts ORDER BY name ASC, id ASC LIMIT 25 OFFSET 25'),
      );
      await page.locator('button.sort[data-column="name"]').click();
      await expect
        .poll(() => columnTexts(page, nameAt))
        .toEqual(names('SELECT name FROM contacts ORDER BY name DESC, id ASC LIMIT 25'));
      expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('name');

      // A call the tool refuses: the error and each violation show, and the timeline keeps it without a number.
      await page.locator('.tab[data-tab="timeline"]').click();
      await page.locator('.tool-list button[data-tool="create_contact"]').click();
      await fillField(page, 'create_contact', 'name', 'No Email');
      await fillField(page, 'create_contact', 'email', '');
      await page.getByRole('button', { name: 'Call create_contact' }).click();
      const failure = page.locator('.tool-result .failure');
      expect(await failure.locator('.error-code').textContent()).toBe('invalid_arguments');
      expect(await failure.locator('.violations li').first().textContent()).toContain('email');
      await page.locator('.timeline > li.failed .call-index').waitFor();
      expect(await page.locator('.timeline > li.failed .call-index').textContent()).toBe('–');

      // An update through a form: the changed field is highlighted with its old and new value.
      await callThroughForm(page, 'update_contact', { id: ada, stage: 'qualified' });
      const update = page.locator(
        '.timeline > li[data-tool="update_contact"] .change[data-op="update"]',
      );
      const stage = update.locator('tr.changed[data-column="stage"]');
      expect(await stage.locator('td.before').textContent()).toBe('lead');
      expect(await stage.locator('td.after').textContent()).toBe('qualified');
      expect(await update.locator('tr.same[data-column="id"] td.before').textContent()).toBe(ada);
      expect(await page.locator('.timeline > li').count()).toBe(inst.callLog().length);

      // The net changes: one contact inserted, already qualified.
      await page.locator('.tab[data-tab="changes"]').click();
      // The timeline's diffs stay in the tab body until the changes have loaded: wait for the changes view itself.
      await page.locator('.tab-body p', { hasText: 'Net changes since the reset' }).waitFor();
      const net = page.locator('.tab-body .change');
      await net.first().waitFor();
      expect(await net.count()).toBe(inst.changes().length);
      expect(await net.first().getAttribute('data-op')).toBe('insert');
      expect(await net.first().locator('tr[data-column="stage"] td.after').textContent()).toBe(
        'qualified',
      );

      // Fork: a new session with the same history, which diverges on its own.
      const original = await page.evaluate(() => location.hash);
      await page.getByRole('button', { name: 'Fork', exact: true }).click();
      await expect.poll(() => page.evaluate(() => location.hash)).not.toBe(original);
      await page.locator('.session-title', { hasText: 'fork of' }).waitFor();
      const fork = await shownInstance(page);
      expect(fork).not.toBe(inst);
      await page.locator('.tab[data-tab="timeline"]').click();
      expect(await page.locator('.timeline > li').count()).toBe(inst.callLog().length);
      await callThroughForm(page, 'create_company', { name: 'Forked Co' });
      expect(fork.query("SELECT count(*) AS n FROM companies WHERE name = 'Forked Co'")[0].n).toBe(
        1,
      );
      expect(inst.query("SELECT count(*) AS n FROM companies WHERE name = 'Forked Co'")[0].n).toBe(
        0,
      );
      expect(await page.locator('.session-list .session-item').count()).toBe(2);
      await page
        .locator(
          `.session-list .session-item[data-session="${decodeURIComponent(original.split('/')[1])}"]`,
        )
        .click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe(original);
      await expect.poll(() => page.locator('.timeline > li').count()).toBe(inst.callLog().length);

      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'shows row values, tool output and error messages that look like HTML as text',
    { timeout: 60_000 },
    async () => {
      const { page, problems } = await newPage();
      await page.goto(`${server.url}/console/`);
      await page.locator('body[data-ready="true"]').waitFor();
      await fillField(page, 'reset', 'fixture', 'small_startup');
      await page.getByRole('button', { name: 'Open session' }).click();
      await page.locator('.session-title').waitFor();
      await callThroughForm(page, 'create_contact', {
        name: XSS,
        email: 'xss@example.com',
        notes: '<b>bold</b>',
      });
      const insert = page.locator('.timeline .change[data-op="insert"]');
      expect(await insert.locator('tr[data-column="name"] td.after').textContent()).toBe(XSS);
      expect(await insert.locator('tr[data-column="notes"] td.after').textContent()).toBe(
        '<b>bold</b>',
      );
      expect(await page.locator('.tool-result pre').textContent()).toContain(JSON.stringify(XSS));
      expect(await page.locator('.timeline dl.call-args dd').first().textContent()).toBe(XSS);

      // Ids are at most 64 characters: a shorter payload reaches the not-found message.
      const xssId = '<img src=x onerror="window.__xss = 3">';
      await callThroughForm(page, 'get_contact', { id: xssId });
      expect(await page.locator('.tool-result .error-message').textContent()).toContain(xssId);

      await page.locator('.tab[data-tab="tables"]').click();
      await page.locator('select[aria-label="table"]').selectOption('contacts');
      await page.locator('table.rows[data-table="contacts"]').waitFor();
      await page.locator('button.sort[data-column="name"]').click();
      const nameAt = (
        await page
          .locator('table.rows thead button.sort')
          .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-column')))
      ).indexOf('name');
      await expect
        .poll(() =>
          page.locator('table.rows tbody tr').first().locator('td').nth(nameAt).textContent(),
        )
        .toBe(XSS);

      // Nothing ran and nothing was injected: one script (the console's), no images, no <b>, no flag set.
      expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(1);
      expect(await page.evaluate(() => document.querySelectorAll('img, b').length)).toBe(0);
      expect(
        await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
      ).toBeUndefined();
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'generates forms for nested objects, arrays, enums, booleans, numbers, nullable values and JSON',
    { timeout: 60_000 },
    async () => {
      const { page, problems } = await newPage();
      await page.goto(`${server.url}/forms/console`);
      await page.locator('body[data-ready="true"]').waitFor();
      expect(await page.locator('select[aria-label="world"]').inputValue()).toBe('forms');
      await page.getByRole('button', { name: 'Open session' }).click();
      await page.locator('.session-title').waitFor();
      await page.locator('.tool-list button[data-tool="configure"]').click();
      const form = page.locator('form[data-form="configure"]');

      // Required marks, defaults and descriptions come from the schema.
      expect(await form.locator('[data-field="label"] .req').count()).toBe(1);
      expect(await form.locator('[data-field="count"] .req').count()).toBe(0);
      expect(await form.locator('[data-field="count"] input').inputValue()).toBe('3');
      expect(await form.locator('[data-field="mode"] select option:checked').textContent()).toBe(
        'safe',
      );
      expect(await form.locator('[data-field="label"] .help').textContent()).toBe(
        'What to call the run.',
      );

      await fillField(page, 'configure', 'label', 'first');
      await fillField(page, 'configure', 'count', '5');
      await form.locator('[data-field="enabled"] input[type="checkbox"]').check();
      await fillField(page, 'configure', 'mode', 'fast');
      await fillField(page, 'configure', 'owner.name', 'Ada');
      const tags = form.locator('[data-field="tags"] > .array-editor > .add-item');
      await tags.click();
      await tags.click();
      await tags.click();
      await fillField(page, 'configure', 'tags.0', 'w');
      await fillField(page, 'configure', 'tags.1', 'x');
      await fillField(page, 'configure', 'tags.2', 'y');
      // Removing an item renumbers the ones after it.
      const tagItems = form.locator('[data-field="tags"] .array-item');
      await tagItems.first().locator('.remove-item').click();
      expect(await tagItems.locator('.item-index').allTextContents()).toEqual(['[0]', '[1]']);
      await form.locator('[data-field="steps"] > .array-editor > .add-item').click();
      await fillField(page, 'configure', 'steps.0.op', 'remove');
      await fillField(page, 'configure', 'steps.0.amount', '2');
      await form.getByLabel('note is null').check();
      expect(await form.locator('[data-field="note"] > input').isDisabled()).toBe(true);

      // JSON that does not parse is caught before the call, naming the field.
      await fillField(page, 'configure', 'extra', '{oops');
      await page.getByRole('button', { name: 'Call configure' }).click();
      await expect.poll(() => page.locator('.banner').textContent()).toContain('extra: not JSON');
      await fillField(page, 'configure', 'extra', '{"a": 1}');
      await page.getByRole('button', { name: 'Call configure' }).click();
      await page.locator('.timeline > li[data-tool="configure"]').waitFor();

      const inst = await shownInstance(page);
      const expected = {
        label: 'first',
        count: 5,
        enabled: true,
        mode: 'fast',
        owner: { name: 'Ada' },
        tags: ['x', 'y'],
        steps: [{ op: 'remove', amount: 2 }],
        note: null,
        extra: { a: 1 },
      };
      expect(inst.callLog()).toEqual([
        { index: 1, tool: 'configure', args: expected, ok: true, result: expected },
      ]);
      expect(
        await page
          .locator('.timeline .change[data-table="runs"] tr[data-column="label"] td.after')
          .textContent(),
      ).toBe('first');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    "watches a WebSocket client's session as it plays, and forks it",
    { timeout: 60_000 },
    async () => {
      const { page, problems } = await newPage();
      await using env = await SeahavenClient.connect(server.url);
      await env.reset({ fixture: 'small_startup', seed: 2 });
      await env.call('create_company', { name: 'Watched Co' });
      await page.goto(`${server.url}/console/`);
      await page.locator('body[data-ready="true"]').waitFor();
      await page.locator('.session-item', { has: page.locator('.owner-ws') }).click();
      await page.locator('.notice', { hasText: 'WebSocket' }).waitFor();
      expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
      await page.locator('.timeline > li[data-tool="create_company"]').waitFor();
      await env.call('create_company', { name: 'Later Co' });
      await expect.poll(() => page.locator('.timeline > li').count(), { timeout: 10_000 }).toBe(2);
      expect(
        await page
          .locator('.timeline > li')
          .first()
          .locator('tr[data-column="name"] td.after')
          .textContent(),
      ).toBe('Later Co');

      await page.getByRole('button', { name: 'Fork', exact: true }).click();
      await page.locator('.session-title', { hasText: 'fork of' }).waitFor();
      await callThroughForm(page, 'create_company', { name: 'Experiment' });
      expect(
        (await env.state()).changes.map((c) => (c.after as { name: string }).name).sort(),
      ).toEqual(['Later Co', 'Watched Co']);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'asks for the token when the server wants one, and refuses a wrong one',
    { timeout: 60_000 },
    async () => {
      const guarded = await startServer({
        worlds: [crm],
        port: 0,
        token: 'open sesame',
        ...consoleRoutes(),
      });
      const { page, problems } = await newPage();
      try {
        await page.goto(`${guarded.url}/console/`);
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain('this server requires a bearer token');
        await page.getByLabel('Bearer token').fill('wrong');
        await page.getByRole('button', { name: 'Use token' }).click();
        await expect.poll(() => dialog.textContent()).toContain('the bearer token is wrong');
        await page.getByLabel('Bearer token').fill('open sesame');
        await page.getByRole('button', { name: 'Use token' }).click();
        await page.locator('body[data-ready="true"]').waitFor();
        expect(await page.locator('select[aria-label="world"]').inputValue()).toBe('crm');
        await fillField(page, 'reset', 'fixture', 'empty');
        await page.getByRole('button', { name: 'Open session' }).click();
        await page.locator('.session-title').waitFor();
        expect(guarded.sessions.size).toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
        await guarded.close();
      }
    },
  );
});
