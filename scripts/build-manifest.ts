/**
 * Build step: writes dist/.well-known/agent-manifest.json from the tool and preset definitions, so the
 * manifest can be served by any static host. The base URL comes from DOCENT_BASE_URL (or the default).
 * Also writes dist/catalog.json, the tools/list entries, so a starting server need not import the tools.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildManifest, MANIFEST_PATH } from '../src/catalog/manifest.js';
import { loadConfig } from '../src/config.js';
import { CATALOG_FILE } from '../src/mcp/catalog.js';
import { describeTools } from '../src/mcp/describe.js';
import { TOOLS } from '../tools/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const distDir = path.resolve(here, '..');
const target = path.join(distDir, MANIFEST_PATH);
const config = loadConfig();
await mkdir(path.dirname(target), { recursive: true });
const tmp = `${target}.${process.pid}.tmp`;
await writeFile(tmp, `${JSON.stringify(buildManifest(config.baseUrl), null, 2)}\n`);
await rename(tmp, target);
const catalog = path.join(distDir, CATALOG_FILE);
await writeFile(`${catalog}.${process.pid}.tmp`, `${JSON.stringify({ tools: describeTools(TOOLS) })}\n`);
await rename(`${catalog}.${process.pid}.tmp`, catalog);
process.stderr.write(`wrote ${path.relative(process.cwd(), target)}\n`);
