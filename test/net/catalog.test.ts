/** The six network tools as a client sees them: listed in registry order, with the right effects and secrets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest } from '../../src/catalog/manifest.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const NETWORK_TOOLS = ['analytics_fetcher', 'preprint_search', 'encyclopedia', 'web_search', 'rss_feed', 'chat_webhook'];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe('network tools in the catalog', () => {
  it('are listed over MCP in registry order, with annotations from their side effects', async () => {
    const { tools } = await h.client.listTools();
    const names = tools.map((t) => t.name).filter((n) => NETWORK_TOOLS.includes(n));
    expect(names).toEqual(NETWORK_TOOLS);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['analytics_fetcher', 'preprint_search', 'encyclopedia', 'rss_feed']) {
      expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true, destructiveHint: false });
      expect(byName[name]!.inputSchema.properties).not.toHaveProperty('confirmation_token');
    }
    expect(byName.web_search!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: false, openWorldHint: true });
    expect(byName.chat_webhook!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(byName.web_search!.inputSchema.properties).toHaveProperty('confirmation_token');
    expect(byName.chat_webhook!.inputSchema.properties).toHaveProperty('confirmation_token');
    for (const name of NETWORK_TOOLS) expect(byName[name]!.outputSchema).toBeDefined();
  });

  it("carry the specification's side effects, cost classes and secret flags in the manifest", () => {
    const manifest = buildManifest('http://127.0.0.1:8787');
    const rows = manifest.tools
      .filter((t) => NETWORK_TOOLS.includes(t.name))
      .map((t) => [t.name, t.side_effects, t.cost_class, t.requires_secret, t.input_schema.required]);
    expect(rows).toEqual([
      ['analytics_fetcher', 'external', 'metered', true, ['platform', 'target']],
      ['preprint_search', 'external', 'free', false, ['query']],
      ['encyclopedia', 'external', 'free', false, ['title']],
      ['web_search', 'external_paid', 'metered', true, ['query']],
      ['rss_feed', 'external', 'free', false, ['url']],
      ['chat_webhook', 'mutating', 'free', true, ['webhook_url', 'text']],
    ]);
  });
});
