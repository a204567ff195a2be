import { copyFile, mkdir, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultLibraryFor, librariesOf, parseResourceUri, resourceUri } from '../../src/docs/library.js';
import { documentId, prepareDocument } from '../../src/docs/prepare.js';
import { openChunkStore, tenantKey } from '../../src/storage/chunks.js';
import { openStore } from '../../src/storage/store.js';
import { silentLogger } from '../../src/logging.js';
import { startHarness, tempDir, type Harness } from '../helpers/harness.js';
import { indexFor } from './helpers.js';

let h: Harness;
let dir: string;
beforeEach(async () => {
  h = await startHarness();
  dir = await tempDir('docent-sets-');
});
afterEach(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

const README_A = '# Alpha client\n\n## Retries\n\nThe alpha client retries a failed request three times with exponential backoff before it gives up.\n';
const README_B = '# Beta server\n\n## Ports\n\nThe beta server listens on port 8443 by default; set BETA_PORT to change the listening port.\n';

async function twoLibraries(): Promise<{ a: string; b: string }> {
  const a = path.join(dir, 'libA');
  const b = path.join(dir, 'libB');
  await mkdir(a, { recursive: true });
  await mkdir(b, { recursive: true });
  await writeFile(path.join(a, 'README.md'), README_A);
  await writeFile(path.join(b, 'README.md'), README_B);
  return { a, b };
}

describe('document sets', () => {
  it('equal paths in two folders are two documents of two sets, and both answer', async () => {
    const { a, b } = await twoLibraries();
    const index = await indexFor(h.services, 'acme');
    expect(await index.ingestPath([a])).toMatchObject({ added: 1, updated: 0, libraries: ['libA'] });
    expect(await index.ingestPath([b])).toMatchObject({ added: 1, updated: 0, libraries: ['libB'] });
    const docs = await index.listDocuments();
    expect(docs.map((d) => [d.library, d.title, d.uri])).toEqual([
      ['libA', 'README.md', 'docent://libA/README.md'],
      ['libB', 'README.md', 'docent://libB/README.md'],
    ]);
    expect(new Set(docs.map((d) => d.id)).size).toBe(2);

    const alpha = await index.query('How many times does the alpha client retry a failed request?');
    expect(alpha.grounded).toBe(true);
    expect(alpha.answer).toContain('three times');
    expect(alpha.sources[0]).toMatchObject({ title: 'README.md', library: 'libA', uri: 'docent://libA/README.md' });
    const beta = await index.query('Which port does the beta server listen on by default?');
    expect(beta.grounded).toBe(true);
    expect(beta.answer).toContain('8443');
    expect(beta.sources[0]).toMatchObject({ title: 'README.md', library: 'libB', uri: 'docent://libB/README.md' });
  });

  it('a question scoped to one set searches that set only; an unknown set is not_found naming the sets', async () => {
    const { a, b } = await twoLibraries();
    const index = await indexFor(h.services, 'acme');
    await index.ingestPath([a, b]);
    const scoped = await index.query('Which port does the beta server listen on by default?', { library: 'libB' });
    expect(scoped.grounded).toBe(true);
    expect(scoped.sources.map((s) => s.library)).toEqual(['libB']);
    const elsewhere = await index.query('Which port does the beta server listen on by default?', { library: 'libA' });
    expect(elsewhere.grounded).toBe(false);
    expect(elsewhere.sources.every((s) => s.library === 'libA')).toBe(true);
    await expect(index.query('Which port?', { library: 'libC' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('Its sets: libA, libB'),
    });
  });

  it('the scope filters in the store, before the candidate pool is cut', async () => {
    const { a, b } = await twoLibraries();
    const index = await indexFor(h.services, 'acme');
    await index.ingestPath([a, b]);
    const store = await openChunkStore(await h.services.store(), 'acme');
    // "port" is in libB only; "client" in libA only; a one-hit search of both terms favours neither set
    // unless scoped.
    const wide = await store.search('beta port alpha', ['body_terms', 'head_terms'], [1, 1], 10);
    expect(new Set(wide.map((c) => c.library))).toEqual(new Set(['libA', 'libB']));
    for (const lib of ['libA', 'libB']) {
      const hits = await store.scoped(lib).search('beta port alpha', ['body_terms', 'head_terms'], [1, 1], 1);
      expect(hits.map((c) => c.library)).toEqual([lib]);
    }
  });

  it("re-ingesting a folder removes only its own set's vanished files", async () => {
    const { a, b } = await twoLibraries();
    await writeFile(path.join(a, 'extra.md'), '# Extra\n\nAn extra page of the alpha client about timeouts.\n');
    await writeFile(path.join(b, 'extra.md'), '# Extra\n\nAn extra page of the beta server about logging.\n');
    const index = await indexFor(h.services, 'acme');
    await index.ingestPath([a, b]);
    // The same folder a second time under an explicit name is a third set.
    expect(await index.ingestPath([a], { library: 'alpha@2' })).toMatchObject({ added: 2, libraries: ['alpha@2'] });
    await unlink(path.join(a, 'extra.md'));
    expect(await index.ingestPath([a])).toMatchObject({ removed: 1, unchanged: 1 });
    expect((await index.listDocuments()).map((d) => `${d.library}:${d.title}`)).toEqual([
      'alpha@2:README.md',
      'alpha@2:extra.md',
      'libA:README.md',
      'libB:README.md',
      'libB:extra.md',
    ]);
  });

  it('removes one document by title within a set, refuses an ambiguous title, and removes whole sets', async () => {
    const { a, b } = await twoLibraries();
    const index = await indexFor(h.services, 'acme');
    await index.ingestPath([a, b]);
    await expect(index.removeDocument('README.md')).rejects.toMatchObject({ code: 'invalid_arguments', message: expect.stringContaining('libA, libB') });
    expect(await index.removeDocument('README.md', 'libB')).toMatchObject({ library: 'libB', title: 'README.md' });
    expect(librariesOf(await index.listDocuments()).map((l) => l.library)).toEqual(['libA']);
    expect((await index.removeLibrary('libA')).map((d) => d.title)).toEqual(['README.md']);
    expect(await index.removeLibrary('libA')).toEqual([]);
    expect(await index.listDocuments()).toEqual([]);
  });

  it('refuses unusable set names', async () => {
    const { a } = await twoLibraries();
    const index = await indexFor(h.services, 'acme');
    for (const bad of ['', ' x', 'a/b', 'a\u0001b', 'x'.repeat(101)]) {
      await expect(index.ingestPath([a], { library: bad })).rejects.toMatchObject({ code: 'invalid_arguments' });
      await expect(index.ingestDocument({ title: 't.md', content: '# T\n\ntext' }, 'upload', bad)).rejects.toMatchObject({ code: 'invalid_arguments' });
    }
    expect(await index.listDocuments()).toEqual([]);
  });

  it('reads a whole document back by set and path', async () => {
    const { a } = await twoLibraries();
    const index = await indexFor(h.services, 'acme');
    await index.ingestPath([a]);
    await index.ingestDocument(
      { title: 'page.html', content: '<html><head><title>P</title></head><body><h1>Page</h1><p>Hello <b>there</b>.</p></body></html>' },
      'upload',
      'web',
    );
    expect(await index.readDocument('libA', 'README.md')).toMatchObject({ text: README_A, mimeType: 'text/markdown' });
    const html = await index.readDocument('web', 'page.html');
    expect(html?.mimeType).toBe('text/markdown');
    expect(html?.text).toContain('# Page');
    expect(html?.text).toContain('Hello there.');
    expect(await index.readDocument('libB', 'README.md')).toBeUndefined();
  });
});

describe('set names and resource URIs', () => {
  it("defaults to the folder, the file's folder, or the URL host", () => {
    expect(defaultLibraryFor('/srv/docs/react', true)).toBe('react');
    expect(defaultLibraryFor('/srv/docs/react/README.md', false)).toBe('react');
    expect(defaultLibraryFor('https://docs.example.com/guide/intro.html', false)).toBe('docs.example.com');
    expect(defaultLibraryFor('/', true)).toBe('default');
  });

  it('round-trips sets and paths through URIs, percent-encoding each part', () => {
    for (const [library, title] of [
      ['react@18', 'guides/setup.md'],
      ['My Docs', 'a b/c#d?.md'],
      ['docs.example.com', 'docs.example.com/x?page=2'],
    ]) {
      const uri = resourceUri(library!, title!);
      expect(uri.startsWith('docent://')).toBe(true);
      expect(parseResourceUri(uri)).toEqual({ library, title });
    }
    expect(resourceUri('react@18', 'guides/setup.md')).toBe('docent://react%4018/guides/setup.md');
    for (const bad of ['docent://lib', 'docent:///x.md', 'file:///etc/passwd', 'docent://lib/%E0%A4%A']) expect(parseResourceUri(bad)).toBeUndefined();
  });
});

describe('data directories written before document sets', () => {
  /** The table layouts of the previous version: no `library` on documents and chunks, no `content`. */
  const OLD_DOCS = new Schema(
    ['doc_id', 'title', 'url', 'origin', 'content_type', 'hash', 'version', 'chunks', 'chars', 'updated_at', 'vocab', 'idents', 'names', 'title_terms'].map(
      (name) => new Field(name, name === 'chunks' || name === 'chars' ? new Float64() : new Utf8(), name === 'url' || name === 'title_terms'),
    ),
  );
  const OLD_CHUNKS = new Schema(
    ['chunk_id', 'doc_id', 'version', 'ord', 'section', 'text', 'body_terms', 'head_terms'].map(
      (name) => new Field(name, name === 'ord' ? new Float64() : new Utf8(), false),
    ),
  );

  it('read as the set "default": listed, answered, readable, updated in place by a re-ingest into "default"', async () => {
    const dataDir = path.join(dir, 'old-data');
    const content = '# Gamma\n\n## Cache\n\nThe gamma cache keeps entries for ten minutes unless GAMMA_TTL says otherwise.\n';
    const folder = path.join(dir, 'delta-docs');
    const delta = '# Delta\n\nThe delta daemon rotates its journal every night.\n';
    await mkdir(folder);
    await writeFile(path.join(folder, 'delta.md'), delta);
    {
      const store = await openStore(dataDir, silentLogger());
      const prefix = `docs_${tenantKey('acme')}`;
      const prepared = prepareDocument({ title: 'gamma.md', content, contentType: 'markdown', origin: 'upload', library: 'default' });
      const { library: _l, content: _c, links: _k, ...oldDoc } = prepared.doc;
      const docs = await store.openTable(`${prefix}_documents`, OLD_DOCS);
      const chunks = await store.openTable(`${prefix}_chunks`, OLD_CHUNKS);
      // Another document ingested from a folder by the previous version.
      const fromFolder = prepareDocument({ title: 'delta.md', content: delta, contentType: 'markdown', origin: folder, library: 'default' });
      const { library: _l2, content: _c2, links: _k2, ...oldFolderDoc } = fromFolder.doc;
      await docs.add([oldDoc, oldFolderDoc]);
      await chunks.add([...prepared.chunks, ...fromFolder.chunks].map(({ library: _x, ...c }) => c));
      expect((await docs.schema()).fields.map((f) => f.name)).not.toContain('library');
      // The id the previous version gave a title (sha256 of the title alone).
      expect(oldDoc.doc_id).toBe(documentId('gamma.md', 'default'));
      await store.close();
    }
    const old = await startHarness({ overrides: { dataDir } });
    try {
      const index = await indexFor(old.services, 'acme');
      expect((await index.listDocuments()).map((d) => [d.library, d.title, d.uri])).toEqual([
        ['default', 'delta.md', 'docent://default/delta.md'],
        ['default', 'gamma.md', 'docent://default/gamma.md'],
      ]);
      // Its full-text index is built by the next ingest; an upload into another set does that.
      await index.ingestDocument({ title: 'other.md', content: '# Other\n\nSomething else entirely about kites.\n' }, 'upload', 'kites');
      const answer = await index.query('How long does the gamma cache keep entries?');
      expect(answer.grounded).toBe(true);
      expect(answer.sources[0]).toMatchObject({ title: 'gamma.md', library: 'default', uri: 'docent://default/gamma.md' });
      // No stored text: read back from its passages.
      const read = await index.readDocument('default', 'gamma.md');
      expect(read?.text).toContain('The gamma cache keeps entries for ten minutes');
      expect(await index.ingestDocument({ title: 'gamma.md', content }, 'upload', 'default')).toMatchObject({ status: 'unchanged' });
      expect((await index.listDocuments('default')).length).toBe(2);
      // Its folder ingested again goes to the folder's own set, and the old copy of the set "default" goes.
      expect(await index.ingestPath([folder])).toMatchObject({ added: 1, removed: 1, libraries: ['delta-docs'] });
      expect((await index.listDocuments()).map((d) => `${d.library}:${d.title}`)).toEqual(['default:gamma.md', 'delta-docs:delta.md', 'kites:other.md']);
      // Documents of the set "default" written now are never taken for old ones.
      await index.ingestPath([folder], { library: 'default' });
      expect(await index.ingestPath([folder], { library: 'delta-2' })).toMatchObject({ added: 1, removed: 0 });
    } finally {
      await old.close();
    }
  });
});

describe('vector tables written before document sets', () => {
  it('gain the library column on open, and scoped nearest-neighbour searches work on them', async () => {
    const store = await openStore(path.join(dir, 'old-vectors'), silentLogger());
    try {
      const prefix = `docs_${tenantKey('acme')}`;
      const old = new Schema([
        new Field('chunk_id', new Utf8(), false),
        new Field('doc_id', new Utf8(), false),
        new Field('version', new Utf8(), false),
        new Field('vector', new FixedSizeList(2, new Field('item', new Float32(), true)), false),
      ]);
      const table = await store.openTable(`${prefix}_vectors_2`, old);
      await table.add([{ chunk_id: 'd1:v1:0', doc_id: 'd1', version: 'v1', vector: [1, 0] }]);
      const chunks = await openChunkStore(store, 'acme');
      await chunks.openVectors(2);
      expect((await table.schema()).fields.map((f) => f.name)).toContain('library');
      expect((await chunks.scoped('default').nearest([1, 0], 5)).map((v) => v.chunk_id)).toEqual(['d1:v1:0']);
      expect(await chunks.scoped('other').nearest([1, 0], 5)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('text only', () => {
  it('skips a binary file named like documentation, by name and with the reason', async () => {
    const folder = path.join(dir, 'product');
    await mkdir(folder);
    await writeFile(path.join(folder, 'guide.md'), '# Guide\n\nThe guide explains the basics of the product.\n');
    await copyFile(process.execPath, path.join(folder, 'fake.md'));
    await writeFile(path.join(folder, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const index = await indexFor(h.services, 'acme');
    const summary = await index.ingestPath([folder]);
    expect(summary.added).toBe(1);
    expect(summary.skipped).toEqual([
      { path: path.join(folder, 'fake.md'), reason: expect.stringMatching(/not UTF-8 text|binary/) },
      { path: path.join(folder, 'latin1.txt'), reason: 'it is not UTF-8 text (binary, or another encoding)' },
    ]);
    expect((await index.listDocuments()).map((d) => d.title)).toEqual(['guide.md']);
    // Strings handed over directly (uploads, tools) get the same check.
    await expect(index.ingestDocument({ title: 'nul.md', content: '# A\u0000B' })).rejects.toMatchObject({ code: 'unsupported_document_type' });
  });
});
