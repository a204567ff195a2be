import { rm, unlink, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocIndex } from '../../src/docs/index.js';
import { openChunkStore, type ChunkStore, type DocumentWrite } from '../../src/storage/chunks.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { fixtureCopy, indexFor } from './helpers.js';

let h: Harness;
let folder: string;
beforeEach(async () => {
  h = await startHarness();
  folder = await fixtureCopy();
});
afterEach(async () => {
  await h.close();
  await rm(path.dirname(folder), { recursive: true, force: true });
});

const TITLES = ['api.md', 'guides/rotation.rst', 'guides/upgrade.html', 'guides/windows.md', 'install.md', 'notes.txt', 'untrusted.md'];

describe('ingest', () => {
  it('adds every supported file with its path relative to the folder as title, and links under --url-base', async () => {
    const index = await indexFor(h.services, 'acme');
    const summary = await index.ingestPath([folder], { urlBase: 'https://docs.example.com/lumen' });
    expect(summary).toMatchObject({ added: 7, updated: 0, unchanged: 0, removed: 0, skipped: [] });
    expect(summary.chunks).toBeGreaterThan(7);
    const docs = await index.listDocuments();
    expect(docs.map((d) => d.title)).toEqual(TITLES);
    expect(docs.find((d) => d.title === 'guides/windows.md')!.url).toBe('https://docs.example.com/lumen/guides/windows.md');
    expect(docs.find((d) => d.title === 'guides/upgrade.html')!.content_type).toBe('html');
  });

  it('is idempotent, replaces a changed document and removes one that left the folder', async () => {
    const index = await indexFor(h.services, 'acme');
    await index.ingestPath([folder]);
    const again = await index.ingestPath([folder]);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 7, removed: 0, chunks: 0 });

    await appendFile(path.join(folder, 'notes.txt'), '\nThe quarterly aurora release adds colour themes.\n');
    await unlink(path.join(folder, 'install.md'));
    const changed = await index.ingestPath([folder]);
    expect(changed).toMatchObject({ added: 0, updated: 1, unchanged: 5, removed: 1 });
    expect((await index.listDocuments()).map((d) => d.title)).toEqual(TITLES.filter((t) => t !== 'install.md'));

    const aurora = await index.query('What does the quarterly aurora release add?');
    expect(aurora.grounded).toBe(true);
    expect(aurora.sources[0]!.title).toBe('notes.txt');
    const gone = await index.query('How do I install without development dependencies using --omit=dev?');
    expect(gone.grounded).toBe(false);
    expect(gone.reason).toContain('`--omit=dev`');
  });

  it('skips unsupported files in a folder and refuses them named directly', async () => {
    await writeFile(path.join(folder, 'logo.png'), 'not text');
    const index = await indexFor(h.services, 'acme');
    expect((await index.ingestPath([folder])).added).toBe(7);
    await expect(index.ingestPath([path.join(folder, 'logo.png')])).rejects.toThrow(
      /only \.md, \.mdx, \.markdown, \.txt, \.rst, \.html, \.htm, \.adoc and \.asciidoc/,
    );
    await expect(index.ingestPath([path.join(folder, 'missing')])).rejects.toThrow(/no such file or folder/);
  });

  it('ingests an upload by title, replacing the previous upload of the same title', async () => {
    const index = await indexFor(h.services, 'acme');
    const first = await index.ingestDocument({ title: 'faq.md', content: '# FAQ\n\nThe zephyr mode trades latency for throughput.' });
    expect(first.status).toBe('added');
    expect((await index.ingestDocument({ title: 'faq.md', content: '# FAQ\n\nThe zephyr mode trades latency for throughput.' })).status).toBe('unchanged');
    const second = await index.ingestDocument({ title: 'faq.md', content: '# FAQ\n\nThe zephyr mode was removed in version 4.' });
    expect(second).toMatchObject({ id: first.id, status: 'updated' });
    const result = await index.query('What happened to zephyr mode?');
    expect(result.answer).toContain('removed in version 4');
    expect(result.answer).not.toContain('latency');
    await expect(index.ingestDocument({ title: 'x.pdf', content: 'x', contentType: 'application/pdf' })).rejects.toThrow(/unsupported content type/);
    expect(await index.removeDocument(first.id)).toMatchObject({ title: 'faq.md' });
    expect(await index.removeDocument(first.id)).toBeUndefined();
  });
});

/** A store whose commit stops after `steps` of its three steps, as a crash would. */
function crashingAfter(store: ChunkStore, steps: 1 | 2): ChunkStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'commit') {
        return async (writes: DocumentWrite[]) => {
          await target.writeVersions(writes);
          if (steps === 2) await target.switchVersions(writes);
          throw new Error(`simulated crash after step ${steps}`);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('an interrupted ingest never leaves half a document', () => {
  const OLD = '# Limits\n\nThe default quota is 40 requests per minute.\n';
  const NEW = '# Limits\n\nThe default quota is 90 requests per minute, and bursts of 200 are allowed.\n';

  it('a crash after writing the new chunks leaves the previous version in place, and the next ingest recovers', async () => {
    const store = await openChunkStore(await h.services.store(), 'crash');
    const healthy = new DocIndex('crash', store);
    await healthy.ingestDocument({ title: 'limits.md', content: OLD });
    const before = await store.chunkCount();

    const broken = new DocIndex('crash', crashingAfter(store, 1));
    await expect(broken.ingestDocument({ title: 'limits.md', content: NEW })).rejects.toThrow(/simulated crash/);
    expect(await store.chunkCount()).toBeGreaterThan(before); // the new chunks really were written

    const reader = new DocIndex('crash', store);
    const result = await reader.query('What is the default quota of requests per minute?');
    expect(result.answer).toContain('40 requests per minute');
    expect(result.answer).not.toContain('90');
    expect((await reader.listDocuments())[0]!.chunks).toBe(1);

    await healthy.ingestDocument({ title: 'limits.md', content: NEW });
    expect(await store.chunkCount()).toBe(before);
    expect((await reader.query('What is the default quota of requests per minute?')).answer).toContain('90 requests per minute');
  });

  it('a crash after switching the version shows only the new version', async () => {
    const store = await openChunkStore(await h.services.store(), 'crash2');
    await new DocIndex('crash2', store).ingestDocument({ title: 'limits.md', content: OLD });
    await expect(new DocIndex('crash2', crashingAfter(store, 2)).ingestDocument({ title: 'limits.md', content: NEW })).rejects.toThrow();
    const result = await new DocIndex('crash2', store).query('What is the default quota of requests per minute?');
    expect(result.answer).toContain('90 requests per minute');
    expect(result.answer).not.toContain('40 requests');
    expect(await store.sweep()).toBe(1);
  });
});

describe('ingest by URL', () => {
  it('fetches through the outbound guard, which refuses loopback and plain http', async () => {
    const { fetchDocument } = await import('../../src/docs/fetch.js');
    const index = await indexFor(h.services, 'acme');
    const outbound = await h.services.outbound();
    const fetchUrl = (url: string) => fetchDocument(outbound, url);
    await expect(index.ingestPath(['https://127.0.0.1/docs/index.html'], { fetchUrl })).rejects.toThrow(/refused/);
    await expect(index.ingestPath(['http://docs.example.com/index.html'], { fetchUrl })).rejects.toThrow(/refused/);
    await expect(index.ingestPath(['https://docs.example.com/'])).rejects.toThrow(/outbound network client/);
    expect(await index.listDocuments()).toEqual([]);
  });
});
