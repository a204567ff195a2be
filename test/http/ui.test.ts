/**
 * The operator page's files over HTTP (the page itself runs in a browser in test/ui/): public, each with the
 * strict CSP and companion headers, revalidated by ETag, and nothing else served under /ui/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/http/routes/ui.js';
import { rawRequest } from '../helpers/cli.js';
import { startApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => t.close());

describe('the operator page files', () => {
  it('serves /, /ui/app.js and /ui/app.css without a key, each under the CSP, nosniff and no-referrer', async () => {
    for (const [path, type] of [
      ['/', 'text/html; charset=utf-8'],
      ['/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/ui/app.css', 'text/css; charset=utf-8'],
    ] as const) {
      const res = await rawRequest(`${t.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers).toMatchObject({
        'content-type': type,
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
        'content-length': String(Buffer.byteLength(res.body)),
      });
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    }
    const page = (await rawRequest(`${t.url}/`)).body;
    // No inline script or style (the CSP would refuse them), and no third-party resources.
    expect(page).toContain('<script type="module" src="/ui/app.js"></script>');
    expect(page).toMatch(/<link rel="stylesheet" href="\/ui\/app\.css"\s*\/?>/);
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=|https?:\/\//i);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await rawRequest(`${t.url}/ui/app.js`);
    const again = await rawRequest(`${t.url}/ui/app.js`, { headers: { 'if-none-match': `W/"x", ${first.headers.etag as string}` } });
    expect([again.status, again.body]).toEqual([304, '']);
    expect(again.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    const page = await rawRequest(`${t.url}/`);
    const head = await rawRequest(`${t.url}/`, { method: 'HEAD' });
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(Buffer.byteLength(page.body))]);
  });

  it('serves nothing else under /ui/, and only GET', async () => {
    for (const path of ['/ui/', '/ui/index.html', '/ui/../package.json', '/ui/%2e%2e/app.js', '/ui/app.js.map']) {
      expect((await rawRequest(`${t.url}${path}`)).status, path).toBe(404);
    }
    const post = await rawRequest(`${t.url}/`, { method: 'POST' });
    expect([post.status, post.json().error.code]).toEqual([405, 'method_not_allowed']);
  });

  it('keeps the DNS-rebinding guard: a foreign Host gets 403', async () => {
    const res = await rawRequest(`${t.url}/`, { headers: { host: 'evil.example' } });
    expect([res.status, res.json().error.code]).toEqual([403, 'forbidden_host']);
  });
});
