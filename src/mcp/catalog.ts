/**
 * The tools/list entries (derived from the tool definitions by describe.ts), and the lazily loaded registry.
 *
 * The build writes the entries to dist/catalog.json (next to the manifest), so a starting server answers
 * tools/list without importing a single tool module: tool modules, and everything they import, load on the
 * first tools/call. A catalog older than the compiled registry (tsc ran after the build) is ignored, and the
 * entries are derived from the definitions instead: always right, only slower.
 */
import { readFileSync, statSync } from 'node:fs';
import type { ListedTool } from './describe.js';

/** File name of the prebuilt catalog, relative to the build output root (dist/). */
export const CATALOG_FILE = 'catalog.json';

let registry: Promise<typeof import('../../tools/index.js')> | undefined;

/** The tool registry, imported on first use. */
export function toolRegistry(): Promise<typeof import('../../tools/index.js')> {
  registry ??= import('../../tools/index.js');
  return registry;
}

const CATALOG_URL = new URL(`../../${CATALOG_FILE}`, import.meta.url);
const REGISTRY_URL = new URL('../../tools/index.js', import.meta.url);

/** The build's catalog when it is at least as new as the compiled registry; undefined otherwise. */
export function prebuiltCatalog(): ListedTool[] | undefined {
  try {
    if (statSync(CATALOG_URL).mtimeMs < statSync(REGISTRY_URL).mtimeMs) return undefined;
    const parsed = JSON.parse(readFileSync(CATALOG_URL, 'utf8')) as { tools?: ListedTool[] };
    return Array.isArray(parsed.tools) ? parsed.tools : undefined;
  } catch {
    return undefined;
  }
}

let catalog: Promise<ListedTool[]> | undefined;

/** The tools/list entries: the prebuilt catalog when current, else derived from the registry. */
export function toolCatalog(): Promise<ListedTool[]> {
  catalog ??= Promise.resolve(prebuiltCatalog()).then(async (prebuilt) => {
    if (prebuilt) return prebuilt;
    const [{ describeTools }, { TOOLS }] = await Promise.all([import('./describe.js'), toolRegistry()]);
    return describeTools(TOOLS);
  });
  catalog.catch(() => (catalog = undefined));
  return catalog;
}
