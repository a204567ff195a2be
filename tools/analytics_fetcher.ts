import { z } from 'zod';
import { defineTool } from '../src/catalog/definition.js';
import type { ToolContext } from '../src/catalog/context.js';
import { ToolError } from '../src/errors.js';
import type { FetchedResponse } from '../src/net/fetch.js';
import { jsonMessage, malformed, missingSecret, parseJson, rateLimited, upstreamFailure } from '../src/net/upstream.js';

const PLATFORMS = ['code_host', 'rust_registry', 'js_registry'] as const;
type Platform = (typeof PLATFORMS)[number];

/** What `target` must look like on each platform, and how to say so. */
const TARGETS: Record<Platform, { pattern: RegExp; expected: string }> = {
  // GitHub: owner of 1-39 letters, digits or single inner hyphens; repository of letters, digits, ".", "_", "-".
  code_host: {
    pattern: /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/,
    expected: 'owner/repository, e.g. rust-lang/rust',
  },
  // crates.io: starts with a letter; letters, digits, "-" and "_"; at most 64 characters.
  rust_registry: { pattern: /^[A-Za-z][A-Za-z0-9_-]{0,63}$/, expected: 'a crate name, e.g. serde' },
  // npm: optional @scope/, then a URL-safe name that does not start with "." or "_"; at most 214 characters.
  js_registry: {
    pattern: /^(?=.{1,214}$)(?:@[a-z0-9][a-z0-9._~-]*\/)?[A-Za-z0-9-~][A-Za-z0-9._~-]*$/,
    expected: 'an npm package name, e.g. express or @types/node',
  },
};

const input = z
  .object({
    platform: z.enum(PLATFORMS).describe('code_host (GitHub), rust_registry (crates.io) or js_registry (npm)'),
    target: z.string().min(1).max(214).describe('owner/repository for code_host; the package name for the registries'),
  })
  .superRefine((value, issues) => {
    const rule = TARGETS[value.platform];
    if (rule && !rule.pattern.test(value.target)) {
      issues.addIssue({ code: 'custom', path: ['target'], message: `for ${value.platform}, target must be ${rule.expected}` });
    }
  });

const count = z.number().int().min(0);
const output = z.object({
  platform: z.enum(PLATFORMS),
  target: z.string(),
  source: z.string().describe('The API the figures come from'),
  url: z.string().describe('Public page of the project'),
  stars: count.optional(),
  forks: count.optional(),
  open_issues: count.optional().describe('GitHub counts open pull requests as issues too'),
  downloads_total: count.optional().describe('All-time downloads (crates.io)'),
  downloads_recent: count.optional().describe('Downloads in the last 90 days (crates.io)'),
  downloads_last_week: count.optional().describe('Downloads in the last 7 days (npm)'),
  period: z.object({ start: z.string(), end: z.string() }).optional().describe('The days downloads_last_week covers (npm)'),
  fetched_at: z.string().describe('When docent fetched the figures (RFC 3339)'),
});
type Output = z.infer<typeof output>;

const GITHUB_REPO = z.looseObject({
  full_name: z.string(),
  html_url: z.string(),
  stargazers_count: count,
  forks_count: count,
  open_issues_count: count,
});
const CRATE = z.looseObject({ crate: z.looseObject({ name: z.string(), downloads: count, recent_downloads: count.nullable().optional() }) });
const NPM_POINT = z.looseObject({ downloads: count, start: z.string(), end: z.string(), package: z.string() });

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function shaped<T>(schema: z.ZodType<T>, title: string, response: FetchedResponse): T {
  const parsed = schema.safeParse(parseJson(title, response));
  if (!parsed.success) throw malformed(title, `missing or mistyped fields: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  return parsed.data;
}

async function fromGitHub(target: string, ctx: ToolContext): Promise<Output> {
  const token = ctx.config.secrets.githubToken;
  if (!token) throw missingSecret('GITHUB_TOKEN', 'analytics_fetcher (platform code_host)', 'a GitHub token');
  const github = (await ctx.services.outbound()).service('github');
  const [owner, repo] = target.split('/') as [string, string];
  const response = await github.request(['repos', owner, repo], {
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', authorization: `Bearer ${token}` },
    signal: ctx.signal,
  });
  const message = () => jsonMessage(response, (b) => b.message);
  const remaining = response.headers['x-ratelimit-remaining'];
  if ((response.status === 403 || response.status === 429) && (remaining === '0' || response.headers['retry-after'])) {
    throw rateLimited('The GitHub API', response, message());
  }
  if (response.status === 404) {
    throw new ToolError(`GitHub has no repository ${target} that this token can see. Check the owner/repository spelling.`, 'not_found');
  }
  if (response.status === 401) {
    throw new ToolError('GitHub rejected the token in GITHUB_TOKEN (bad credentials). Ask the operator to set a valid token.', 'upstream_auth');
  }
  if (response.status === 403) {
    throw new ToolError(`GitHub refused access to ${target}${message() ? ` (${message()})` : ''}. The token may lack access to it.`, 'forbidden');
  }
  if (response.status !== 200) throw upstreamFailure('The GitHub API', response, message());
  const repoInfo = shaped(GITHUB_REPO, 'The GitHub API', response);
  return {
    platform: 'code_host',
    target: repoInfo.full_name,
    source: 'GitHub REST API',
    url: repoInfo.html_url,
    stars: repoInfo.stargazers_count,
    forks: repoInfo.forks_count,
    open_issues: repoInfo.open_issues_count,
    fetched_at: now(),
  };
}

async function fromCrates(target: string, ctx: ToolContext): Promise<Output> {
  const crates = (await ctx.services.outbound()).service('crates');
  const response = await crates.request(['crates', target], { signal: ctx.signal });
  const detail = () => jsonMessage(response, (b) => (b.errors as { detail?: string }[] | undefined)?.[0]?.detail);
  if (response.status === 404) throw new ToolError(`crates.io has no crate named ${target}. Check the spelling.`, 'not_found');
  if (response.status === 429) throw rateLimited('The crates.io API', response, detail());
  if (response.status !== 200) throw upstreamFailure('The crates.io API', response, detail());
  const { crate } = shaped(CRATE, 'The crates.io API', response);
  return {
    platform: 'rust_registry',
    target: crate.name,
    source: 'crates.io API',
    url: `https://crates.io/crates/${encodeURIComponent(crate.name)}`,
    downloads_total: crate.downloads,
    ...(crate.recent_downloads == null ? {} : { downloads_recent: crate.recent_downloads }),
    fetched_at: now(),
  };
}

async function fromNpm(target: string, ctx: ToolContext): Promise<Output> {
  const npm = (await ctx.services.outbound()).service('npm');
  // A scoped name is two path segments (@scope/name), as the downloads API documents.
  const response = await npm.request(['downloads', 'point', 'last-week', ...target.split('/')], { signal: ctx.signal });
  const detail = () => jsonMessage(response, (b) => b.error);
  if (response.status === 404) throw new ToolError(`npm has no download figures for a package named ${target}. Check the spelling.`, 'not_found');
  if (response.status === 429) throw rateLimited('The npm downloads API', response, detail());
  if (response.status !== 200) throw upstreamFailure('The npm downloads API', response, detail());
  const point = shaped(NPM_POINT, 'The npm downloads API', response);
  return {
    platform: 'js_registry',
    target: point.package,
    source: 'npm downloads API',
    url: `https://www.npmjs.com/package/${point.package}`,
    downloads_last_week: point.downloads,
    period: { start: point.start, end: point.end },
    fetched_at: now(),
  };
}

const FETCHERS: Record<Platform, (target: string, ctx: ToolContext) => Promise<Output>> = {
  code_host: fromGitHub,
  rust_registry: fromCrates,
  js_registry: fromNpm,
};

function render(v: Output): string {
  const figures =
    v.platform === 'code_host'
      ? `${v.stars} stars, ${v.forks} forks, ${v.open_issues} open issues and pull requests`
      : v.platform === 'rust_registry'
        ? `${v.downloads_total} downloads in total${v.downloads_recent === undefined ? '' : `, ${v.downloads_recent} in the last 90 days`}`
        : `${v.downloads_last_week} downloads from ${v.period?.start} to ${v.period?.end}`;
  return `${v.target} (${v.source}): ${figures}. ${v.url}`;
}

export const analytics_fetcher = defineTool({
  name: 'analytics_fetcher',
  title: 'Project metrics',
  summary: 'GitHub stars/forks/issues, crates.io downloads, npm weekly downloads',
  description:
    'Fetches live adoption metrics of an open-source project: stars, forks and open issues of a GitHub repository ' +
    '(platform `code_host`, target `owner/repo`), total and last-90-days downloads of a Rust crate from crates.io ' +
    '(`rust_registry`, target the crate name), or last-week downloads of an npm package (`js_registry`, target the ' +
    'package name, scoped names like `@types/node` included). Use it to compare libraries or track a project. Not for ' +
    "code search, release notes or private metrics; `code_host` needs the operator's GITHUB_TOKEN.",
  input,
  output,
  side_effects: 'external',
  cost_class: 'metered',
  requires_secret: true,
  hints: [
    'code_host needs GITHUB_TOKEN (set by the operator); rust_registry and js_registry need no credential.',
    'GitHub counts open pull requests in open_issues.',
  ],
  async handler({ platform, target }, ctx) {
    const value = await FETCHERS[platform](target, ctx);
    return { value, text: render(value) };
  },
});
