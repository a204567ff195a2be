/**
 * The operator page: `GET /` serves src/http/ui/index.html, and `GET /ui/app.js`, `GET /ui/app.css` its
 * script and style. Public (the page asks for an API key and calls the key routes with it); plain files, no
 * build step; `npm run build` copies them next to this module's compiled form (dist/src/http/ui/).
 *
 * Every asset is sent with a strict Content-Security-Policy (scripts, styles and connections from this
 * origin only; no inline code, no frames, no form posts), `X-Content-Type-Options: nosniff` and
 * `Referrer-Policy: no-referrer`, and an ETag: a matching `If-None-Match` is answered 304, and browsers
 * revalidate every time (`Cache-Control: no-cache`), so a new version is picked up at once.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { Route, RouteContext } from '../route.js';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every asset of the page carries. */
export const UI_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const ASSETS: readonly { path: string; file: string; type: string }[] = [
  { path: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/ui/app.js', file: 'app.js', type: 'text/javascript; charset=utf-8' },
  { path: '/ui/app.css', file: 'app.css', type: 'text/css; charset=utf-8' },
];

const UI_DIR = new URL('../ui/', import.meta.url);

interface Loaded {
  body: Buffer;
  etag: string;
}

/** Each asset is read once per process (the files do not change under a running server). */
const loaded = new Map<string, Promise<Loaded>>();

function load(file: string): Promise<Loaded> {
  let asset = loaded.get(file);
  if (!asset) {
    asset = readFile(new URL(file, UI_DIR)).then((body) => ({ body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }));
    asset.catch(() => loaded.delete(file));
    loaded.set(file, asset);
  }
  return asset;
}

function send(ctx: RouteContext, res: ServerResponse, asset: Loaded, type: string): void {
  const headers = { ...UI_HEADERS, etag: asset.etag };
  const match = ctx.req.headers['if-none-match'];
  if (match !== undefined && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': String(asset.body.length) });
  res.end(ctx.req.method === 'HEAD' ? undefined : asset.body);
}

export const routes: Route[] = ASSETS.map(({ path, file, type }): Route => ({
  method: 'GET',
  path,
  auth: 'public',
  raw: true,
  async handle(ctx) {
    send(ctx, ctx.res, await load(file), type);
  },
}));
