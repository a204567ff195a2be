/**
 * A real headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core (which
 * never downloads a browser), with a fresh profile per launch and no background traffic. A missing Chromium
 * fails the tests with what to install; it never skips them.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tempDir } from '../helpers/harness.js';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** A new tab that records console errors, uncaught exceptions and CSP violations. */
  page(): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  /** Console messages of type error, and uncaught exceptions (`pageerror: …`). */
  errors: string[];
  /** Content-Security-Policy violations reported in the page (`directive blocked-uri`). */
  cspViolations(): Promise<string[]>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed (${CHROMIUM} is missing), and the operator page tests need a real browser. ` +
        '.ci/run installs it; here, run `apt-get install -y --no-install-recommends chromium` (as root) and run the tests again.',
    );
  }
  const profile = await tempDir('docent-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 900 },
    acceptDownloads: false,
    serviceWorkers: 'block',
  });
  // A bound only for a hung browser, not a deadline for the tests: waits finish as soon as their condition holds.
  context.setDefaultTimeout(60_000);
  return {
    context,
    async page() {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
      });
      return {
        page,
        errors,
        cspViolations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations ?? []),
      };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
