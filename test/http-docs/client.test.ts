/**
 * The client library (`docent/client`) against the real server: `docent serve --http` as a process, keys
 * made by `docent keys create --json`, and a local fixture server for what docent itself never does (hang,
 * answer HTML). Typed results, typed errors with the HTTP status, and the API key kept out of every error.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DocentAuthError,
  DocentClient,
  DocentConfirmationRequiredError,
  DocentError,
  DocentRateLimitError,
  type QueryResult,
  type UploadedDocument,
} from '../../src/client/index.js';
import { QueryResultSchema } from '../../src/docs/types.js';
import { cleanEnv, runCli, startHttpServer, type RunningServer } from '../helpers/cli.js';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/harness.js';
import { fixture } from './helpers.js';

let root: string;
let server: RunningServer;
let fixtures: FixtureServer;
let proKey: string;
let freeKey: string;
let docent: DocentClient;
const errors: unknown[] = [];

/** The error a call throws (kept, to prove afterwards that no error carries a key). */
async function failure(promise: Promise<unknown>): Promise<DocentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocentError);
  errors.push(error);
  return error as DocentError;
}

beforeAll(async () => {
  root = await tempDir('docent-client-');
  const env = cleanEnv(root, { DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_FREE_REQUESTS_PER_MINUTE: '3' });
  const create = async (...args: string[]) => {
    const result = await runCli(['keys', 'create', '--json', ...args], { env, cwd: root });
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { key: string }).key;
  };
  proKey = await create('--tenant', 'acme', '--plan', 'pro');
  freeKey = await create('--tenant', 'limited');
  [server, fixtures] = await Promise.all([startHttpServer([], { env, cwd: root }), startFixtureServer()]);
  docent = new DocentClient({ baseUrl: `${server.url}//`, apiKey: proKey });
});

afterAll(async () => {
  await fixtures?.close();
  expect(await server?.stop()).toBe(0);
  await rm(root, { recursive: true, force: true });
});

describe('DocentClient against docent serve --http', () => {
  it('uploads a document and files, and lists them', async () => {
    const one: UploadedDocument = await docent.uploadDocument({
      title: 'notes/widgets.md',
      content: '# Widgets\n\nThe `frobnicate` command resets the widget cache.\n',
      url: 'https://docs.example.com/widgets',
    });
    expect(one).toMatchObject({ title: 'notes/widgets.md', status: 'added', content_type: 'markdown', chunks: 1, url: 'https://docs.example.com/widgets' });
    const files = await docent.uploadFiles([
      { name: 'install.md', content: await fixture('install.md') },
      { name: 'guides/rotation.rst', content: new TextEncoder().encode(await fixture('guides/rotation.rst')) },
    ]);
    expect(files.map((d) => [d.title, d.status])).toEqual([
      ['install.md', 'added'],
      ['guides/rotation.rst', 'added'],
    ]);
    const again = await docent.uploadDocument({
      title: 'notes/widgets.md',
      content: '# Widgets\n\nThe `frobnicate` command resets the widget cache.\n',
      url: 'https://docs.example.com/widgets',
    });
    expect(again.status).toBe('unchanged');
    expect((await docent.listDocuments()).map((d) => d.title)).toEqual(['guides/rotation.rst', 'install.md', 'notes/widgets.md']);
  });

  it('ragQuery returns the typed query result: grounded with sources, or a refusal with a reason', async () => {
    const result: QueryResult = await docent.ragQuery('How do I reset the widget cache?');
    expect(QueryResultSchema.strict().parse(result)).toEqual(result);
    expect(result.grounded).toBe(true);
    expect(result.sources[0]).toMatchObject({ title: 'notes/widgets.md', url: 'https://docs.example.com/widgets' });
    expect(result.answer).toContain('frobnicate');

    const one = await docent.ragQuery('How do I install without development dependencies using --omit=dev?', { topK: 1 });
    expect(one.sources.map((s) => s.title)).toEqual(['install.md']);

    const refused = await docent.ragQuery('How do I call `rotateFiles()` every night?');
    expect(refused).toMatchObject({ grounded: false });
    expect(refused.answer).toBeUndefined();
    expect(refused.reason).toMatch(/`rotateFiles\(\)`/);
  });

  it('bad input is a DocentError with status 400, the code and the field', async () => {
    const error = await failure(docent.ragQuery('', { topK: 3 }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_arguments', details: { field: 'question' } });
    expect(error).not.toBeInstanceOf(DocentAuthError);
    const tooMany = await failure(docent.ragQuery('What?', { topK: 50 }));
    expect(tooMany.details.field).toBe('top_k');
  });

  it('deleteDocument removes by id; an unknown id is a DocentError 404', async () => {
    const id = (await docent.listDocuments()).find((d) => d.title === 'notes/widgets.md')!.id;
    await expect(docent.deleteDocument(id)).resolves.toBeUndefined();
    expect((await docent.listDocuments()).map((d) => d.title)).toEqual(['guides/rotation.rst', 'install.md']);
    const error = await failure(docent.deleteDocument(id));
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(error.requestId).toMatch(/\S/);
    const odd = await failure(docent.deleteDocument('../../keys'));
    expect(odd.status).toBe(404);
  });

  it('an agent client gets a DocentConfirmationRequiredError first, and deletes with its token', async () => {
    const scratch = await docent.uploadDocument({ title: 'scratch.txt', content: 'Scratch notes about the teal widget.' });
    const agent = new DocentClient({ baseUrl: server.url, apiKey: proKey, userAgent: 'ClaudeCode/1.0' });
    const error = await failure(agent.deleteDocument(scratch.id));
    expect(error).toBeInstanceOf(DocentConfirmationRequiredError);
    expect(error.status).toBe(409);
    expect((await docent.listDocuments()).map((d) => d.title)).toContain('scratch.txt');
    await agent.deleteDocument(scratch.id, { confirmationToken: (error as DocentConfirmationRequiredError).confirmationToken });
    expect((await docent.listDocuments()).map((d) => d.title)).not.toContain('scratch.txt');
  });

  it('document sets: uploads into a set, lists and filters by set, scopes ragQuery, deletes a whole set', async () => {
    const a = await docent.uploadDocument({
      title: 'README.md',
      content: '# Alpha client\n\nThe alpha client retries a failed request three times.\n',
      library: 'libA',
    });
    expect(a).toMatchObject({ library: 'libA', uri: 'docent://libA/README.md', status: 'added' });
    const [b] = await docent.uploadFiles([{ name: 'README.md', content: '# Beta server\n\nThe beta server listens on port 8443 by default.\n' }], {
      library: 'libB',
    });
    expect(b).toMatchObject({ library: 'libB', title: 'README.md', status: 'added' });
    expect((await docent.listLibraries()).map((l) => [l.library, l.documents])).toEqual([
      ['default', 2],
      ['libA', 1],
      ['libB', 1],
    ]);
    expect((await docent.listDocuments({ library: 'libB' })).map((d) => d.id)).toEqual([b!.id]);
    const scoped = await docent.ragQuery('Which port does the beta server listen on by default?', { library: 'libB' });
    expect(scoped).toMatchObject({ grounded: true, sources: [{ title: 'README.md', library: 'libB', uri: 'docent://libB/README.md' }] });
    expect(await failure(docent.ragQuery('Which port?', { library: 'libZ' }))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await docent.deleteLibrary('libA')).toBe(1);
    expect(await docent.deleteLibrary('libB')).toBe(1);
    expect(await failure(docent.deleteLibrary('libB'))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a missing or wrong key is a DocentAuthError with status 401', async () => {
    const anonymous = new DocentClient({ baseUrl: server.url });
    const missing = await failure(anonymous.ragQuery('How do I install lumen?'));
    expect(missing).toBeInstanceOf(DocentAuthError);
    expect(missing).toMatchObject({ status: 401, code: 'missing_api_key' });
    const wrongKey = `${proKey.slice(0, -4)}beef`;
    const wrong = await failure(new DocentClient({ baseUrl: server.url, apiKey: wrongKey }).listDocuments());
    expect(wrong).toBeInstanceOf(DocentAuthError);
    expect(wrong).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(`${wrong.message} ${wrong.stack} ${JSON.stringify(wrong.details)}`).not.toContain(wrongKey);
  });

  it('callTool runs a catalog tool; a tool failure or unknown tool is a DocentError', async () => {
    const sum = await docent.callTool<{ result: string }>('calculator', { operation: 'add', a: 0.1, b: 0.2 });
    expect(sum).toMatchObject({ ok: true, result: { result: '0.3' } });
    const bad = await failure(docent.callTool('calculator', { operation: 'cube', a: 1 }));
    expect(bad).toMatchObject({ status: 400, code: 'invalid_arguments' });
    const unknown = await failure(docent.callTool('no_such_tool'));
    expect(unknown).toMatchObject({ status: 404, code: 'unknown_tool' });
  });

  it('manifest() needs no key and lists the catalog', async () => {
    const manifest = await new DocentClient({ baseUrl: server.url }).manifest();
    expect(manifest.provider).toBe('docent');
    expect(manifest.manifest_url).toBe(`${server.baseUrl}/.well-known/agent-manifest.json`);
    const rag = manifest.tools.find((t) => t.name === 'rag_query')!;
    expect(rag).toMatchObject({ side_effects: 'none', cost_class: 'free', input_schema: { type: 'object', required: ['question'] } });
  });

  it("a plan's rate limit is a DocentRateLimitError with retryAfter from Retry-After", async () => {
    const limited = new DocentClient({ baseUrl: server.url, apiKey: freeKey });
    let error: DocentError | undefined;
    let ok = 0;
    for (let i = 0; i < 6 && !error; i++) {
      try {
        await limited.listDocuments();
        ok++;
      } catch (e) {
        error = e as DocentError;
        errors.push(e);
      }
    }
    expect(ok).toBe(3);
    expect(error).toBeInstanceOf(DocentRateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', details: { limit: 3, window: 'minute' } });
    const retryAfter = (error as DocentRateLimitError).retryAfter;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(retryAfter).toBe((error as DocentRateLimitError).details.retry_after_seconds);
  });

  it('no error, and no inspection of the client, shows the API key', () => {
    expect(errors.length).toBeGreaterThanOrEqual(10);
    for (const error of errors) {
      const text = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)} ${inspect(error, { depth: 5 })}`;
      expect(text).not.toContain(proKey);
      expect(text).not.toContain(freeKey);
    }
    expect(inspect(docent, { showHidden: true, depth: 5 })).not.toContain(proKey);
    expect(JSON.stringify(docent)).not.toContain(proKey);
  });
});

describe('DocentClient at the edges (local fixture server)', () => {
  it('joins paths to a base URL with a prefix and trailing slashes, and sends the request as documented', async () => {
    const answer: QueryResult = { grounded: false, sources: [], confidence: 0, reason: 'No documentation has been ingested.' };
    fixtures.handle((_req, res) => sendJson(res, 200, answer));
    const client = new DocentClient({ baseUrl: `${fixtures.url}/docent///`, apiKey: 'dk_test_key' });
    expect(client.baseUrl).toBe(`${fixtures.url}/docent`);
    expect(await client.ragQuery('Anything?', { topK: 2 })).toEqual(answer);
    const sent = fixtures.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/docent/v1/query', body: JSON.stringify({ question: 'Anything?', top_k: 2 }) });
    expect(sent.headers).toMatchObject({
      authorization: 'Bearer dk_test_key',
      'content-type': 'application/json',
      'user-agent': 'docent-client',
      accept: 'application/json',
    });
  });

  it('a non-JSON error page is a DocentError with the status', async () => {
    fixtures.handle((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    const error = await failure(new DocentClient({ baseUrl: fixtures.url, apiKey: 'dk_test_key' }).listDocuments());
    expect(error).toMatchObject({ status: 502, code: 'http_error' });
    expect(error.message).toBe('GET /v1/documents failed with HTTP 502 Bad Gateway.');
  });

  it('a server that never answers is a timeout (status 0); an unreachable one a network_error', async () => {
    fixtures.handle(() => undefined);
    const slow = new DocentClient({ baseUrl: fixtures.url, apiKey: 'dk_test_key', timeoutMs: 200 });
    const timeout = await failure(slow.ragQuery('Anything?'));
    expect(timeout).toMatchObject({ status: 0, code: 'timeout' });
    const aborted = new AbortController();
    const pending = failure(slow.listDocuments({ signal: aborted.signal, timeoutMs: 10_000 }));
    aborted.abort();
    expect(await pending).toMatchObject({ status: 0, code: 'aborted' });

    const closed = await startFixtureServer();
    const url = closed.url;
    await closed.close();
    const unreachable = await failure(new DocentClient({ baseUrl: url, apiKey: 'dk_test_key' }).listDocuments());
    expect(unreachable).toMatchObject({ status: 0, code: 'network_error' });
    expect(unreachable.message).toContain('ECONNREFUSED');
  });

  it('refuses bad options without echoing secrets', () => {
    expect(() => new DocentClient({ baseUrl: 'http://user:s3cret-pass@127.0.0.1:1' })).toThrow(/must not contain credentials/);
    try {
      new DocentClient({ baseUrl: 'http://user:s3cret-pass@127.0.0.1:1' });
    } catch (error) {
      expect(String(error)).not.toContain('s3cret-pass');
    }
    expect(() => new DocentClient({ baseUrl: 'ftp://127.0.0.1' })).toThrow(/http or https/);
    expect(() => new DocentClient({ baseUrl: 'not a url' })).toThrow(/absolute http\(s\) URL/);
    expect(() => new DocentClient({ baseUrl: 'http://127.0.0.1', apiKey: 'dk_abc\r\nx-evil: 1' })).toThrow(/apiKey must be/);
    expect(() => new DocentClient({ baseUrl: 'http://127.0.0.1', apiKey: 'dk_abc\r\nx-evil: 1' })).not.toThrow(/dk_abc/);
    expect(() => new DocentClient({ baseUrl: 'http://127.0.0.1', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
