import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocIndex } from '../../src/docs/index.js';
import type { Services } from '../../src/services.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/docs/product', import.meta.url));

/** A private copy of the fixture documentation, safe to edit. */
export async function fixtureCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docent-docs-'));
  await cp(FIXTURES, path.join(dir, 'product'), { recursive: true });
  return path.join(dir, 'product');
}

export async function indexFor(services: Services, tenant: string): Promise<DocIndex> {
  return (await services.docs()).forTenant(tenant);
}
