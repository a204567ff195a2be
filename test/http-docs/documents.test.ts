/**
 * The documents and query API over real HTTP (the app on 127.0.0.1:0, real LanceDB in a temp directory):
 * uploads as JSON and multipart, idempotent re-uploads, listing, grounded answers and honest refusals,
 * deletion, tenant isolation with two keys, and hostile requests refused without storing anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryResultSchema } from '../../src/docs/types.js';
import { startApp, type TestApp } from '../http/helpers.js';
import { fixture, listDocuments, query, send, titles, uploadFiles, uploadJson } from './helpers.js';

const HELLO = { title: 'notes/widgets.md', content: '# Widgets\n\nThe `frobnicate` command resets the widget cache.\n' };

let app: TestApp;
let keyA: string;
let keyB: string;
let install: string;
let rotation: string;

beforeAll(async () => {
  app = await startApp({
    'uploads.maxFileBytes': 4096,
    'uploads.maxRequestBytes': 16384,
    'limits.free.requestsPerMinute': 0,
    'limits.free.requestsPerMonth': 0,
  });
  [keyA, keyB] = await Promise.all([app.key('acme'), app.key('globex')]);
  [install, rotation] = await Promise.all([fixture('install.md'), fixture('guides/rotation.rst')]);
});
afterAll(async () => app?.close());

describe('uploads, listing, queries and deletion', () => {
  it('stores a JSON upload under its title: 201 added, with the record', async () => {
    const reply = await uploadJson(app.url, keyA, HELLO);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toEqual({
      documents: [
        {
          id: expect.stringMatching(/^[0-9a-f]{16}$/),
          library: 'default',
          title: 'notes/widgets.md',
          uri: 'docent://default/notes/widgets.md',
          content_type: 'markdown',
          chunks: 1,
          chars: HELLO.content.length,
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          status: 'added',
        },
      ],
    });
  });

  it('stores every file of a multipart upload under its file name', async () => {
    const reply = await uploadFiles(app.url, keyA, [
      { filename: 'install.md', type: 'application/octet-stream', content: install },
      { filename: 'guides/rotation.rst', content: rotation },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.documents.map((d: { title: string; content_type: string; status: string }) => [d.title, d.content_type, d.status])).toEqual([
      ['install.md', 'markdown', 'added'],
      ['guides/rotation.rst', 'rst', 'added'],
    ]);
    for (const d of reply.body.documents) expect(d.chunks).toBeGreaterThan(0);
  });

  it('re-uploading the same content changes nothing (200 unchanged); new content updates (200 updated)', async () => {
    const again = await uploadFiles(app.url, keyA, [
      { filename: 'install.md', content: install },
      { filename: 'guides/rotation.rst', content: rotation },
    ]);
    expect(again.status).toBe(200);
    expect(again.body.documents.map((d: { status: string }) => d.status)).toEqual(['unchanged', 'unchanged']);
    const json = await uploadJson(app.url, keyA, HELLO);
    expect(json.status).toBe(200);
    expect(json.body.documents[0]).toMatchObject({ title: 'notes/widgets.md', status: 'unchanged', chunks: 1 });

    const changed = { ...HELLO, content: `${HELLO.content}\nRun \`frobnicate --all\` to reset every cache.\n`, url: 'https://docs.example.com/widgets' };
    const updated = await uploadJson(app.url, keyA, changed);
    expect(updated.status).toBe(200);
    expect(updated.body.documents[0]).toMatchObject({
      title: 'notes/widgets.md',
      status: 'updated',
      chars: changed.content.length,
      url: 'https://docs.example.com/widgets',
    });
    expect(updated.body.documents[0].id).toBe(json.body.documents[0].id);
  });

  it("lists the tenant's documents ordered by title, with the quota usage", async () => {
    const reply = await listDocuments(app.url, keyA);
    expect(reply.status).toBe(200);
    const docs = reply.body.documents as { title: string; chars: number }[];
    expect(docs.map((d) => d.title)).toEqual(['guides/rotation.rst', 'install.md', 'notes/widgets.md']);
    expect(Object.keys(docs[0]!).sort()).toEqual(['chars', 'chunks', 'content_type', 'id', 'library', 'title', 'updated_at', 'uri']);
    expect(reply.body.usage).toEqual({ document_bytes: docs.reduce((n, d) => n + d.chars, 0), limit: 26214400 });
    expect(reply.body.libraries).toEqual([{ library: 'default', documents: 3, chars: reply.body.usage.document_bytes }]);
  });

  it('answers from the uploaded documents: grounded, sources[0] the uploaded name', async () => {
    const reply = await query(app.url, keyA, { question: 'How do I reset the widget cache?' });
    expect(reply.status, reply.text).toBe(200);
    const result = QueryResultSchema.strict().parse(reply.body);
    expect(result.grounded).toBe(true);
    expect(result.sources[0]).toMatchObject({ title: 'notes/widgets.md', url: 'https://docs.example.com/widgets', score: 1 });
    expect(result.answer).toContain('frobnicate');
    expect(result.confidence).toBeGreaterThan(0.5);

    const rst = QueryResultSchema.parse(
      (await query(app.url, keyA, { question: 'How do I make lumen reopen its file after logrotate moves it?', top_k: 1 })).body,
    );
    expect(rst.grounded).toBe(true);
    expect(rst.sources.map((s) => s.title)).toEqual(['guides/rotation.rst']);
    expect(rst.answer).toContain('SIGHUP');
  });

  it('refuses a question the documentation does not answer: grounded false, a reason, no answer', async () => {
    const reply = await query(app.url, keyA, { question: 'How do I configure `rotateFiles` for daily rotation?' });
    expect(reply.status).toBe(200);
    const result = QueryResultSchema.strict().parse(reply.body);
    expect(result.grounded).toBe(false);
    expect(result.answer).toBeUndefined();
    expect(result.reason).toMatch(/`rotateFiles`/);
    expect(result.confidence).toBeLessThan(0.5);
  });

  it('deletes a document (204): it leaves the listing and no longer answers; a second delete is 404', async () => {
    const id = (await listDocuments(app.url, keyA)).body.documents.find((d: { title: string }) => d.title === 'notes/widgets.md').id;
    const removed = await send(`${app.url}/v1/documents/${id}`, { method: 'DELETE', key: keyA });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await titles(app.url, keyA)).toEqual(['guides/rotation.rst', 'install.md']);
    const after = QueryResultSchema.parse((await query(app.url, keyA, { question: 'How do I reset the widget cache with frobnicate?' })).body);
    expect(after.grounded).toBe(false);
    expect(after.sources.map((s) => s.title)).not.toContain('notes/widgets.md');
    const again = await send(`${app.url}/v1/documents/${id}`, { method: 'DELETE', key: keyA });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
  });

  it("an agent's DELETE needs a confirmation token (destructive operations are never auto-confirmed)", async () => {
    await uploadJson(app.url, keyA, { title: 'scratch.txt', content: 'Scratch notes about the blue widget.' });
    const id = (await listDocuments(app.url, keyA)).body.documents.find((d: { title: string }) => d.title === 'scratch.txt').id;
    const agent = { 'x-agent-client': 'test-agent/1' };
    const first = await send(`${app.url}/v1/documents/${id}`, { method: 'DELETE', key: keyA, headers: agent });
    expect(first.status).toBe(409);
    expect(first.body.error).toMatchObject({ code: 'confirmation_required', document: { id, title: 'scratch.txt' } });
    expect(first.body.error.message).toContain('Nothing has been done yet');
    const token = first.body.error.confirmation_token as string;
    expect(await titles(app.url, keyA)).toContain('scratch.txt');

    // A token confirms exactly that document for that tenant, once.
    const forged = await send(`${app.url}/v1/documents/${id}`, {
      method: 'DELETE',
      key: keyA,
      headers: { ...agent, 'x-confirmation-token': `${token.slice(0, -2)}xx` },
    });
    expect(forged.status).toBe(409);
    const confirmed = await send(`${app.url}/v1/documents/${id}`, { method: 'DELETE', key: keyA, headers: { ...agent, 'x-confirmation-token': token } });
    expect(confirmed.status).toBe(204);
    expect(await titles(app.url, keyA)).not.toContain('scratch.txt');
  });
});

describe('tenant isolation (two keys)', () => {
  let idA: string;
  beforeAll(async () => {
    idA = (await listDocuments(app.url, keyA)).body.documents.find((d: { title: string }) => d.title === 'install.md').id;
  });

  it("B lists none of A's documents and its queries never see them", async () => {
    expect((await listDocuments(app.url, keyB)).body).toEqual({ documents: [], libraries: [], usage: { document_bytes: 0, limit: 26214400 } });
    const result = QueryResultSchema.parse(
      (await query(app.url, keyB, { question: 'How do I install without development dependencies using --omit=dev?' })).body,
    );
    expect(result).toMatchObject({ grounded: false, sources: [] });
    expect(result.reason).toMatch(/No documentation has been ingested for tenant "globex"/);
  });

  it("A's id with B's key is 404 and deletes nothing", async () => {
    const reply = await send(`${app.url}/v1/documents/${idA}`, { method: 'DELETE', key: keyB });
    expect(reply.status).toBe(404);
    expect(reply.text).not.toContain('install.md');
    expect(await titles(app.url, keyA)).toContain('install.md');
  });

  it("B uploading the same title makes B's own document; A's stays as it was", async () => {
    const reply = await uploadJson(app.url, keyB, { title: 'install.md', content: 'Globex installs with `make install`.' });
    expect(reply.status).toBe(201);
    expect(reply.body.documents[0]).toMatchObject({ title: 'install.md', status: 'added' });
    const a = (await listDocuments(app.url, keyA)).body.documents.find((d: { title: string }) => d.title === 'install.md');
    expect(a.chars).toBe(install.length);
    const fromA = QueryResultSchema.parse(
      (await query(app.url, keyA, { question: 'How do I install without development dependencies using --omit=dev?' })).body,
    );
    expect(fromA.grounded).toBe(true);
    expect(fromA.answer).toContain('--omit=dev');
    expect(fromA.answer).not.toContain('make install');
    const fromB = QueryResultSchema.parse((await query(app.url, keyB, { question: 'How does Globex install with make install?' })).body);
    expect(fromB.answer ?? '').not.toContain('--omit=dev');
  });

  it('every route needs a key: 401 with WWW-Authenticate', async () => {
    for (const [method, path] of [
      ['GET', '/v1/documents'],
      ['POST', '/v1/documents'],
      ['DELETE', `/v1/documents/${idA}`],
      ['POST', '/v1/query'],
    ] as const) {
      const reply = await send(`${app.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
      expect(reply.status, `${method} ${path}`).toBe(401);
      expect(reply.body.error.code).toBe('missing_api_key');
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await send(`${app.url}${path}`, { method, key: 'dk_0000000000000000_nope' });
      expect(wrong.status).toBe(401);
    }
    expect(await titles(app.url, keyA)).toContain('install.md');
  });
});

describe('document sets over HTTP', () => {
  const A = { title: 'README.md', content: '# Alpha client\n\nThe alpha client retries a failed request three times before it gives up.\n' };
  const B = { title: 'README.md', content: '# Beta server\n\nThe beta server listens on port 8443 by default.\n' };
  const agent = { 'x-agent-client': 'test-agent' };

  it('the same title in two sets is two documents (JSON and multipart), listed and filtered by set', async () => {
    const a = await uploadJson(app.url, keyA, { ...A, library: 'libA' });
    expect(a.status, a.text).toBe(201);
    expect(a.body.documents[0]).toMatchObject({ library: 'libA', title: 'README.md', uri: 'docent://libA/README.md', status: 'added' });
    const b = await uploadFiles(app.url, keyA, [
      { name: 'library', content: 'libB' },
      { filename: 'README.md', content: B.content },
    ]);
    expect(b.status, b.text).toBe(201);
    expect(b.body.documents[0]).toMatchObject({ library: 'libB', title: 'README.md', status: 'added' });
    expect(b.body.documents[0].id).not.toBe(a.body.documents[0].id);

    const all = (await listDocuments(app.url, keyA)).body;
    expect(all.libraries.map((l: { library: string }) => l.library)).toEqual(['default', 'libA', 'libB']);
    const onlyB = await send(`${app.url}/v1/documents?library=libB`, { key: keyA });
    expect(onlyB.body.documents.map((d: { library: string; title: string }) => `${d.library}:${d.title}`)).toEqual(['libB:README.md']);
    // The quota usage stays the tenant's, whatever the filter.
    expect(onlyB.body.usage).toEqual(all.usage);
    expect((await send(`${app.url}/v1/documents?library=nope`, { key: keyA })).body.documents).toEqual([]);
    expect((await send(`${app.url}/v1/documents?libary=libB`, { key: keyA })).status).toBe(400);
    // Another tenant's key sees nothing of these sets.
    expect((await send(`${app.url}/v1/documents?library=libA`, { key: keyB })).body.documents).toEqual([]);
  });

  it('both answer; a query can be scoped to one set; an unknown set is 404 naming the sets', async () => {
    const alpha = QueryResultSchema.strict().parse(
      (await query(app.url, keyA, { question: 'How many times does the alpha client retry a failed request?' })).body,
    );
    expect(alpha.grounded).toBe(true);
    expect(alpha.sources[0]).toMatchObject({ title: 'README.md', library: 'libA', uri: 'docent://libA/README.md' });
    const beta = QueryResultSchema.parse(
      (await query(app.url, keyA, { question: 'Which port does the beta server listen on by default?', library: 'libB' })).body,
    );
    expect(beta.grounded).toBe(true);
    expect(beta.sources.map((s) => s.library)).toEqual(['libB']);
    const wrongSet = QueryResultSchema.parse(
      (await query(app.url, keyA, { question: 'Which port does the beta server listen on by default?', library: 'libA' })).body,
    );
    expect(wrongSet.grounded).toBe(false);
    const unknown = await query(app.url, keyA, { question: 'Which port?', library: 'libC' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', libraries: ['default', 'libA', 'libB'] });
    // Another tenant cannot reach a set by naming it.
    expect((await query(app.url, keyB, { question: 'Which port does the beta server listen on?', library: 'libB' })).status).toBe(404);
    expect((await query(app.url, keyA, { question: 'Which port?', library: 'a/b' })).status).toBe(400);
  });

  it('bad set names are 400 and store nothing', async () => {
    const before = await titles(app.url, keyA);
    for (const library of ['', 'a/b', ' padded', 'x'.repeat(101), 7]) {
      const reply = await uploadJson(app.url, keyA, { title: 'bad.md', content: '# Bad', library });
      expect(reply.status, String(library)).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_arguments', field: 'library' });
    }
    const twice = await uploadFiles(app.url, keyA, [
      { name: 'library', content: 'x' },
      { name: 'library', content: 'y' },
      { filename: 'bad.md', content: '# Bad' },
    ]);
    expect(twice.status).toBe(400);
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it("DELETE ?library= removes a whole set: 404 for another tenant's key, confirmation for agents", async () => {
    expect((await send(`${app.url}/v1/documents?library=libB`, { method: 'DELETE', key: keyB })).status).toBe(404);
    expect((await send(`${app.url}/v1/documents`, { method: 'DELETE', key: keyA })).status).toBe(400);
    const refused = await send(`${app.url}/v1/documents?library=libB`, { method: 'DELETE', key: keyA, headers: agent });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'confirmation_required', library: 'libB', documents: 1 });
    const confirmed = await send(`${app.url}/v1/documents?library=libB`, {
      method: 'DELETE',
      key: keyA,
      headers: { ...agent, 'x-confirmation-token': refused.body.error.confirmation_token },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ library: 'libB', removed: 1 });
    const removed = await send(`${app.url}/v1/documents?library=libA`, { method: 'DELETE', key: keyA });
    expect(removed.body).toEqual({ library: 'libA', removed: 1 });
    expect((await send(`${app.url}/v1/documents?library=libA`, { method: 'DELETE', key: keyA })).status).toBe(404);
    expect((await listDocuments(app.url, keyA)).body.libraries.map((l: { library: string }) => l.library)).toEqual(['default']);
  });

  it('takes AsciiDoc, by file name or by content_type, and answers from it', async () => {
    const guide = '= Queue Guide\n\n== Limits\n\n*--max-jobs*::\nThe most jobs a queue holds; 512 by default.\n';
    const files = await uploadFiles(app.url, keyA, [
      { name: 'library', content: 'manual' },
      { filename: 'guides/queue.adoc', content: guide },
    ]);
    expect(files.status, files.text).toBe(201);
    expect(files.body.documents[0]).toMatchObject({ library: 'manual', title: 'guides/queue.adoc', content_type: 'asciidoc' });
    const json = await uploadJson(app.url, keyA, {
      library: 'manual',
      title: 'notes',
      content: '= Notes\n\nNOTE: Retries back off for 30 seconds.\n',
      content_type: 'text/asciidoc',
    });
    expect(json.status, json.text).toBe(201);
    expect(json.body.documents[0]).toMatchObject({ title: 'notes', content_type: 'asciidoc' });
    const reply = QueryResultSchema.parse((await query(app.url, keyA, { question: 'How many jobs does a queue hold by default?', library: 'manual' })).body);
    expect(reply.sources[0]).toMatchObject({ title: 'guides/queue.adoc', section: 'Queue Guide › Limits' });
    expect(reply.answer).toContain('--max-jobs: The most jobs a queue holds; 512 by default.');
    // Another tenant's key reaches none of it: not in its listing, not asked, not read, not removed.
    expect((await send(`${app.url}/v1/documents?library=manual`, { key: keyB })).body.documents).toEqual([]);
    expect((await query(app.url, keyB, { question: 'How many jobs does a queue hold by default?', library: 'manual' })).status).toBe(404);
    expect((await send(`${app.url}/v1/documents/${files.body.documents[0].id}`, { method: 'DELETE', key: keyB })).status).toBe(404);
    expect((await send(`${app.url}/v1/documents?library=manual`, { method: 'DELETE', key: keyB })).status).toBe(404);
    expect((await send(`${app.url}/v1/documents?library=manual`, { method: 'DELETE', key: keyA })).body).toEqual({ library: 'manual', removed: 2 });
  });
});

describe('hostile and malformed uploads are refused and store nothing', () => {
  let before: string[];
  beforeAll(async () => {
    before = await titles(app.url, keyA);
  });

  it.each([
    ['../evil.md'],
    ['../../etc/passwd.md'],
    ['guides/../../evil.md'],
    ['/etc/evil.md'],
    ['..\\evil.md'],
    ['C:\\Users\\me\\evil.md'],
    ['./evil.md'],
    ['guides//evil.md'],
    ['..'],
  ])('file name %j: 400 naming the file', async (filename) => {
    // A valid file first: the whole upload is refused, not just the bad part.
    const reply = await uploadFiles(app.url, keyA, [
      { filename: 'fine.md', content: '# Fine\n\ntext' },
      { filename, content: '# Evil\n\nplanted' },
    ]);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'invalid_arguments', field: 'filename' });
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('JSON titles follow the same rules', async () => {
    for (const title of ['../evil.md', '/abs.md', 'a\\b.md', 'bad\u0000name.md', '   ', 'x'.repeat(301)]) {
      const reply = await uploadJson(app.url, keyA, { title, content: 'planted' });
      expect(reply.status, JSON.stringify(title)).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_arguments', field: 'title' });
    }
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('a file over the per-file cap is 413; a request over the total cap is 413', async () => {
    const big = await uploadFiles(app.url, keyA, [{ filename: 'big.md', content: `# Big\n\n${'word '.repeat(1000)}` }]);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: 'payload_too_large', limit_bytes: 4096 });
    expect(big.body.error.message).toContain('big.md');

    const many = Array.from({ length: 5 }, (_, i) => ({ filename: `part-${i}.md`, content: `# Part ${i}\n\n${'text '.repeat(700)}` }));
    const total = await uploadFiles(app.url, keyA, many, { chunked: true });
    expect(total.status).toBe(413);
    expect(total.body.error).toMatchObject({ code: 'payload_too_large', limit_bytes: 16384 });

    const json = await uploadJson(app.url, keyA, { title: 'big.md', content: 'x'.repeat(5000) });
    expect(json.status).toBe(413);
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('unsupported kinds are 415 with the supported list', async () => {
    const cases = [
      [{ filename: 'report.pdf', type: 'application/pdf', content: '%PDF-1.4' }, 'report.pdf'],
      [{ filename: 'tool.exe', content: 'MZ' }, 'tool.exe'],
      [{ filename: 'README', type: 'application/octet-stream', content: 'no extension, no text type' }, 'README'],
      [{ filename: 'binary.md', content: Buffer.from([0x23, 0x20, 0x41, 0x00, 0x01, 0x02]) }, 'binary.md'],
      [{ filename: 'latin1.md', content: Buffer.from([0x23, 0x20, 0xe9, 0x74, 0xe9]) }, 'latin1.md'],
    ] as const;
    for (const [part, name] of cases) {
      const reply = await uploadFiles(app.url, keyA, [part]);
      expect(reply.status, name).toBe(415);
      expect(reply.body.error).toMatchObject({
        code: 'unsupported_document_type',
        filename: name,
        supported: ['.md', '.mdx', '.markdown', '.txt', '.rst', '.html', '.htm', '.adoc', '.asciidoc'],
      });
    }
    const nul = await uploadJson(app.url, keyA, { title: 'nul.md', content: '# Title\u0000binary' });
    expect(nul.status).toBe(415);
    expect(nul.body.error).toMatchObject({ code: 'unsupported_document_type', field: 'content' });
    const declared = await uploadJson(app.url, keyA, { title: 'doc', content: 'text', content_type: 'application/pdf' });
    expect(declared.status).toBe(415);
    expect(declared.body.error).toMatchObject({ code: 'unsupported_document_type', field: 'content_type' });
    const wrongBody = await send(`${app.url}/v1/documents`, { method: 'POST', key: keyA, headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(wrongBody.status).toBe(415);
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('a name without an extension is accepted when the part says it is text', async () => {
    const reply = await uploadFiles(app.url, keyA, [{ filename: 'CHANGES', type: 'text/plain', content: 'Version 2 adds the teal widget.' }]);
    expect(reply.status).toBe(201);
    expect(reply.body.documents[0]).toMatchObject({ title: 'CHANGES', content_type: 'text', status: 'added' });
    const id = reply.body.documents[0].id;
    expect((await send(`${app.url}/v1/documents/${id}`, { method: 'DELETE', key: keyA })).status).toBe(204);
  });

  it('a file the index cannot use (no text) fails the whole upload: the other files are not stored', async () => {
    const reply = await uploadFiles(app.url, keyA, [
      { filename: 'fine.md', content: '# Fine\n\nA perfectly good document.' },
      { filename: 'hollow.html', content: '<html><head><script>var x = 1;</script></head><body><img src="a.png"></body></html>' },
    ]);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'invalid_arguments' });
    expect(reply.body.error.message).toContain('hollow.html');
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('malformed multipart is 400', async () => {
    const post = (contentType: string, body: string | Buffer) =>
      send(`${app.url}/v1/documents`, { method: 'POST', key: keyA, headers: { 'content-type': contentType }, body });
    const noBoundary = await post('multipart/form-data', '--x\r\n\r\n');
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.error.code).toBe('malformed_multipart');
    const truncated = await post(
      'multipart/form-data; boundary=abc',
      '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n# half a file',
    );
    expect(truncated.status).toBe(400);
    expect(truncated.body.error.code).toBe('malformed_multipart');
    const garbage = await post('multipart/form-data; boundary=abc', 'this is not multipart at all');
    expect(garbage.status).toBe(400);
    const brokenHeader = await post('multipart/form-data; boundary=abc', `--abc\r\n${'X'.repeat(100)}\r\n\r\nbody\r\n--abc--\r\n`);
    expect(brokenHeader.status).toBe(400);
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('form fields, nameless parts and duplicate names are 400 naming the problem', async () => {
    const field = await uploadFiles(app.url, keyA, [
      { name: 'title', content: 'My title' },
      { filename: 'a.md', content: '# A\n\ntext' },
    ]);
    expect(field.status).toBe(400);
    expect(field.body.error).toMatchObject({ code: 'invalid_arguments', field: 'title' });
    const nameless = await uploadFiles(app.url, keyA, [{ type: 'application/octet-stream', content: '# A\n\ntext' }]);
    expect(nameless.status).toBe(400);
    expect(nameless.body.error.message).toMatch(/file name/);
    const twice = await uploadFiles(app.url, keyA, [
      { filename: 'a.md', content: '# A\n\none' },
      { filename: 'a.md', content: '# A\n\ntwo' },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(/appears twice/);
    const empty = await uploadFiles(app.url, keyA, [{ filename: 'empty.md', content: '  \n' }]);
    expect(empty.status).toBe(400);
    const none = await uploadFiles(app.url, keyA, []);
    expect(none.status).toBe(400);
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it('malformed or incomplete JSON is 400 naming the field', async () => {
    const raw = await send(`${app.url}/v1/documents`, {
      method: 'POST',
      key: keyA,
      headers: { 'content-type': 'application/json' },
      body: '{"title": "a.md", "content": ',
    });
    expect(raw.status).toBe(400);
    expect(raw.body.error.code).toBe('invalid_json');
    const cases: [Record<string, unknown>, string][] = [
      [{ content: 'text' }, 'title'],
      [{ title: 'a.md' }, 'content'],
      [{ title: 42, content: 'text' }, 'title'],
      [{ title: 'a.md', content: '' }, 'content'],
      [{ title: 'a.md', content: 'text', url: 'javascript:alert(1)' }, 'url'],
      [{ title: 'a.md', content: 'text', contentType: 'markdown' }, 'contentType'],
    ];
    for (const [body, field] of cases) {
      const reply = await uploadJson(app.url, keyA, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_arguments', field });
      expect(reply.body.error.message).toContain(field);
    }
    const array = await send(`${app.url}/v1/documents`, { method: 'POST', key: keyA, headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(array.status).toBe(400);
    expect(await titles(app.url, keyA)).toEqual(before);
  });

  it("query input is checked by rag_query's own schema: 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'question'],
      [{ question: '   ' }, 'question'],
      [{ question: 'x'.repeat(2001) }, 'question'],
      [{ question: 'What?', top_k: 0 }, 'top_k'],
      [{ question: 'What?', top_k: 21 }, 'top_k'],
      [{ question: 'What?', top_k: 2.5 }, 'top_k'],
      [{ question: 'What?', topK: 3 }, 'topK'],
    ];
    for (const [body, field] of cases) {
      const reply = await query(app.url, keyA, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_arguments', field });
    }
    const raw = await send(`${app.url}/v1/query`, { method: 'POST', key: keyA, headers: { 'content-type': 'application/json' }, body: '{"question":' });
    expect(raw.status).toBe(400);
    const ok = await query(app.url, keyA, { question: 'How do I install lumen?', top_k: 20 });
    expect(ok.status).toBe(200);
  });
});

describe('documentation quota', () => {
  let small: TestApp;
  let key: string;
  beforeAll(async () => {
    small = await startApp({ 'limits.free.documentBytes': 1000, 'limits.free.requestsPerMinute': 0, 'limits.free.requestsPerMonth': 0 });
    key = await small.key('tiny');
  });
  afterAll(async () => small?.close());

  it("refuses uploads past the plan's documentation bytes with 429, declared or streamed; replacing within it is fine", async () => {
    const a = `# A\n\n${'alpha '.repeat(100)}`;
    const first = await uploadJson(small.url, key, { title: 'a.md', content: a });
    expect(first.status).toBe(201);
    expect((await listDocuments(small.url, key)).body.usage).toEqual({ document_bytes: a.length, limit: 1000 });

    // Declared size (Content-Length): refused by the plan-limits check before the body is read.
    const declared = await uploadJson(small.url, key, { title: 'b.md', content: `# B\n\n${'beta '.repeat(100)}` });
    expect(declared.status).toBe(429);
    expect(declared.headers['retry-after']).toBe('86400');
    expect(declared.body.error).toMatchObject({ code: 'quota_exceeded', quota: 'document_bytes', limit: 1000, used: a.length });

    // Streamed without a Content-Length: measured once parsed.
    const streamed = await uploadFiles(small.url, key, [{ filename: 'b.md', content: `# B\n\n${'beta '.repeat(100)}` }], { chunked: true });
    expect(streamed.status).toBe(429);
    expect(streamed.body.error).toMatchObject({ code: 'quota_exceeded', quota: 'document_bytes', limit: 1000, used: a.length });
    expect(streamed.headers['retry-after']).toBe('86400');
    expect(await titles(small.url, key)).toEqual(['a.md']);

    // Replacing a.md by a shorter text keeps the tenant under the limit.
    const shorter = `# A\n\n${'alpha '.repeat(50)}`;
    const replaced = await uploadFiles(small.url, key, [{ filename: 'a.md', content: shorter }], { chunked: true });
    expect(replaced.status).toBe(200);
    expect(replaced.body.documents[0]).toMatchObject({ status: 'updated', chars: shorter.length });
  });
});
