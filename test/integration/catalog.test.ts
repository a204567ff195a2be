/**
 * The built artefacts agree with the definitions: dist/.well-known/agent-manifest.json is buildManifest(...)
 * for its base URL, every tool's input_schema is the inputSchema tools/list serves, and dist/catalog.json
 * (what a starting server answers tools/list with) is derived from the same definitions.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, MANIFEST_PATH, type AgentManifest } from '../../src/catalog/manifest.js';
import { CATALOG_FILE } from '../../src/mcp/catalog.js';
import { describeTools } from '../../src/mcp/describe.js';
import { TOOLS } from '../../tools/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const dist = new URL('../../dist/', import.meta.url);
let manifest: AgentManifest;
let h: Harness;

beforeAll(async () => {
  manifest = JSON.parse(await readFile(new URL(`.${MANIFEST_PATH}`, dist), 'utf8')) as AgentManifest;
  h = await startHarness();
});
afterAll(async () => h.close());

describe('the generated manifest and catalog', () => {
  it('dist manifest deep-equals buildManifest for the same base URL', () => {
    const base = manifest.manifest_url.slice(0, -MANIFEST_PATH.length);
    expect(manifest.manifest_url.endsWith(MANIFEST_PATH)).toBe(true);
    expect(manifest).toEqual(buildManifest(base));
    expect(manifest.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
  });

  it("each tool's input_schema is the inputSchema tools/list returns", async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(manifest.tools.map((t) => t.name));
    for (const entry of manifest.tools) {
      expect(tools.find((t) => t.name === entry.name)!.inputSchema, entry.name).toEqual(entry.input_schema);
    }
  });

  it('dist catalog is the tools/list entries derived from the definitions', async () => {
    const catalog = JSON.parse(await readFile(new URL(CATALOG_FILE, dist), 'utf8')) as { tools: unknown[] };
    expect(catalog.tools).toEqual(JSON.parse(JSON.stringify(describeTools(TOOLS))));
    expect((await h.client.listTools()).tools).toEqual(catalog.tools);
  });
});
