/** Public routes: the agent manifest and the health check. */
import { buildManifest, MANIFEST_PATH } from '../../catalog/manifest.js';
import { VERSION } from '../../version.js';
import type { Route } from '../route.js';

export const routes: Route[] = [
  {
    method: 'GET',
    path: MANIFEST_PATH,
    auth: 'public',
    async handle(ctx) {
      return { status: 200, body: buildManifest(ctx.baseUrl), headers: { 'cache-control': 'public, max-age=300' } };
    },
  },
  {
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    async handle() {
      return { status: 200, body: { status: 'ok', version: VERSION } };
    },
  },
];
