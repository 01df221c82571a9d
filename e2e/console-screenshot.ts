/**
 * Browser helpers for the console: launch Debian's chromium through playwright-core, play a short crm episode through
 * the console's forms, and save a screenshot. The browser tests use them, and `docs/console.png` is made with:
 *
 *   npx tsx --conditions=@seahaven/source e2e/console-screenshot.ts docs/console.png
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium, or the browser `SEAHAVEN_CHROMIUM` names. */
export const CHROMIUM = process.env.SEAHAVEN_CHROMIUM ?? '/usr/bin/chromium';

/** The command that installs the browser the console's tests drive. */
export const INSTALL_CHROMIUM = 'apt-get update && apt-get install -y chromium';

/**
 * Whether the browser tests can run: `{ run: true }` when the browser exists; otherwise, outside CI, `{ run: false,
 * reason }` with one line that names the install command, and under CI (`CI` set to anything but `false`/`0`) an error,
 * because CI installs the browser and a skip there would hide a broken install.
 * @example
 * const browser = browserTests();
 * if (!browser.run) console.log(browser.reason);
 */
export function browserTests(
  env: NodeJS.ProcessEnv = process.env,
  path = CHROMIUM,
): { run: true } | { run: false; reason: string } {
  if (existsSync(path)) return { run: true };
  const missing = `the console's browser tests need chromium at ${path}, which is not installed`;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') {
    throw new Error(`${missing}; CI must install it: ${INSTALL_CHROMIUM}`);
  }
  return { run: false, reason: `skipped: ${missing}; enable them with: ${INSTALL_CHROMIUM}` };
}

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running headless chromium with a fresh profile; `close()` ends it and deletes the profile. */
export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Start Debian's headless chromium with a fresh profile. Throws, naming the install command, when it is missing.
 * @example
 * const browser = await launchChromium({ width: 1200, height: 800 });
 * const page = await browser.context.newPage();
 * await browser.close();
 */
export async function launchChromium(viewport = { width: 1280, height: 860 }): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the console's browser tests drive Debian's chromium at ${CHROMIUM}, which is not installed; install it with: ${INSTALL_CHROMIUM}`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'seahaven-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Fill a tool's generated form field by its property name (text inputs and selects).
 * @example await fillField(page, 'create_contact', 'email', 'ada@example.com');
 */
export async function fillField(
  page: Page,
  form: string,
  field: string,
  value: string,
): Promise<void> {
  const control = page.locator(
    `form[data-form="${form}"] [data-field="${field}"] > :is(input, select, textarea)`,
  );
  if ((await control.evaluate((el) => el.tagName)) === 'SELECT')
    await control.selectOption({ label: value });
  else await control.fill(value);
}

/**
 * Pick a tool on the left, fill its form and call it; resolves once the call shows in the tool's result box.
 * @example await callThroughForm(page, 'list_companies', { query: 'Acme' });
 */
export async function callThroughForm(
  page: Page,
  tool: string,
  fields: Record<string, string>,
): Promise<void> {
  await page.locator(`.tool-list button[data-tool="${tool}"]`).click();
  for (const [name, value] of Object.entries(fields)) await fillField(page, tool, name, value);
  const before = await page.locator('.timeline > li').count();
  await page.getByRole('button', { name: `Call ${tool}`, exact: true }).click();
  await page.locator('.tool-result .result-head').waitFor();
  await page.locator('.timeline > li').nth(before).waitFor();
}

/**
 * Open the console at `url`, play the crm task `add_lead` through the forms (look the company up, add the contact,
 * and unless `submit` is false, submit), and leave the timeline showing.
 * @example await playAddLead(page, server.url);
 */
export async function playAddLead(page: Page, url: string, submit = true): Promise<void> {
  await page.goto(`${url}/console/`);
  await page.locator('body[data-ready="true"]').waitFor();
  await fillField(page, 'reset', 'task', 'add_lead');
  await page.getByRole('button', { name: 'Open session' }).click();
  await page.locator('.task-prompt').waitFor();
  await callThroughForm(page, 'list_companies', { query: 'Acme' });
  await callThroughForm(page, 'create_contact', {
    name: 'Ada Lovelace',
    email: 'ada.lovelace@acmerobotics.example',
    company_id: 'cmp_acme',
    title: 'Head of Research',
  });
  if (submit) {
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.locator('.grade .reward').waitFor();
  }
  await page.locator('.tab[data-tab="timeline"]').click();
  await page.locator('.timeline .change').first().waitFor();
}

/** Scroll both columns back to the top (clicks scroll what they click into view), for a screenshot. */
export async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('aside, main')) el.scrollTop = 0;
  });
}

/**
 * Serve crm on a free port, play `add_lead` in the console, and save a `width`×`height` screenshot to `out`.
 * @example await screenshotConsole('docs/console.png');
 */
export async function screenshotConsole(
  out: string,
  size = { width: 1200, height: 800 },
): Promise<void> {
  const { startServer } = await import('seahaven/internal/transports/serve/server');
  const { consoleRoutes } = await import('seahaven/internal/transports/serve/console');
  const { crm } = await import('@seahaven/crm');
  const server = await startServer({ worlds: [crm], port: 0, ...consoleRoutes() });
  const browser = await launchChromium(size);
  try {
    const page = await browser.context.newPage();
    await playAddLead(page, server.url, false);
    await scrollToTop(page);
    mkdirSync(dirname(resolve(out)), { recursive: true });
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2] ?? 'test-artifacts/console.png';
  await screenshotConsole(out);
  console.log(`saved ${out}`);
}
