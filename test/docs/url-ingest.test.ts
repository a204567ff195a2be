/**
 * Ingest of documentation by URL, end to end: `DocIndex.ingestPath([url], { fetchUrl })` with `fetchDocument`
 * through the real outbound guard, against an HTTPS fixture on 127.0.0.1 served under public-looking names
 * (the test resolver maps them to the fixture; the tripwire stops any connection past loopback), real
 * LanceDB in a temp dir, and answers read back through `rag_query` over a real MCP client.
 *
 * Only the CLI (`docent ingest <url>`) fetches URLs among the surfaces: the MCP tools and POST /v1/documents
 * take content, not URLs. The CLI's outbound client has no test seam (no setting reaches the resolver), so
 * its success path is the `DocIndex` one below and the CLI is checked here on a refusal that sends nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { command as ingestCommand } from '../../src/cli/commands/ingest.js';
import { loadConfig } from '../../src/config.js';
import { fetchDocument } from '../../src/docs/fetch.js';
import type { DocIndex } from '../../src/docs/index.js';
import { QueryResultSchema, type QueryResult } from '../../src/docs/types.js';
import { silentLogger } from '../../src/logging.js';
import { Services } from '../../src/services.js';
import type { FixtureServer, RecordedRequest } from '../helpers/fixture-server.js';
import { startHttpsFixture, startNetHarness, type NetHarness } from '../net/helpers/network.js';
import { indexFor } from './helpers.js';

const HOST = 'feed.example.test';
const OTHER_HOST = 'redirect.example.test';
const PRIVATE_HOST = 'private.example.test';
const ACCEPTED = 'text/html or application/xhtml+xml or text/markdown or text/x-markdown or text/plain or text/x-rst or text/asciidoc';
const RULE = 'docent ingest blocks private, loopback, link-local, reserved and IPv6 destinations';

const INTRO_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Introduction · Quillstone</title>
  <style>body { font-family: serif; }</style>
  <script>window.analyticsId = "tracker-8841";</script>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/guide/">Guide</a></nav>
  <main>
    <h1>Introduction</h1>
    <p>Quillstone batches writes before sending them to the <em>ledger</em>.</p>
    <h2>Flush interval</h2>
    <p>Pending batches are flushed to the ledger every <strong>250 milliseconds</strong> by default; set the <code>flushInterval</code> option to change it.</p>
    <pre><code>const q = quillstone({ flushInterval: 500 });</code></pre>
  </main>
</body>
</html>
`;

const LIMITS_MD = `# Limits

## Request quota

Each API token may send at most 120 requests per minute. Bursts above the quota receive HTTP 429 with a \`Retry-After\` header.
`;

const UPGRADE_MD = `# Upgrading

## From 2.x

Rename the \`ledgerPath\` option to \`ledgerDir\` before starting version 3 for the first time.
`;

interface Page {
  type?: string;
  body?: string;
  status?: number;
  location?: string;
  headers?: Record<string, string>;
}

let site: FixtureServer;
let pages: Map<string, Page>;
let h: NetHarness;
let index: DocIndex;
let fetchUrl: (url: string) => ReturnType<typeof fetchDocument>;

function serve(req: RecordedRequest, res: ServerResponse): void {
  const asked = new URL(req.url, 'https://fixture.invalid');
  const page = pages.get(asked.pathname + asked.search) ?? pages.get(asked.pathname);
  if (!page) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(page.status ?? 200, {
    ...(page.type ? { 'content-type': page.type } : {}),
    ...(page.location ? { location: page.location } : {}),
    ...page.headers,
  });
  res.end(page.body ?? '');
}

const url = (pathname: string, host = HOST) => `https://${host}:${site.port}${pathname}`;
const title = (pathname: string, host = HOST) => `${host}:${site.port}${pathname}`;

/** The ToolError a promise rejects with (undefined when it resolves, which the assertions then reject). */
async function refusal(promise: Promise<unknown>): Promise<(Error & { code?: string; details?: unknown }) | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string; details?: unknown },
  );
}

async function ask(question: string): Promise<QueryResult> {
  const response = await h.call('rag_query', { question });
  expect(response.isError).toBeFalsy();
  return QueryResultSchema.parse(response.structuredContent);
}

beforeAll(async () => {
  site = await startHttpsFixture(serve);
});
afterAll(async () => site.close());

beforeEach(async () => {
  pages = new Map();
  site.requests.length = 0;
  h = await startNetHarness({
    table: { [HOST]: '127.0.0.1', [OTHER_HOST]: '127.0.0.1', [PRIVATE_HOST]: '10.1.2.3' },
    allowLoopbackForTests: true,
  });
  index = await indexFor(h.services, h.config.tenant);
  const outbound = await h.services.outbound();
  fetchUrl = (u) => fetchDocument(outbound, u);
});
afterEach(async () => {
  const addresses = new Set(h.attempts.map((a) => a.address));
  await h.close();
  // Whatever a test did, nothing was ever connected to but the loopback fixture.
  expect([...addresses].filter((a) => a !== '127.0.0.1')).toEqual([]);
});

describe('ingest by URL: pages are fetched, converted and answered from', () => {
  it('ingests an HTML page, a text/markdown page and a .md page served as text/plain, titled host/path', async () => {
    pages.set('/guide/intro.html', { type: 'text/html; charset=utf-8', body: INTRO_HTML });
    pages.set('/reference/limits', { type: 'text/markdown; charset=utf-8', body: LIMITS_MD });
    pages.set('/notes/upgrade.md', { type: 'text/plain', body: UPGRADE_MD });
    const targets = ['/guide/intro.html', '/reference/limits', '/notes/upgrade.md'].map((p) => url(p));

    const summary = await index.ingestPath(targets, { fetchUrl });
    expect(summary).toMatchObject({ added: 3, updated: 0, unchanged: 0, removed: 0, skipped: [] });
    expect(summary.chunks).toBeGreaterThanOrEqual(3);

    const docs = await index.listDocuments();
    expect(docs.map(({ title, url, content_type, origin }) => ({ title, url, content_type, origin }))).toEqual([
      { title: title('/guide/intro.html'), url: url('/guide/intro.html'), content_type: 'html', origin: url('/guide/intro.html') },
      { title: title('/notes/upgrade.md'), url: url('/notes/upgrade.md'), content_type: 'markdown', origin: url('/notes/upgrade.md') },
      { title: title('/reference/limits'), url: url('/reference/limits'), content_type: 'markdown', origin: url('/reference/limits') },
    ]);

    // Each page was asked for once, under its public name, with the types docent can ingest.
    expect(site.requests.map((r) => r.url)).toEqual(['/guide/intro.html', '/reference/limits', '/notes/upgrade.md']);
    for (const r of site.requests) {
      expect(r.headers.host).toBe(`${HOST}:${site.port}`);
      expect(r.headers.accept).toBe(ACCEPTED.split(' or ').join(', '));
      expect(r.headers['user-agent']).toMatch(/^docent\//);
    }

    // HTML becomes text: the answer quotes the words, with no markup, script or style.
    const flush = await ask('How often are pending batches flushed to the ledger by default?');
    expect(flush.grounded).toBe(true);
    expect(flush.sources[0]).toMatchObject({
      title: title('/guide/intro.html'),
      url: url('/guide/intro.html'),
      section: 'Introduction › Flush interval',
      score: 1,
    });
    expect(flush.answer).toContain('every 250 milliseconds by default');
    expect(flush.answer).not.toMatch(/<\/?[a-z][^>]*>/i);
    expect(flush.answer).not.toContain('tracker-8841');
    expect(flush.answer).not.toContain('font-family');

    const quota = await ask('How many requests per minute may each API token send?');
    expect(quota.grounded).toBe(true);
    expect(quota.sources[0]).toMatchObject({ title: title('/reference/limits'), url: url('/reference/limits'), section: 'Limits › Request quota' });
    expect(quota.answer).toContain('at most 120 requests per minute');

    // Served as text/plain, but its .md path makes it markdown: its headings become the section.
    const upgrade = await ask('What should the ledgerPath option be renamed to when upgrading from 2.x?');
    expect(upgrade.grounded).toBe(true);
    expect(upgrade.sources[0]).toMatchObject({ title: title('/notes/upgrade.md'), url: url('/notes/upgrade.md'), section: 'Upgrading › From 2.x' });
    expect(upgrade.answer).toContain('Rename the `ledgerPath` option to `ledgerDir`');
  });

  it('follows a redirect to another public https host and titles the page by where it landed', async () => {
    pages.set('/docs/latest', { status: 301, location: url('/v3/limits.md', OTHER_HOST) });
    pages.set('/v3/limits.md', { type: 'text/markdown', body: LIMITS_MD });

    expect(await index.ingestPath([url('/docs/latest')], { fetchUrl })).toMatchObject({ added: 1, updated: 0, unchanged: 0 });
    const docs = await index.listDocuments();
    expect(docs.map(({ title, url, origin }) => ({ title, url, origin }))).toEqual([
      { title: title('/v3/limits.md', OTHER_HOST), url: url('/v3/limits.md', OTHER_HOST), origin: url('/docs/latest') },
    ]);
    expect(site.requests.map((r) => [r.headers.host, r.url])).toEqual([
      [`${HOST}:${site.port}`, '/docs/latest'],
      [`${OTHER_HOST}:${site.port}`, '/v3/limits.md'],
    ]);
    const quota = await ask('How many requests per minute may each API token send?');
    expect(quota.sources[0]).toMatchObject({ title: title('/v3/limits.md', OTHER_HOST), url: url('/v3/limits.md', OTHER_HOST) });
  });
});

describe('pages told apart by their query string, text decoded in its declared charset', () => {
  it('keeps ?page=1 and ?page=2 as two documents, and drops a fragment from the title', async () => {
    pages.set('/changelog?page=1', { type: 'text/markdown', body: '# Changelog\n\n## 3.0.0\n\nThe ledger is now written in batches.\n' });
    pages.set('/changelog?page=2', { type: 'text/markdown', body: '# Changelog\n\n## 2.0.0\n\nTokens are now scoped per project.\n' });
    const summary = await index.ingestPath([url('/changelog?page=1#top'), url('/changelog?page=2')], { fetchUrl });
    expect(summary).toMatchObject({ added: 2, updated: 0, unchanged: 0 });
    expect((await index.listDocuments()).map((d) => d.title)).toEqual([title('/changelog?page=1'), title('/changelog?page=2')]);
    const scoped = await ask('Since which version are tokens scoped per project?');
    expect(scoped.sources[0]).toMatchObject({ title: title('/changelog?page=2'), section: 'Changelog › 2.0.0' });
  });

  it('reads AsciiDoc served as text/asciidoc, or as text/plain from an .adoc path', async () => {
    const page = (name: string) => `= ${name}\n\n== Limits\n\nThe ${name.toLowerCase()} queue holds at most 512 jobs.\n`;
    pages.set('/raw/ledger.adoc', { type: 'text/plain; charset=utf-8', body: page('Ledger') });
    pages.set('/docs/archive', { type: 'text/asciidoc', body: page('Archive') });
    expect(await index.ingestPath([url('/raw/ledger.adoc'), url('/docs/archive')], { fetchUrl })).toMatchObject({ added: 2 });
    expect((await index.listDocuments()).map((d) => d.content_type)).toEqual(['asciidoc', 'asciidoc']);
    const ledger = await ask('How many jobs does the ledger queue hold at most?');
    expect(ledger.sources[0]).toMatchObject({ title: title('/raw/ledger.adoc'), section: 'Ledger › Limits' });
    const archive = await ask('How many jobs does the archive queue hold at most?');
    expect(archive.sources[0]).toMatchObject({ title: title('/docs/archive'), section: 'Archive › Limits' });
  });

  it('decodes a page in the charset its Content-Type declares', async () => {
    const text = '# Café\n\n## Crème brûlée\n\nThe crème brûlée recipe needs a blowtorch (chalumeau).\n';
    pages.set('/recipes.md', { type: 'text/markdown; charset=ISO-8859-1', body: Buffer.from(text, 'latin1') as unknown as string });
    expect(await index.ingestPath([url('/recipes.md')], { fetchUrl })).toMatchObject({ added: 1 });
    const answer = await ask('What does the crème brûlée recipe need?');
    expect(answer.sources[0]).toMatchObject({ title: title('/recipes.md'), section: 'Café › Crème brûlée' });
    expect(answer.answer).toContain('The crème brûlée recipe needs a blowtorch (chalumeau).');
  });

  it('skips a page that is not text (NUL bytes, or not UTF-8 without a declared charset), naming its URL and why', async () => {
    pages.set('/binary.md', {
      type: 'text/markdown',
      body: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x47, 0x4c, 0x49, 0x42, 0x43]) as unknown as string,
    });
    pages.set('/latin1.md', { type: 'text/markdown', body: Buffer.from('# Caf\u00e9\n', 'latin1') as unknown as string });
    pages.set('/fine.md', { type: 'text/markdown', body: LIMITS_MD });
    const summary = await index.ingestPath([url('/binary.md'), url('/latin1.md'), url('/fine.md')], { fetchUrl });
    expect(summary).toMatchObject({ added: 1, libraries: [`${HOST}:${site.port}`] });
    expect(summary.skipped).toEqual([
      {
        path: url('/binary.md'),
        reason: `Cannot ingest ${url('/binary.md')}: it is binary (it contains NUL bytes), not text. Only text documentation (markdown, text, rst, html, asciidoc) is indexed.`,
      },
      { path: url('/latin1.md'), reason: expect.stringContaining('it is not UTF-8 text') },
    ]);
    expect((await index.listDocuments()).map((d) => d.title)).toEqual([title('/fine.md')]);
  });
});

describe('re-ingest by URL', () => {
  it('reports an unchanged page unchanged, and replaces a changed one so answers follow the new text', async () => {
    pages.set('/reference/limits', { type: 'text/markdown', body: LIMITS_MD });
    const target = url('/reference/limits');
    expect(await index.ingestPath([target], { fetchUrl })).toMatchObject({ added: 1, updated: 0, unchanged: 0, removed: 0 });
    const [before] = await index.listDocuments();

    expect(await index.ingestPath([target], { fetchUrl })).toMatchObject({ added: 0, updated: 0, unchanged: 1, removed: 0, chunks: 0 });
    expect(await index.listDocuments()).toEqual([before]);

    pages.set('/reference/limits', { type: 'text/markdown', body: LIMITS_MD.replace('at most 120 requests', 'at most 300 requests') });
    const changed = await index.ingestPath([target], { fetchUrl });
    expect(changed).toMatchObject({ added: 0, updated: 1, unchanged: 0, removed: 0 });
    expect(changed.chunks).toBe(before!.chunks);
    const after = await index.listDocuments();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before!.id, title: before!.title, url: target });
    expect(after[0]!.hash).not.toBe(before!.hash);

    const quota = await ask('How many requests per minute may each API token send?');
    expect(quota.grounded).toBe(true);
    expect(quota.sources[0]).toMatchObject({ title: title('/reference/limits'), url: target });
    expect(quota.answer).toContain('at most 300 requests per minute');
    // Nothing quoted says the old limit (the `From host:port…` lines name a random port, which may hold "120").
    const quoted = quota.answer
      .split('\n')
      .filter((line) => line.startsWith('>'))
      .join('\n');
    expect(quoted).toContain('at most 300 requests per minute');
    expect(quoted).not.toContain('120');
    expect(site.requests).toHaveLength(3);
  });
});

describe('refusals leave the index as it was', () => {
  // The guard's redirect rules are covered in test/net/guard.test.ts; here: a refused redirect aborts the
  // whole ingest, including a page of the same batch that was fetched fine before it.
  it.each([
    [
      'a private address',
      () => url('/secret', PRIVATE_HOST),
      `refused: redirect from ${HOST}: ${PRIVATE_HOST} resolves to 10.1.2.3, a private address (${RULE})`,
    ],
    [
      'plain http',
      () => `http://${HOST}:${site.port}/reference/limits`,
      `refused: redirect from ${HOST}: the http scheme is not allowed, only https (${RULE})`,
    ],
  ])('a redirect to %s is refused, and nothing of the batch is ingested', async (_name, location, message) => {
    pages.set('/reference/limits', { type: 'text/markdown', body: LIMITS_MD });
    await index.ingestPath([url('/reference/limits')], { fetchUrl });
    const before = await index.listDocuments();

    pages.set('/reference/limits', { type: 'text/markdown', body: LIMITS_MD.replace('at most 120 requests', 'at most 300 requests') });
    pages.set('/moved', { status: 302, location: location() });
    pages.set('/notes/upgrade.md', { type: 'text/markdown', body: UPGRADE_MD });
    const error = await refusal(index.ingestPath([url('/reference/limits'), url('/moved'), url('/notes/upgrade.md')], { fetchUrl }));
    expect(error?.message).toBe(message);
    expect(error?.code).toBe('refused');

    expect(await index.listDocuments()).toEqual(before);
    expect((await ask('How many requests per minute may each API token send?')).answer).toContain('at most 120 requests per minute');
    // The refused hop was never requested, and the batch stopped there.
    expect(site.requests.map((r) => r.url)).toEqual(['/reference/limits', '/reference/limits', '/moved']);
  });

  it.each([['application/pdf'], ['image/png']])('a page of type %s is refused with a message naming the type', async (type) => {
    pages.set('/manual', { type, body: type === 'image/png' ? '\x89PNG\r\n\x1a\n' : '%PDF-1.7\n%%EOF\n' });
    const error = await refusal(index.ingestPath([url('/manual')], { fetchUrl }));
    expect(error?.message).toBe(`${HOST} answered with content type ${type}, expected ${ACCEPTED}`);
    expect(error?.code).toBe('outbound_unexpected_content_type');
    expect(await index.listDocuments()).toEqual([]);
  });
  it.each([
    [
      404,
      'text/html',
      '<html><head><title>Not found</title></head><body><h1>Page not found</h1><p>Try the search box.</p></body></html>',
      'not_found',
      `${HOST} answered HTTP 404: there is no page at that URL. Check the URL.`,
    ],
    [410, 'text/plain', 'Gone: this page was retired.', 'not_found', `${HOST} answered HTTP 410: there is no page at that URL. Check the URL.`],
    [
      503,
      'text/html',
      '<html><body><h1>Service Unavailable</h1><p>Maintenance until noon.</p></body></html>',
      'upstream_error',
      `${HOST} answered HTTP 503: the site is failing. Try again later.`,
    ],
  ])('an error page (HTTP %i) is refused, never ingested as documentation', async (status, type, body, code, reason) => {
    pages.set('/reference/limits', { type: 'text/markdown', body: LIMITS_MD });
    await index.ingestPath([url('/reference/limits')], { fetchUrl });
    const before = await index.listDocuments();
    pages.set('/reference/limits', { status, type, body });
    pages.set('/missing', { status, type, body });

    for (const target of [url('/reference/limits'), url('/missing')]) {
      const error = await refusal(index.ingestPath([target], { fetchUrl }));
      expect(error?.message).toBe(`Cannot ingest ${target}: ${reason}`);
      expect(error?.code).toBe(code);
      expect(error?.details).toEqual({ status });
    }
    expect(await index.listDocuments()).toEqual(before);
  });

  it('a rate-limited page (HTTP 429) is refused with when to retry', async () => {
    pages.set('/reference/limits', { status: 429, type: 'text/plain', body: 'Slow down.', headers: { 'retry-after': '30' } });
    const target = url('/reference/limits');
    const error = await refusal(index.ingestPath([target], { fetchUrl }));
    expect(error?.message).toMatch(/ Retry after 30 s \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\.$/);
    expect(error?.message.replace(/ \(at [^)]*\)\.$/, '')).toBe(`Cannot ingest ${target}: ${HOST} rate limit reached (HTTP 429). Retry after 30 s`);
    expect(error?.code).toBe('rate_limited');
    expect(error?.details).toEqual({ retry_after_seconds: 30 });
    expect(await index.listDocuments()).toEqual([]);
  });
});

describe('docent ingest <url> (CLI, in process)', () => {
  it('refuses a loopback URL before any connection, exits 1 and ingests nothing', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'docent-url-cli-'));
    const stderr: string[] = [];
    const stdout: string[] = [];
    const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
    const outSpy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    let code: number;
    try {
      code = await ingestCommand.run(['https://127.0.0.1/docs/intro.html', '--data-dir', dataDir, '--tenant', 'cli', '--log-level', 'silent']);
    } finally {
      errSpy.mockRestore();
      outSpy.mockRestore();
    }
    try {
      expect(code).toBe(1);
      expect(stdout).toEqual([]);
      expect(stderr.join('')).toBe(`docent ingest: refused: 127.0.0.1 is a loopback address (${RULE})\n`);
      const services = new Services(loadConfig({ env: {}, overrides: { dataDir, tenant: 'cli' } }), silentLogger());
      try {
        expect(await (await indexFor(services, 'cli')).listDocuments()).toEqual([]);
      } finally {
        await services.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
