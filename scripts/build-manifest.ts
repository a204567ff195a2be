/**
 * Build step: writes dist/.well-known/agent-manifest.json from the tool and preset definitions, so the
 * manifest can be served by any static host. The base URL comes from DOCENT_BASE_URL (or the default).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildManifest, MANIFEST_PATH } from '../src/catalog/manifest.js';
import { loadConfig } from '../src/config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const distDir = path.resolve(here, '..');
const target = path.join(distDir, MANIFEST_PATH);
const config = loadConfig();
await mkdir(path.dirname(target), { recursive: true });
const tmp = `${target}.${process.pid}.tmp`;
await writeFile(tmp, `${JSON.stringify(buildManifest(config.baseUrl), null, 2)}\n`);
await rename(tmp, target);
process.stderr.write(`wrote ${path.relative(process.cwd(), target)}\n`);
