/**
 * The outbound client handed to tools through `ctx.services.outbound()`: every request docent sends to
 * the internet goes through it.
 *
 * - `outbound.fetch(url, { policy, accept, ... })`: a URL that came from a caller (a feed, a webhook, a
 *   document to ingest). Caller mode: the full destination guard (destination.ts), always.
 * - `outbound.service(name)`: an endpoint the operator configured (SERVICE_ENDPOINTS). Trusted mode: it
 *   may point at loopback (tests use local fixture servers). Requests are built from the configured base
 *   plus percent-encoded path segments and must stay under that base, so no input can move them elsewhere.
 *
 * There is no option, setting or argument that turns a caller URL into a trusted one.
 */
import type { Config } from '../config.js';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logging.js';
import { OutboundError } from './errors.js';
import { fetchGuarded, fetchTrusted, type FetchOptions, type FetchedResponse, type GuardedFetchOptions, type NetworkOptions } from './fetch.js';
import { bareHost } from './destination.js';

export interface ServiceSpec {
  /** How errors name the service, e.g. "the GitHub API". */
  title: string;
  /** The setting an operator changes to move it. */
  env: string;
  base(config: Config): string;
}

export const WEB_SEARCH_ENDPOINTS = {
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
} as const;

/** Operator-configured endpoints: the only URLs fetched in trusted mode. */
export const SERVICE_ENDPOINTS = {
  github: { title: 'the GitHub API', env: 'DOCENT_GITHUB_API_URL', base: (c) => c.services.githubApiUrl },
  crates: { title: 'the crates.io API', env: 'DOCENT_CRATES_API_URL', base: (c) => c.services.cratesApiUrl },
  npm: { title: 'the npm downloads API', env: 'DOCENT_NPM_API_URL', base: (c) => c.services.npmApiUrl },
  arxiv: { title: 'the arXiv API', env: 'DOCENT_ARXIV_API_URL', base: (c) => c.services.arxivApiUrl },
  wikipedia: { title: 'the Wikipedia API', env: 'DOCENT_WIKIPEDIA_API_URL', base: (c) => c.services.wikipediaApiUrl },
  webSearch: {
    title: 'the web search API',
    env: 'DOCENT_WEB_SEARCH_API_URL',
    base: (c) => c.services.webSearchApiUrl ?? WEB_SEARCH_ENDPOINTS[c.services.webSearchProvider],
  },
  // social_poster's platform adapters (src/social).
  mastodon: { title: 'Mastodon', env: 'DOCENT_MASTODON_URL', base: (c) => c.social.mastodonUrl },
  linkedin: { title: 'LinkedIn', env: 'DOCENT_LINKEDIN_API_URL', base: (c) => c.social.linkedinApiUrl },
  discord: { title: 'Discord', env: 'DOCENT_DISCORD_API_URL', base: (c) => c.social.discordApiUrl },
  reddit: { title: 'Reddit', env: 'DOCENT_REDDIT_API_URL', base: (c) => c.social.redditApiUrl },
} satisfies Record<string, ServiceSpec>;

export type ServiceName = keyof typeof SERVICE_ENDPOINTS;

/** Template variables in a configured base (`{lang}`): short lower-case tokens only. */
const TEMPLATE_VALUE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Characters RFC 3986 allows unescaped in a path segment that encodeURIComponent escapes anyway. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%40/g, '@').replace(/%3A/g, ':');
}

export type Query = Record<string, string | number | undefined>;

export interface ServiceRequest extends Omit<FetchOptions, 'accept'> {
  accept?: readonly string[];
  query?: Query;
}

export class ServiceEndpoint {
  constructor(
    readonly name: ServiceName,
    readonly title: string,
    readonly base: URL,
    private readonly send: (url: URL, options: FetchOptions) => Promise<FetchedResponse>,
  ) {}

  /** The URL of `segments` under the base; each segment is percent-encoded on its own. */
  url(segments: readonly string[] = [], query: Query = {}): URL {
    for (const segment of segments) {
      if (segment === '' || segment === '.' || segment === '..') {
        throw new OutboundError(`refused: "${segment}" is not a valid path segment for ${this.title}`, 'refused', 'path');
      }
    }
    const basePath = this.base.pathname.replace(/(?<!\/)\/+$/, '');
    const path = segments.length ? `${basePath}/${segments.map(encodeSegment).join('/')}` : this.base.pathname;
    const url = new URL(`${this.base.origin}${path}`);
    if (url.origin !== this.base.origin || url.pathname !== path) {
      throw new OutboundError(`refused: the request would leave ${this.title}`, 'refused', 'path');
    }
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url;
  }

  request(segments: readonly string[], options: ServiceRequest = {}): Promise<FetchedResponse> {
    const { query, accept = ['application/json'], ...rest } = options;
    return this.send(this.url(segments, query), { ...rest, accept });
  }
}

export class Outbound {
  constructor(
    readonly config: Config,
    private readonly logger: Logger,
    private readonly network: NetworkOptions = {},
  ) {}

  /** Fetches a caller-supplied URL under the destination guard of `options.policy`. */
  async fetch(url: string | URL, options: GuardedFetchOptions): Promise<FetchedResponse> {
    const { policy, accept, method, headers, body, maxBytes, timeoutMs, connectTimeoutMs, maxRedirects, signal } = options;
    const guarded: GuardedFetchOptions = {
      policy,
      accept,
      method,
      headers,
      body,
      maxBytes,
      timeoutMs: timeoutMs ?? this.config.outbound.timeoutMs,
      connectTimeoutMs,
      maxRedirects,
      signal,
    };
    return this.logged(policy.label, () => fetchGuarded(url, guarded, this.network));
  }

  /** An operator-configured endpoint; `vars` fill `{name}` placeholders of its base URL. */
  service(name: ServiceName, vars: Record<string, string> = {}): ServiceEndpoint {
    const spec: ServiceSpec = SERVICE_ENDPOINTS[name];
    let raw = spec.base(this.config);
    raw = raw.replace(/\{([a-z]+)\}/g, (_match, key: string) => {
      const value = vars[key];
      if (value === undefined || !TEMPLATE_VALUE.test(value)) {
        throw new OutboundError(`refused: "${value ?? ''}" is not a valid ${key} for ${spec.title}`, 'refused', 'template');
      }
      return value;
    });
    let base: URL;
    try {
      base = new URL(raw);
    } catch {
      throw new ConfigError(`${spec.env} is not a valid URL once filled in: set it to an http(s) URL`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') {
      throw new ConfigError(`${spec.env} must be an http or https URL`);
    }
    const timeout = this.config.outbound.timeoutMs;
    const subject = spec.title.charAt(0).toUpperCase() + spec.title.slice(1);
    return new ServiceEndpoint(name, spec.title, base, (url, options) =>
      this.logged(name, () => fetchTrusted(url, spec.title, { ...options, timeoutMs: options.timeoutMs ?? timeout }, this.network)).catch((error: unknown) => {
        // Say which service failed: its host alone may be an unfamiliar proxy or a fixture address.
        if (error instanceof OutboundError) throw new OutboundError(`${subject}: ${error.message}`, error.failure, error.rule);
        throw error;
      }),
    );
  }

  /** Runs one exchange and logs its outcome by host and status only (paths and queries may be secrets). */
  private async logged(label: string, run: () => Promise<FetchedResponse>): Promise<FetchedResponse> {
    const started = performance.now();
    try {
      const response = await run();
      this.logger.debug(
        {
          outbound: label,
          host: bareHost(response.url),
          status: response.status,
          bytes: response.body.length,
          redirects: response.redirects,
          ms: Math.round(performance.now() - started),
        },
        'outbound request',
      );
      return response;
    } catch (error) {
      if (error instanceof OutboundError) {
        this.logger.info({ outbound: label, failure: error.failure, rule: error.rule, ms: Math.round(performance.now() - started) }, error.message);
      }
      throw error;
    }
  }
}
