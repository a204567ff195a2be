import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocIndex } from '../../src/docs/index.js';
import type { DocumentRow } from '../../src/storage/chunks.js';
import type { Services } from '../../src/services.js';
import { startHarness, type Harness } from '../helpers/harness.js';

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

/**
 * A harness whose tenant has ingested the given documents (path relative to a fresh folder → text), for
 * tests of what a real index answers; close() stops it and removes the folder.
 */
export async function ingestedIndex(tenant: string, files: Record<string, string>): Promise<{ h: Harness; index: DocIndex; close(): Promise<void> }> {
  const h = await startHarness({ overrides: { tenant } });
  const dir = await mkdtemp(path.join(os.tmpdir(), `docent-${tenant}-`));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const index = await indexFor(h.services, tenant);
  await index.ingestPath([dir]);
  return {
    h,
    index,
    async close() {
      await h.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A documents-table row for corpus-statistics tests: `doc_id` is also its title and hash; `fields` set the rest. */
export function documentRow(doc_id: string, fields: Partial<DocumentRow> = {}): DocumentRow {
  return {
    doc_id,
    library: 'docs',
    title: doc_id,
    url: null,
    origin: 'test',
    content_type: 'markdown',
    hash: doc_id,
    version: 'v1',
    chunks: 1,
    chars: 100,
    updated_at: '2026-11-27T00:00:00Z',
    vocab: '{}',
    idents: '',
    names: '',
    title_terms: '',
    content: '',
    links: '',
    ...fields,
  };
}
