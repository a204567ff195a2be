/**
 * Route matching: `:name` path segments become URL-decoded params. A path that exists under other methods
 * is a 405 (with `Allow`); a path that exists under none is a 404. HEAD is answered by the GET route.
 */
import { HttpError, type Route } from './route.js';

interface Compiled {
  route: Route;
  segments: { literal?: string; param?: string }[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

function split(path: string): string[] {
  return path.split('/').slice(1);
}

export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => {
      if (!route.path.startsWith('/')) throw new Error(`route path must start with "/": ${route.path}`);
      const segments = split(route.path).map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
      return { route, segments };
    });
    const seen = new Set<string>();
    for (const { route } of this.compiled) {
      const key = `${route.method} ${route.path.replace(/:[^/]+/g, ':')}`;
      if (seen.has(key)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      seen.add(key);
    }
  }

  /** The route for this method and path; throws HttpError 404/405 (or 400 for an undecodable path). */
  match(method: string, pathname: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const parts = split(pathname);
    const allowed = new Set<string>();
    for (const { route, segments } of this.compiled) {
      if (segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const segment = segments[i]!;
        const part = parts[i]!;
        if (segment.literal !== undefined) ok = segment.literal === part;
        else if (part === '') ok = false;
        else params[segment.param!] = decodeSegment(part);
      }
      if (!ok) continue;
      if (route.method === wanted) return { route, params };
      allowed.add(route.method);
    }
    if (allowed.size) {
      const allow = [...allowed, ...(allowed.has('GET') ? ['HEAD'] : [])].join(', ');
      throw new HttpError(405, 'method_not_allowed', `${method} is not supported on ${pathname}; use ${allow}.`, { allow: [...allowed] }, { allow });
    }
    throw new HttpError(
      404,
      'not_found',
      `No route ${method} ${pathname}. See the HTTP API in the README (GET /.well-known/agent-manifest.json lists the tools).`,
    );
  }
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpError(400, 'bad_path', 'The request path is not valid percent-encoding.');
  }
}
