/**
 * Documents as MCP resources through real MCP clients: in memory (listing, paging, reading, the template,
 * the URIs of query sources) and over streamable HTTP with two tenants' keys (each sees its own documents
 * only; another tenant's URI read with one's key is not found).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryResultSchema } from '../../src/docs/types.js';
import { RESOURCE_NOT_FOUND, RESOURCES_PAGE } from '../../src/mcp/resources.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { startApp, type TestApp } from '../http/helpers.js';
import { indexFor } from '../docs/helpers.js';

const GUIDE = '---\ntitle: Setup guide\n---\n# Setup\n\nRun `gadget init` to create the gadget configuration file.\n';

describe('resources in memory', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    const index = await indexFor(h.services, h.config.tenant);
    await index.ingestDocument({ title: 'guides/setup.md', content: GUIDE }, 'upload', 'gadget@2');
    await index.ingestDocument({ title: 'notes.txt', content: 'Plain notes about the gadget.\n' }, 'upload', 'gadget@2');
    await index.ingestDocument({ title: 'page.html', content: '<html><body><h1>Web page</h1><p>About <i>gadgets</i>.</p></body></html>' }, 'upload', 'web');
    await index.ingestDocuments(
      Array.from({ length: RESOURCES_PAGE + 5 }, (_, i) => ({
        title: `p${String(i).padStart(3, '0')}.md`,
        content: `# Page ${i}\n\nFiller page number ${i}.\n`,
      })),
      'upload',
      'bulk',
    );
  });
  afterAll(async () => h?.close());

  it('advertises resources and their template', async () => {
    expect(h.client.getServerCapabilities()?.resources).toEqual({ listChanged: false });
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['docent://{library}/{path}']);
  });

  it('lists every document, paged with cursors, ordered by set then path', async () => {
    const first = await h.client.listResources();
    expect(first.resources).toHaveLength(RESOURCES_PAGE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await h.client.listResources({ cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.resources, ...second.resources];
    expect(all).toHaveLength(RESOURCES_PAGE + 8);
    expect(all.filter((r) => !r.uri.startsWith('docent://bulk/')).map((r) => [r.uri, r.name, r.mimeType])).toEqual([
      ['docent://gadget%402/guides/setup.md', 'guides/setup.md', 'text/markdown'],
      ['docent://gadget%402/notes.txt', 'notes.txt', 'text/plain'],
      ['docent://web/page.html', 'page.html', 'text/markdown'],
    ]);
    expect(all[0]!.uri).toBe('docent://bulk/p000.md');
    await expect(h.client.listResources({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 });
  });

  it('reads a whole document: stored text, HTML as parsed', async () => {
    const setup = await h.client.readResource({ uri: 'docent://gadget%402/guides/setup.md' });
    expect(setup.contents).toEqual([{ uri: 'docent://gadget%402/guides/setup.md', mimeType: 'text/markdown', text: GUIDE }]);
    const page = await h.client.readResource({ uri: 'docent://web/page.html' });
    expect(page.contents[0]!.text).toContain('# Web page');
    expect(page.contents[0]!.text).not.toContain('<h1>');
  });

  it('answers with sources whose uri opens the whole document', async () => {
    const result = QueryResultSchema.parse((await h.call('rag_query', { question: 'How do I create the gadget configuration file?' })).structuredContent);
    expect(result.grounded).toBe(true);
    expect(result.sources[0]).toMatchObject({ title: 'guides/setup.md', library: 'gadget@2', uri: 'docent://gadget%402/guides/setup.md' });
    const read = await h.client.readResource({ uri: result.sources[0]!.uri });
    expect(read.contents[0]!.text).toBe(GUIDE);
    const scoped = QueryResultSchema.parse(
      (await h.call('rag_query', { question: 'How do I create the gadget configuration file?', library: 'web' })).structuredContent,
    );
    expect(scoped.sources.every((s) => s.library === 'web')).toBe(true);
    const unknown = await h.call('rag_query', { question: 'How do I create the gadget configuration file?', library: 'nope' });
    expect(unknown.isError).toBe(true);
  });

  it('an unknown document is -32002 and a malformed URI -32602', async () => {
    const missing = await h.client.readResource({ uri: 'docent://web/missing.md' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpError);
    expect(missing).toMatchObject({ code: RESOURCE_NOT_FOUND });
    for (const uri of ['file:///etc/passwd', 'docent://web', 'docent://web/../../x']) {
      const error = await h.client.readResource({ uri }).catch((e: unknown) => e);
      expect(error, uri).toBeInstanceOf(McpError);
      expect([RESOURCE_NOT_FOUND, -32602], uri).toContain((error as McpError).code);
    }
  });
});

describe('resources over HTTP, per tenant', () => {
  let app: TestApp;
  let acme: string;
  let globex: string;
  beforeAll(async () => {
    app = await startApp({ 'limits.free.requestsPerMinute': 0, 'limits.free.requestsPerMonth': 0 });
    [acme, globex] = await Promise.all([app.key('acme'), app.key('globex')]);
    const docs = await app.runtime.services.docs();
    await (
      await docs.forTenant('acme')
    ).ingestDocument({ title: 'secret-plan.md', content: '# Plan\n\nAcme launches the rocket skates in May.\n' }, 'upload', 'internal');
    await (
      await docs.forTenant('globex')
    ).ingestDocument({ title: 'handbook.md', content: '# Handbook\n\nGlobex staff badge in at the east gate.\n' }, 'upload', 'internal');
  });
  afterAll(async () => app?.close());

  it("each key lists and reads its own tenant's documents only", async () => {
    const { client: a } = await app.mcp(acme);
    const { client: g } = await app.mcp(globex);
    expect((await a.listResources()).resources.map((r) => r.uri)).toEqual(['docent://internal/secret-plan.md']);
    expect((await g.listResources()).resources.map((r) => r.uri)).toEqual(['docent://internal/handbook.md']);
    expect((await a.readResource({ uri: 'docent://internal/secret-plan.md' })).contents[0]!.text).toContain('rocket skates');
  });

  it("another tenant's URI read with one's key is not found, and reveals nothing", async () => {
    const { client: g } = await app.mcp(globex);
    const error = await g.readResource({ uri: 'docent://internal/secret-plan.md' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(RESOURCE_NOT_FOUND);
    expect((error as McpError).message).not.toContain('rocket');
  });
});
