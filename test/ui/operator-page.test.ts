/**
 * The operator page end to end, in a real headless Chromium against the real HTTP app (in process, on
 * 127.0.0.1:0, with a real data directory and real API keys): key handling, account and usage, uploads by
 * file picker, folder picker and drag and drop, the document list and its filter, questions with and
 * without an answer, deletions, a screenshot, and a page that runs under its strict CSP without a single
 * console error.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { keyId } from '../../src/auth/keys.js';
import { CONTENT_SECURITY_POLICY } from '../../src/http/routes/ui.js';
import { tempDir } from '../helpers/harness.js';
import { startApp, type TestApp } from '../http/helpers.js';
import { launchBrowser, type Browser, type WatchedPage } from './browser.js';
import { decodePng, distinctColours } from './png.js';

const INSTALL_MD = '# Installing lumen\n\nInstall lumen with `npm install lumen`, then run `lumen init` once to write `lumen.config.json`.\n';
const ROTATION_MD =
  '# Log rotation\n\nWhen logrotate moves the log file, send `SIGHUP` to the lumen process: lumen then reopens its log file at the configured path.\n';
const FAQ_MD = '# Widget cache\n\nTo reset the widget cache, run `lumen cache reset --widgets`; the cache is rebuilt on the next start.\n';

let t: TestApp;
let key: string;
let browser: Browser;
/** Files the page uploads from disk (removed afterwards). */
let scratch: string;
/** Where the screenshot is kept for people to look at (overwritten by each run). */
const SHOTS = path.join(os.tmpdir(), 'docent-ui-screenshots');

beforeAll(async () => {
  t = await startApp();
  key = await t.key('acme');
  // A document with a link, uploaded by a program beside the page: its source must be linked.
  const seeded = await fetch(`${t.url}/v1/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'proxy.md',
      library: 'web',
      url: 'https://docs.example.com/proxy',
      content: '# Proxy\n\nSet `LUMEN_PROXY_URL` to send lumen traffic through an HTTP proxy.\n',
    }),
  });
  expect(seeded.status).toBe(201);
  // Another tenant's documents must never appear on acme's page.
  const other = await t.key('globex');
  await fetch(`${t.url}/v1/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'secret.md', library: 'globex-internal', content: '# Secret\n\nGlobex only.\n' }),
  });
  scratch = await tempDir('docent-ui-files-');
  await mkdir(SHOTS, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Waits until the element has text matching `text` (Playwright's own wait), then returns its text. */
async function waitForText(page: Page, selector: string, text: string | RegExp): Promise<string> {
  const locator = page.locator(selector, { hasText: text });
  await locator.first().waitFor({ state: 'visible' });
  return (await locator.first().textContent()) ?? '';
}

const setTitles = (page: Page, library: string) => page.locator(`.set[data-library="${library}"] li .doc-title`).allTextContents();

async function connect(page: Page, value: string): Promise<void> {
  await page.getByRole('textbox', { name: 'API key' }).fill(value);
  // Keyboard: Enter in the key field connects.
  await page.getByRole('textbox', { name: 'API key' }).press('Enter');
}

describe('the operator page', () => {
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    watched = await browser.page();
    page = watched.page;
    page.on('dialog', (dialog) => void dialog.accept());
  });

  it('is served at / with its script and style as separate files, under a strict CSP', async () => {
    const assets: Record<string, Record<string, string>> = {};
    page.on('response', (response) => {
      assets[new URL(response.url()).pathname] = response.headers();
    });
    const response = await page.goto(`${t.url}/`);
    expect(response?.status()).toBe(200);
    await page.getByRole('textbox', { name: 'API key' }).waitFor();
    for (const asset of ['/', '/ui/app.js', '/ui/app.css']) {
      expect(assets[asset], asset).toMatchObject({
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
    }
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(assets['/']!['content-type']).toBe('text/html; charset=utf-8');
    expect(assets['/ui/app.js']!['content-type']).toBe('text/javascript; charset=utf-8');
    expect(assets['/ui/app.css']!['content-type']).toBe('text/css; charset=utf-8');
    expect(await page.title()).toContain('docent');
  });

  it('labels every input, uses real buttons, has a live status region and a visible keyboard focus', async () => {
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea')].filter((e) => !(e as HTMLInputElement).labels?.length).map((e) => e.id),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.locator('[onclick], a[href="#"], div[role="button"]').count()).toBe(0);
    expect(await page.locator('#status').getAttribute('aria-live')).toBe('polite');
    await page.getByRole('textbox', { name: 'API key' }).focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      const style = getComputedStyle(active);
      return { id: active.id, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(focused).toEqual({ id: 'connect', outline: 'solid', width: 3 });
  });

  it('refuses an invalid key with a message to check it, and keeps nothing', async () => {
    await connect(page, 'dk_0123456789abcdef_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    const message = await waitForText(page, '#error', 'check the key');
    expect(message).toContain('The API key was not accepted');
    expect(message).toContain('not valid');
    expect(await page.locator('#workspace').isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
  });

  it('connects with a valid key: tenant, plan and usage from /v1/me; the key in sessionStorage only', async () => {
    await connect(page, key);
    await waitForText(page, '#me-tenant', 'acme');
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.locator('#me-plan').textContent()).toBe('free');
    expect(await page.locator('#me-key').textContent()).toBe(keyId(key));
    expect(await page.locator('#me-minute').textContent()).toMatch(/^\d+ of 60$/);
    expect(await page.locator('#me-month').textContent()).toMatch(/^\d+ of 10,000 in \d{4}-\d{2} \(resets \d{4}-\d{2}-01, UTC\)$/);
    expect(await page.locator('#me-bytes').textContent()).toMatch(/ of 25 MiB$/);
    const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('docent.apiKey'), local: localStorage.length, cookie: document.cookie }));
    expect(stored).toEqual({ session: key, local: 0, cookie: '' });
    expect(await browser.context.cookies()).toEqual([]);
    // The field does not keep the key once connected; the seeded document is listed, another tenant's is not.
    expect(await page.getByRole('textbox', { name: 'API key' }).inputValue()).toBe('');
    await waitForText(page, '.set[data-library="web"]', 'proxy.md');
    expect(await page.locator('#document-list').textContent()).not.toContain('globex');
  });

  it('uploads two markdown files into a set with the file picker, with progress, and lists both', async () => {
    await page.getByLabel('Document set', { exact: true }).fill('lumen');
    await page.getByLabel('Files', { exact: true }).setInputFiles([
      { name: 'install.md', mimeType: 'text/markdown', buffer: Buffer.from(INSTALL_MD) },
      { name: 'rotation.md', mimeType: 'text/markdown', buffer: Buffer.from(ROTATION_MD) },
    ]);
    await waitForText(page, '#status', 'Uploaded 2 documents to the set lumen (2 added)');
    expect(await page.locator('#upload-progress').evaluate((bar) => (bar as HTMLProgressElement).value)).toBe(100);
    await page.locator('.set[data-library="lumen"] li').nth(1).waitFor();
    expect(await setTitles(page, 'lumen')).toEqual(['install.md', 'rotation.md']);
  });

  it('uploads by drag and drop (a file dropped on the drop zone)', async () => {
    await page.getByLabel('Document set', { exact: true }).fill('notes');
    await page.evaluate((content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], 'faq.md', { type: 'text/markdown' }));
      const zone = document.getElementById('drop-zone')!;
      for (const type of ['dragenter', 'dragover', 'drop'])
        zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }, FAQ_MD);
    await waitForText(page, '#status', 'Uploaded 1 document to the set notes');
    await page.locator('.set[data-library="notes"] li').first().waitFor();
    expect(await setTitles(page, 'notes')).toEqual(['faq.md']);
  });

  it('uploads a whole folder: titles relative to it, other kinds and hidden files skipped', async () => {
    const folder = path.join(scratch, 'handbook');
    await mkdir(path.join(folder, 'advanced'), { recursive: true });
    await mkdir(path.join(folder, '.git'), { recursive: true });
    await writeFile(path.join(folder, 'intro.md'), '# Handbook\n\nThe lumen handbook.\n');
    await writeFile(path.join(folder, 'advanced', 'tuning.md'), '# Tuning\n\nRaise `lumen.workers` for more throughput.\n');
    await writeFile(path.join(folder, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await writeFile(path.join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await page.getByLabel('Document set', { exact: true }).fill('handbook');
    await page.getByLabel('Folder', { exact: true }).setInputFiles(folder);
    const status = await waitForText(page, '#status', 'Uploaded 2 documents to the set handbook');
    expect(status).toContain('Skipped 1 file of other kinds: logo.png');
    await page.locator('.set[data-library="handbook"] li').nth(1).waitFor();
    expect(await setTitles(page, 'handbook')).toEqual(['advanced/tuning.md', 'intro.md']);
  });

  it('filters the list by title or set', async () => {
    const filter = page.getByLabel('Filter', { exact: true });
    await filter.fill('rotat');
    await waitForText(page, '#documents-summary', '1 of 6 documents in 1 of 4 sets');
    expect(await page.locator('#document-list .doc-title').allTextContents()).toEqual(['rotation.md']);
    await filter.fill('HANDBOOK');
    await waitForText(page, '#documents-summary', '2 of 6 documents');
    await filter.fill('nothing-like-this');
    await waitForText(page, '#documents-summary', 'No document matches');
    expect(await page.locator('#document-list li').count()).toBe(0);
    await filter.fill('');
    await waitForText(page, '#documents-summary', '6 of 6 documents in 4 of 4 sets');
  });

  it('takes a screenshot of the loaded page: a real PNG with content, which changes with the page', async () => {
    const loaded = await page.screenshot({ fullPage: true });
    await writeFile(path.join(SHOTS, 'operator-page.png'), loaded);
    const image = decodePng(loaded);
    expect(image.width).toBe(1200);
    expect(image.height).toBeGreaterThan(600);
    expect(loaded.length).toBeGreaterThan(20_000);
    // Text, buttons, panels: far more than one colour.
    expect(distinctColours(image)).toBeGreaterThan(50);
    await page.getByLabel('Filter', { exact: true }).fill('rotat');
    await waitForText(page, '#documents-summary', '1 of 6');
    const filtered = await page.screenshot({ fullPage: true });
    expect(filtered.equals(loaded)).toBe(false);
    await page.getByLabel('Filter', { exact: true }).fill('');
    await waitForText(page, '#documents-summary', '6 of 6');
  });

  it('answers a question the documents answer: the answer, its linked sources and a confidence percentage', async () => {
    await page.getByLabel('Question', { exact: true }).fill('How do I make lumen reopen its log file after logrotate moves it?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await waitForText(page, '#answer-heading', 'Answer');
    expect(await page.locator('#answer-text').textContent()).toContain('SIGHUP');
    expect(await page.locator('#answer-confidence').textContent()).toMatch(/^Confidence: \d{1,3}%$/);
    const first = page.locator('#answer-sources li').first();
    expect(await first.textContent()).toContain('rotation.md');
    expect(await first.textContent()).toContain('docent://lumen/rotation.md');
    await waitForText(page, '#status', /Answered, with \d+% confidence/);

    // A source with a URL is a link to it (Enter in the question field asks, too).
    await page.getByLabel('Question', { exact: true }).fill('How do I send lumen traffic through an HTTP proxy with LUMEN_PROXY_URL?');
    await page.getByLabel('Question', { exact: true }).press('Enter');
    await waitForText(page, '#answer-sources', 'proxy.md');
    const link = page.locator('#answer-sources li a', { hasText: 'proxy.md' });
    expect(await link.getAttribute('href')).toBe('https://docs.example.com/proxy');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows the no-match reason for a question the documents do not answer', async () => {
    await page.getByLabel('Question', { exact: true }).fill('How do I configure `rotateFiles` for daily rotation?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await waitForText(page, '#answer-heading', 'No match');
    const text = await page.locator('#answer-text').textContent();
    expect(text).toMatch(/The documentation has no `rotateFiles`/);
    expect(await page.locator('#answer-confidence').textContent()).toMatch(/^Confidence: \d{1,3}%$/);
    await waitForText(page, '#status', 'No match');
  });

  it('deletes a document: it leaves the list (and the server)', async () => {
    await page.getByRole('button', { name: 'Delete install.md from the set lumen' }).click();
    await waitForText(page, '#status', 'Deleted install.md from the set lumen.');
    await page.locator('.set[data-library="lumen"] li', { hasText: 'install.md' }).waitFor({ state: 'detached' });
    expect(await setTitles(page, 'lumen')).toEqual(['rotation.md']);
    const listed = await (await fetch(`${t.url}/v1/documents?library=lumen`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(listed.documents.map((d: { title: string }) => d.title)).toEqual(['rotation.md']);
  });

  it('deletes a whole set: it leaves the list (and the server)', async () => {
    await page.getByRole('button', { name: /^Delete the set handbook/ }).click();
    await waitForText(page, '#status', 'Deleted the set handbook (2 documents).');
    await page.locator('.set[data-library="handbook"]').waitFor({ state: 'detached' });
    const listed = await (await fetch(`${t.url}/v1/documents`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(listed.libraries.map((l: { library: string }) => l.library)).toEqual(['lumen', 'notes', 'web']);
    expect(await page.locator('#document-list .set').evaluateAll((sets) => sets.map((s) => s.getAttribute('data-library')))).toEqual(['lumen', 'notes', 'web']);
  });

  it('keeps the key for this tab only: a reload reconnects, a new tab asks again', async () => {
    await page.reload();
    await waitForText(page, '#me-tenant', 'acme');
    const other = await browser.page();
    try {
      await other.page.goto(`${t.url}/`);
      await other.page.getByRole('textbox', { name: 'API key' }).waitFor();
      expect(await other.page.locator('#workspace').isHidden()).toBe(true);
      expect(await other.page.evaluate(() => sessionStorage.getItem('docent.apiKey'))).toBeNull();
      expect(other.errors).toEqual([]);
    } finally {
      await other.page.close();
    }
  });

  it("produced no console errors and no CSP violations, except the invalid key's own 401", async () => {
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    expect(watched.errors.filter((e) => /status of 401/.test(e)).length).toBeLessThanOrEqual(1);
  });
});

describe('the operator page when the server fails', () => {
  it("shows the server's message for an HTTP error, and says so when the server cannot be reached", async () => {
    const { page, errors } = await browser.page();
    try {
      await page.goto(`${t.url}/`);
      await connect(page, key);
      await waitForText(page, '#me-tenant', 'acme');
      // The set list is rendered once the document list has loaded; only then is the choice below kept.
      await page.locator('#document-list:not([aria-busy])').waitFor({ state: 'attached' });
      // A set the tenant lacks: 404 with the server's message.
      await page.evaluate(() => {
        const select = document.getElementById('ask-library') as HTMLSelectElement;
        select.append(new Option('gone', 'gone'));
        select.value = 'gone';
      });
      await page.getByLabel('Question', { exact: true }).fill('Anything?');
      await page.getByRole('button', { name: 'Ask' }).click();
      const message = await waitForText(page, '#error', 'HTTP 404');
      expect(message).toMatch(/Asking failed \(HTTP 404, not_found\): .*gone/);
      // The server goes away: the page says it cannot be reached.
      await page.route('**/v1/me', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Refresh' }).click();
      await waitForText(page, '#error', 'could not be reached');
      expect(errors.filter((e) => !/status of 404|ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
