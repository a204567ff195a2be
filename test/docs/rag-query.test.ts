import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryResultSchema, type QueryResult } from '../../src/docs/types.js';
import { LOW_CONFIDENCE_RETRY, RETRY_WITH_KEYWORDS } from '../../tools/rag_query.js';
import { startHarness, textOf, type Harness } from '../helpers/harness.js';
import { fixtureCopy, indexFor } from './helpers.js';

let h: Harness;
let folder: string;
beforeAll(async () => {
  h = await startHarness({ overrides: { tenant: 'acme' } });
  folder = await fixtureCopy();
  await (await indexFor(h.services, 'acme')).ingestPath([folder], { urlBase: 'https://docs.example.com/' });
});
afterAll(async () => {
  await h.close();
  await rm(path.dirname(folder), { recursive: true, force: true });
});

async function ask(question: string, extra: Record<string, unknown> = {}): Promise<{ result: QueryResult; text: string }> {
  const response = await h.call('rag_query', { question, ...extra });
  expect(response.isError).toBeFalsy();
  return { result: QueryResultSchema.parse(response.structuredContent), text: textOf(response) };
}

describe('rag_query over MCP', () => {
  it('is listed with its schemas and annotations', async () => {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === 'rag_query')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['keywords', 'library', 'question', 'top_k']);
    expect(tool.inputSchema.required).toEqual(['question']);
    // Still a flat object: the optional scope is one more plain property.
    expect(tool.inputSchema.type).toBe('object');
    expect((tool.inputSchema.properties as Record<string, { type?: string }>).library!.type).toBe('string');
    expect(Object.keys((tool.outputSchema as { properties: object }).properties).sort()).toEqual(['answer', 'confidence', 'grounded', 'reason', 'sources']);
    const source = (tool.outputSchema as { properties: { sources: { items: { properties: object; required: string[] } } } }).properties.sources.items;
    expect(Object.keys(source.properties).sort()).toEqual(['library', 'score', 'section', 'title', 'uri', 'url']);
    expect(source.required.sort()).toEqual(['library', 'title', 'uri']);
  });

  it('answers with quoted passages, the primary source with its section and link, and a confidence', async () => {
    const { result, text } = await ask('How can I put everything I log under a single property so my keys do not collide with the time and level fields?');
    expect(result.grounded).toBe(true);
    expect(result.sources[0]).toMatchObject({
      title: 'api.md',
      section: 'API › lumen([options]) › Options › nestedKey (String)',
      url: 'https://docs.example.com/api.md',
      score: 1,
    });
    expect(result.answer).toContain('> When set, every object you log is placed under this single property');
    expect(result.answer).toMatch(/^From api\.md › API › .* › nestedKey \(String\) \[1\]:/);
    expect(result.confidence).toBeGreaterThan(0.5);
    expect(result.confidence).toBeLessThanOrEqual(0.99);
    expect(text).toContain('Sources:\n[1] api.md › API');
    expect(text).toMatch(/Confidence: \d+%$/);
    expect(text).not.toContain(LOW_CONFIDENCE_RETRY);
  });

  it('suggests asking again with keywords under an answer below even odds, unless keywords were given', async () => {
    const { result, text } = await ask('Why is my output garbled on Windows?');
    expect(result.grounded).toBe(true);
    expect(result.confidence).toBeLessThan(0.5);
    expect(text.endsWith(`%\n${LOW_CONFIDENCE_RETRY}`)).toBe(true);
    const again = await ask('Why is my output garbled on Windows?', { keywords: ['encoding', 'Windows console', 'UTF-8'] });
    expect(again.text).not.toContain(LOW_CONFIDENCE_RETRY);
  });

  it.each([
    ['How do I install without dev dependencies using --omit=dev?', 'install.md', '--omit=dev'],
    ['How do I set $env:LUMEN_LEVEL in PowerShell?', 'guides/windows.md', "$env:LUMEN_LEVEL = 'debug'"],
    ['When should I use lumen.destination instead of a worker thread?', 'api.md', 'lumen.destination(path)'],
    ['What does the redactPaths option replace values with?', 'api.md', '[hidden]'],
    ['How do I make lumen reopen its file after logrotate moves it?', 'guides/rotation.rst', 'SIGHUP'],
    ['Which Node.js versions does lumen 3 support?', 'guides/upgrade.html', '18, 20 and 22'],
    // British spelling against American documentation.
    ['How do I initialise lumen?', 'api.md', 'initialize logging'],
  ])('finds %s in %s', async (question, title, quote) => {
    const { result } = await ask(question);
    expect(result.grounded).toBe(true);
    expect(result.sources[0]!.title).toBe(title);
    expect(result.answer).toContain(quote);
  });

  it('refuses a question about an identifier the documentation does not have, and names it', async () => {
    const { result, text } = await ask('How do I call lumen.rotateFiles() every night?');
    expect(result).toEqual({
      grounded: false,
      sources: expect.any(Array),
      confidence: expect.any(Number),
      reason: expect.stringContaining('`rotateFiles` (asked as `lumen.rotateFiles()`)'),
    });
    expect(result.confidence).toBeLessThan(0.05);
    expect(text).toMatch(/^No match in the documentation/);
    expect(text).toContain('do not guess');
    // A name the documentation lacks is not found by other words: no second try is suggested.
    expect(text).toContain('Tell the user the documentation does not cover this');
    expect(text).not.toContain(RETRY_WITH_KEYWORDS);
  });

  it('refuses a question about a scoped package the documentation never mentions, and names it', async () => {
    const { result } = await ask('How do I rotate lumen logs with @lumen/rotator?');
    expect(result.grounded).toBe(false);
    expect(result.reason).toBe('The documentation has no `@lumen/rotator`: it is not mentioned anywhere in the ingested documents.');
  });

  it('refuses a question the documentation does not cover', async () => {
    const { result, text } = await ask('How do I create a composite index in PostgreSQL?');
    expect(result.grounded).toBe(false);
    expect(result.answer).toBeUndefined();
    expect(result.reason).toMatch(/Nothing in the documentation answers this question/);
    // Refused by the evidence from the question's own words: asking once more with keywords is suggested …
    expect(text).toContain(RETRY_WITH_KEYWORDS);
    expect(text).not.toContain('Tell the user the documentation does not cover this');
    // … and not again once keywords were given.
    const again = await ask('How do I create a composite index in PostgreSQL?', { keywords: ['CREATE INDEX', 'composite index', 'PostgreSQL'] });
    expect(again.result.grounded).toBe(false);
    expect(again.text).not.toContain(RETRY_WITH_KEYWORDS);
    expect(again.text).toContain('Tell the user the documentation does not cover this; do not guess');
  });

  it('quotes instructions found in a document as quoted data, never as its own words', async () => {
    const { result } = await ask('What is the support policy for security issues and support requests?');
    expect(result.sources[0]!.title).toBe('untrusted.md');
    for (const line of result.answer!.split('\n')) expect(line === '' || line.startsWith('> ') || line.startsWith('From ')).toBe(true);
  });

  it('limits sources to top_k and validates its input', async () => {
    const { result } = await ask('Which options and methods does the lumen logger have?', { top_k: 1 });
    expect(result.sources.length).toBe(1);
    for (const bad of [{ question: '' }, { question: 'x', top_k: 0 }, { question: 'x', top_k: 21 }, {}]) {
      const response = await h.call('rag_query', bad);
      expect(response.isError).toBe(true);
      expect(textOf(response)).toMatch(/Invalid arguments for rag_query/);
    }
  });
});

describe('tenants', () => {
  it("never sees another tenant's documents", async () => {
    const other = await startHarness({ overrides: { tenant: 'globex' } });
    try {
      const globex = await indexFor(other.services, 'globex');
      await globex.ingestDocument({ title: 'secret.md', content: '# Vault\n\nThe vault combination is kept in the quartz ledger.' });
      const own = QueryResultSchema.parse((await other.call('rag_query', { question: 'Where is the vault combination kept?' })).structuredContent);
      expect(own.sources[0]!.title).toBe('secret.md');

      // Same data directory, another tenant with documents of its own: nothing crosses over.
      const acme = await indexFor(other.services, 'acme');
      await acme.ingestDocument({ title: 'public.md', content: '# Lobby\n\nThe lobby opens at nine and the vault tour starts at ten.' });
      expect((await acme.listDocuments()).map((d) => d.title)).toEqual(['public.md']);
      const leak = await acme.query('Where is the vault combination kept in the quartz ledger?');
      expect(leak.sources.map((s) => s.title)).not.toContain('secret.md');
      expect(JSON.stringify(leak)).not.toContain('quartz ledger');
      expect((await globex.query('When does the lobby open?')).sources.map((s) => s.title)).not.toContain('public.md');
      const fromAcme = QueryResultSchema.parse(
        (await h.call('rag_query', { question: 'Where is the vault combination kept in the quartz ledger?' })).structuredContent,
      );
      expect(fromAcme.grounded).toBe(false);
      expect(JSON.stringify(fromAcme)).not.toContain('secret.md');
    } finally {
      await other.close();
    }
  });
});
