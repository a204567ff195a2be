/**
 * The one configuration schema. Layers: defaults → environment → command-line flags, validated once and
 * frozen. Every setting is declared once in SETTINGS (its path, environment variable, flag and help text);
 * the CLI help and the README configuration table are generated from that list.
 *
 * A bad value is a ConfigError that names the variable or flag to fix (the operator's error channel).
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { isAgentEnvironment } from './policy/agent-mode.js';

const bool = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v)));
const port = z.coerce.number({ error: 'must be a port number from 0 to 65535' }).int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalUrl = z.url().optional();
const optionalString = z.string().min(1).optional();

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(xdg, 'docent');
}

/** A tenant id: safe in paths, logs and store filters. Shared by config, API keys and the tenant tools. */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const TENANT_ID_RULE = 'letters, digits, "_", "." or "-", at most 64, starting with a letter or digit';
/** A plan limit: a count, where 0 means unlimited. */
const planLimit = z.coerce.number().int().min(0);
const planLimits = z.object({ requestsPerMinute: planLimit, requestsPerMonth: planLimit, documentBytes: planLimit });

export const ConfigSchema = z.object({
  dataDir: z.string().min(1),
  tenant: z.string().regex(TENANT_ID_PATTERN, TENANT_ID_RULE),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  baseUrl: z.url(),
  workspaceDir: z.string().min(1),
  http: z.object({
    host: z.string().min(1),
    port,
    auth: z.enum(['key', 'none']),
    stateless: bool,
    allowedHosts: z.array(z.string()),
    allowedOrigins: z.array(z.string()),
    headersTimeoutMs: z.coerce.number().int().min(100),
    requestTimeoutMs: z.coerce.number().int().min(100),
    keepAliveTimeoutMs: z.coerce.number().int().min(100),
    maxConnections: z.coerce.number().int().min(1),
    sessionsPerTenant: z.coerce.number().int().min(1),
    streamsPerTenant: z.coerce.number().int().min(1),
    authFailuresPerMinute: z.coerce.number().int().min(0),
  }),
  policy: z.object({
    agentEnv: bool,
    paidCallBudget: z.coerce.number().int().min(0),
    confirmSafeOps: z.enum(['outside_agent_mode', 'never']),
    confirmationTtlSeconds: positiveInt,
  }),
  embeddings: z.object({ baseUrl: optionalUrl, model: optionalString, apiKey: optionalString }),
  llm: z.object({ baseUrl: optionalUrl, model: optionalString, apiKey: optionalString, toolCalling: z.enum(['auto', 'native', 'json']) }),
  docs: z.object({ answers: z.enum(['auto', 'extractive']), rewrite: z.enum(['auto', 'off']), rewriteTimeoutMs: z.coerce.number().int().min(100).max(60000) }),
  uploads: z.object({ maxFileBytes: positiveInt, maxRequestBytes: positiveInt }),
  services: z.object({
    githubApiUrl: z.url(),
    cratesApiUrl: z.url(),
    npmApiUrl: z.url(),
    arxivApiUrl: z.url(),
    wikipediaApiUrl: z.string().min(1),
    webSearchProvider: z.enum(['brave', 'tavily']),
    /** Unset: the provider's own endpoint (src/net/web-search.ts). */
    webSearchApiUrl: optionalUrl,
    chatWebhookHost: z
      .string()
      .regex(
        /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:[1-9]\d{0,4})?$/,
        'a lowercase host name with an optional :port, e.g. hooks.slack.com',
      ),
  }),
  secrets: z.object({ githubToken: optionalString, webSearchApiKey: optionalString }),
  outbound: z.object({ timeoutMs: positiveInt }),
  social: z.object({
    timeoutSeconds: positiveInt,
    mastodonUrl: z.url(),
    mastodonToken: optionalString,
    mastodonVisibility: z.enum(['public', 'unlisted', 'private']),
    linkedinApiUrl: z.url(),
    linkedinToken: optionalString,
    linkedinAuthor: z
      .string()
      .regex(/^urn:li:(person|organization):[A-Za-z0-9_-]+$/, 'a LinkedIn author URN such as urn:li:person:AbC123 or urn:li:organization:12345')
      .optional(),
    linkedinVersion: z.string().regex(/^\d{6}$/, 'a LinkedIn API version, YYYYMM'),
    discordApiUrl: z.url(),
    discordBotToken: optionalString,
    discordChannelId: z
      .string()
      .regex(/^\d{1,25}$/, 'a Discord channel id (digits)')
      .optional(),
    redditApiUrl: z.url(),
    redditToken: optionalString,
    redditSubreddit: z
      .string()
      .regex(/^[A-Za-z0-9_]{2,21}$/, 'a subreddit name without r/')
      .optional(),
  }),
  limits: z.object({ free: planLimits, pro: planLimits, usageFlushSeconds: positiveInt }),
  /** Object-store access for a data location such as s3://bucket/prefix (LanceDB storage options). */
  storage: z.object({
    awsAccessKeyId: optionalString,
    awsSecretAccessKey: optionalString,
    awsSessionToken: optionalString,
    awsRegion: optionalString,
    awsEndpointUrl: optionalUrl,
    awsAllowHttp: bool,
  }),
  redis: z.object({
    url: z
      .string()
      .regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')
      .optional(),
    lockLeaseMs: z.coerce.number().int().min(500).max(600_000),
  }),
});

export type Config = z.infer<typeof ConfigSchema>;

/** One configurable setting: where it lives in Config, and where an operator sets it. */
export interface Setting {
  path: string;
  env?: string[];
  flag?: string;
  default?: unknown;
  doc: string;
  secret?: boolean;
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const SETTINGS: readonly Setting[] = [
  {
    path: 'dataDir',
    env: ['DOCENT_DATA_DIR'],
    flag: 'data-dir',
    doc: 'Where the LanceDB data lives (documents, keys, tenant records, usage): a directory, or an object-store URI such as s3://bucket/prefix (also gs://, az://; credentials from the AWS_* settings). Default: $XDG_DATA_HOME/docent or ~/.local/share/docent.',
  },
  { path: 'tenant', env: ['DOCENT_TENANT'], flag: 'tenant', default: 'default', doc: 'Tenant used over stdio and by local CLI commands.' },
  { path: 'logLevel', env: ['DOCENT_LOG_LEVEL'], flag: 'log-level', default: 'info', doc: 'pino log level; logs go to stderr.' },
  { path: 'baseUrl', env: ['DOCENT_BASE_URL'], flag: 'base-url', doc: "Public base URL, used in the manifest's manifest_url. Default: http://<host>:<port>." },
  {
    path: 'workspaceDir',
    env: ['DOCENT_WORKSPACE_DIR'],
    flag: 'workspace',
    default: './agent_workspace',
    doc: 'Sandbox directory of file_operations, relative to the working directory.',
  },
  { path: 'http.host', env: ['DOCENT_HOST'], flag: 'host', default: '127.0.0.1', doc: 'HTTP listen address.' },
  { path: 'http.port', env: ['DOCENT_PORT'], flag: 'port', default: 8787, doc: 'HTTP listen port (0 picks a free one).' },
  { path: 'http.auth', env: ['DOCENT_AUTH'], flag: 'auth', default: 'key', doc: '`key` (Bearer API keys) or `none` (loopback only).' },
  {
    path: 'http.stateless',
    env: ['DOCENT_STATELESS'],
    flag: 'stateless',
    default: false,
    doc: 'Streamable HTTP without sessions, for replicas behind a load balancer (no elicitation).',
  },
  {
    path: 'http.allowedHosts',
    env: ['DOCENT_ALLOWED_HOSTS'],
    default: [],
    doc: 'Extra Host header values accepted (comma-separated), beyond loopback names and the base URL host.',
  },
  { path: 'http.allowedOrigins', env: ['DOCENT_ALLOWED_ORIGINS'], default: [], doc: 'Extra browser Origins accepted (comma-separated).' },
  {
    path: 'http.headersTimeoutMs',
    env: ['DOCENT_HTTP_HEADERS_TIMEOUT_MS'],
    default: 10000,
    doc: 'A connection that has not sent its whole request head within this many milliseconds is closed (slow-client defence).',
  },
  {
    path: 'http.requestTimeoutMs',
    env: ['DOCENT_HTTP_REQUEST_TIMEOUT_MS'],
    default: 120000,
    doc: 'A request whose head and body have not arrived within this many milliseconds is closed (large uploads need it long enough).',
  },
  {
    path: 'http.keepAliveTimeoutMs',
    env: ['DOCENT_HTTP_KEEPALIVE_TIMEOUT_MS'],
    default: 5000,
    doc: 'An idle keep-alive connection is closed after this many milliseconds.',
  },
  {
    path: 'http.sessionsPerTenant',
    env: ['DOCENT_MCP_SESSIONS_PER_TENANT'],
    default: 64,
    doc: "MCP sessions one tenant may hold open at once on /mcp; past it the tenant's oldest idle session is closed, or, when none is idle, initialize is refused with 429.",
  },
  {
    path: 'http.streamsPerTenant',
    env: ['DOCENT_MCP_STREAMS_PER_TENANT'],
    default: 32,
    doc: 'Server-to-client streams (GET /mcp) one tenant may hold open at once across its MCP sessions; past it a new stream is refused with 429.',
  },
  {
    path: 'http.authFailuresPerMinute',
    env: ['DOCENT_AUTH_FAILURES_PER_MINUTE'],
    default: 30,
    doc: 'Failed authentications (malformed, unknown or revoked keys) one client address may make per minute, with bursts up to the same number; past it they are answered 429 with Retry-After (valid keys are always accepted). 0 = no limit.',
  },
  {
    path: 'http.maxConnections',
    env: ['DOCENT_HTTP_MAX_CONNECTIONS'],
    default: 1024,
    doc: 'Open connections the HTTP server accepts at once; beyond it new ones are dropped.',
  },
  {
    path: 'policy.agentEnv',
    env: ['SERVICE_AGENT', 'CLAUDE_CODE', 'CURSOR_AGENT'],
    default: false,
    doc: 'Any of these set (stdio) marks the caller as an agent.',
  },
  {
    path: 'policy.paidCallBudget',
    env: ['DOCENT_PAID_CALL_BUDGET'],
    default: 20,
    doc: 'Paid calls auto-confirmed per tenant in agent mode before explicit confirmation is needed.',
  },
  {
    path: 'policy.confirmSafeOps',
    env: ['DOCENT_CONFIRM_SAFE_OPS'],
    default: 'never',
    doc: '`outside_agent_mode` asks before safe writes when the caller is not an agent; `never` does not.',
  },
  { path: 'policy.confirmationTtlSeconds', env: ['DOCENT_CONFIRMATION_TTL'], default: 600, doc: 'Lifetime of a confirmation token, in seconds.' },
  { path: 'embeddings.baseUrl', env: ['DOCENT_EMBEDDINGS_BASE_URL'], doc: 'OpenAI-compatible embeddings endpoint; enables hybrid search.' },
  { path: 'embeddings.model', env: ['DOCENT_EMBEDDINGS_MODEL'], doc: 'Embedding model name.' },
  { path: 'embeddings.apiKey', env: ['DOCENT_EMBEDDINGS_API_KEY', 'OPENAI_API_KEY'], secret: true, doc: 'API key of the embeddings endpoint.' },
  { path: 'llm.baseUrl', env: ['DOCENT_LLM_BASE_URL'], doc: 'OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio).' },
  { path: 'llm.model', env: ['DOCENT_LLM_MODEL'], doc: 'Chat model name.' },
  { path: 'llm.apiKey', env: ['DOCENT_LLM_API_KEY', 'OPENAI_API_KEY'], secret: true, doc: 'API key of the chat endpoint.' },
  {
    path: 'llm.toolCalling',
    env: ['DOCENT_LLM_TOOL_CALLING'],
    default: 'auto',
    doc: 'How the chat endpoint calls tools: `native` (API tool calls), `json` (a JSON text protocol, for models without tool support) or `auto` (native, falling back to json when the endpoint refuses tools).',
  },
  {
    path: 'docs.answers',
    env: ['DOCENT_ANSWERS'],
    default: 'auto',
    doc: 'Documentation answers: `auto` lets a model (the chat endpoint, else MCP sampling) write them from passages of the five best documents, checked against them, falling back to quotes; the model also says when the passages do not answer, and judges what the lexical evidence alone would refuse; `extractive` always quotes the passages (no model).',
  },
  {
    path: 'docs.rewrite',
    env: ['DOCENT_QUERY_REWRITE'],
    default: 'auto',
    doc: "Query rewrite: `auto` asks a model for the documentation's likely wording of a question, searched beside the question: the configured chat endpoint, else the calling agent's model (MCP sampling, when the client offers it); `off` never does. With neither nothing is asked.",
  },
  {
    path: 'docs.rewriteTimeoutMs',
    env: ['DOCENT_QUERY_REWRITE_TIMEOUT_MS'],
    default: 4000,
    doc: 'Longest wait for a query rewrite, in milliseconds; past it the question is searched as asked.',
  },
  {
    path: 'uploads.maxFileBytes',
    env: ['DOCENT_UPLOAD_MAX_FILE_BYTES'],
    default: 5242880,
    doc: 'Largest document accepted by POST /v1/documents, in bytes (5 MiB); larger ones are refused with 413.',
  },
  {
    path: 'uploads.maxRequestBytes',
    env: ['DOCENT_UPLOAD_MAX_REQUEST_BYTES'],
    default: 20971520,
    doc: 'Largest POST /v1/documents request (all files of a multipart upload, or the JSON body), in bytes (20 MiB); larger ones are refused with 413.',
  },
  { path: 'services.githubApiUrl', env: ['DOCENT_GITHUB_API_URL'], default: 'https://api.github.com', doc: 'GitHub REST API base (analytics_fetcher).' },
  { path: 'services.cratesApiUrl', env: ['DOCENT_CRATES_API_URL'], default: 'https://crates.io/api/v1', doc: 'crates.io API base (analytics_fetcher).' },
  { path: 'services.npmApiUrl', env: ['DOCENT_NPM_API_URL'], default: 'https://api.npmjs.org', doc: 'npm downloads API base (analytics_fetcher).' },
  {
    path: 'services.arxivApiUrl',
    env: ['DOCENT_ARXIV_API_URL'],
    default: 'https://export.arxiv.org/api/query',
    doc: 'arXiv query endpoint (preprint_search).',
  },
  {
    path: 'services.wikipediaApiUrl',
    env: ['DOCENT_WIKIPEDIA_API_URL'],
    default: 'https://{lang}.wikipedia.org/api/rest_v1',
    doc: 'Wikipedia REST base; {lang} is filled in (encyclopedia).',
  },
  {
    path: 'services.webSearchProvider',
    env: ['DOCENT_WEB_SEARCH_PROVIDER'],
    default: 'brave',
    doc: 'Web search provider of web_search: `brave` (Brave Search API) or `tavily` (Tavily Search API).',
  },
  {
    path: 'services.webSearchApiUrl',
    env: ['DOCENT_WEB_SEARCH_API_URL'],
    doc: "Web search provider endpoint (web_search). Default: the provider's own, https://api.search.brave.com/res/v1/web/search or https://api.tavily.com/search.",
  },
  { path: 'services.chatWebhookHost', env: ['DOCENT_CHAT_WEBHOOK_HOST'], default: 'hooks.slack.com', doc: 'The only host chat_webhook posts to.' },
  { path: 'secrets.githubToken', env: ['GITHUB_TOKEN'], secret: true, doc: 'GitHub token (analytics_fetcher code_host).' },
  { path: 'secrets.webSearchApiKey', env: ['DOCENT_WEB_SEARCH_API_KEY'], secret: true, doc: 'Web search provider key (web_search).' },
  {
    path: 'outbound.timeoutMs',
    env: ['DOCENT_OUTBOUND_TIMEOUT_MS'],
    default: 15000,
    doc: 'Time limit of one outbound HTTP request, redirects included, in milliseconds (connecting is limited to 5 s within it).',
  },
  { path: 'social.timeoutSeconds', env: ['DOCENT_SOCIAL_TIMEOUT'], default: 20, doc: 'Seconds social_poster waits for a platform to answer a post.' },
  {
    path: 'social.mastodonUrl',
    env: ['DOCENT_MASTODON_URL'],
    default: 'https://mastodon.social',
    doc: 'Mastodon instance of the microblog account (social_poster, POST /api/v1/statuses).',
  },
  {
    path: 'social.mastodonToken',
    env: ['DOCENT_MASTODON_TOKEN'],
    secret: true,
    doc: 'Mastodon access token with the write:statuses scope (social_poster microblog).',
  },
  {
    path: 'social.mastodonVisibility',
    env: ['DOCENT_MASTODON_VISIBILITY'],
    default: 'public',
    doc: 'Visibility of microblog posts: public, unlisted or private.',
  },
  {
    path: 'social.linkedinApiUrl',
    env: ['DOCENT_LINKEDIN_API_URL'],
    default: 'https://api.linkedin.com',
    doc: 'LinkedIn API base (social_poster professional_network, POST /rest/posts).',
  },
  {
    path: 'social.linkedinToken',
    env: ['DOCENT_LINKEDIN_TOKEN'],
    secret: true,
    doc: 'LinkedIn OAuth access token with w_member_social (or w_organization_social) (social_poster professional_network).',
  },
  {
    path: 'social.linkedinAuthor',
    env: ['DOCENT_LINKEDIN_AUTHOR'],
    doc: 'Author URN of professional_network posts: urn:li:person:<id> or urn:li:organization:<id>.',
  },
  {
    path: 'social.linkedinVersion',
    env: ['DOCENT_LINKEDIN_VERSION'],
    default: '202609',
    doc: 'LinkedIn-Version header (YYYYMM) sent with professional_network posts.',
  },
  {
    path: 'social.discordApiUrl',
    env: ['DOCENT_DISCORD_API_URL'],
    default: 'https://discord.com/api/v10',
    doc: 'Discord API base (social_poster chat_community, POST /channels/{id}/messages).',
  },
  {
    path: 'social.discordBotToken',
    env: ['DOCENT_DISCORD_BOT_TOKEN'],
    secret: true,
    doc: 'Discord bot token with Send Messages in the channel (social_poster chat_community).',
  },
  { path: 'social.discordChannelId', env: ['DOCENT_DISCORD_CHANNEL_ID'], doc: 'Discord channel id chat_community posts go to.' },
  {
    path: 'social.redditApiUrl',
    env: ['DOCENT_REDDIT_API_URL'],
    default: 'https://oauth.reddit.com',
    doc: 'Reddit OAuth API base (social_poster launch_site, POST /api/submit).',
  },
  {
    path: 'social.redditToken',
    env: ['DOCENT_REDDIT_TOKEN'],
    secret: true,
    doc: 'Reddit OAuth bearer token with the submit scope (social_poster launch_site).',
  },
  { path: 'social.redditSubreddit', env: ['DOCENT_REDDIT_SUBREDDIT'], doc: 'Subreddit launch_site posts are submitted to, without r/ (e.g. SideProject).' },
  {
    path: 'limits.free.requestsPerMinute',
    env: ['DOCENT_FREE_REQUESTS_PER_MINUTE'],
    default: 60,
    doc: 'Free plan: authenticated HTTP requests per minute per API key (0 = unlimited).',
  },
  {
    path: 'limits.free.requestsPerMonth',
    env: ['DOCENT_FREE_REQUESTS_PER_MONTH'],
    default: 10000,
    doc: 'Free plan: authenticated HTTP requests per calendar month (UTC) per API key (0 = unlimited).',
  },
  {
    path: 'limits.free.documentBytes',
    env: ['DOCENT_FREE_DOCUMENT_BYTES'],
    default: 26214400,
    doc: 'Free plan: bytes of documentation a tenant may store (25 MiB; 0 = unlimited).',
  },
  {
    path: 'limits.pro.requestsPerMinute',
    env: ['DOCENT_PRO_REQUESTS_PER_MINUTE'],
    default: 600,
    doc: 'Pro plan: authenticated HTTP requests per minute per API key (0 = unlimited).',
  },
  {
    path: 'limits.pro.requestsPerMonth',
    env: ['DOCENT_PRO_REQUESTS_PER_MONTH'],
    default: 1000000,
    doc: 'Pro plan: authenticated HTTP requests per calendar month (UTC) per API key (0 = unlimited).',
  },
  {
    path: 'limits.pro.documentBytes',
    env: ['DOCENT_PRO_DOCUMENT_BYTES'],
    default: 2147483648,
    doc: 'Pro plan: bytes of documentation a tenant may store (2 GiB; 0 = unlimited).',
  },
  { path: 'storage.awsAccessKeyId', env: ['AWS_ACCESS_KEY_ID'], secret: true, doc: 'Access key id for an s3:// data location.' },
  { path: 'storage.awsSecretAccessKey', env: ['AWS_SECRET_ACCESS_KEY'], secret: true, doc: 'Secret access key for an s3:// data location.' },
  { path: 'storage.awsSessionToken', env: ['AWS_SESSION_TOKEN'], secret: true, doc: 'Session token for temporary credentials (s3:// data location).' },
  { path: 'storage.awsRegion', env: ['AWS_REGION', 'AWS_DEFAULT_REGION'], doc: "Region of the s3:// data location's bucket." },
  { path: 'storage.awsEndpointUrl', env: ['AWS_ENDPOINT_URL'], doc: 'S3-compatible endpoint (MinIO, a local stand-in); unset for AWS S3 itself.' },
  { path: 'storage.awsAllowHttp', env: ['AWS_ALLOW_HTTP'], default: false, doc: 'Allow plain http to AWS_ENDPOINT_URL (a local endpoint only).' },
  {
    path: 'redis.url',
    env: ['DOCENT_REDIS_URL'],
    flag: 'redis-url',
    secret: true,
    doc: 'Redis shared by replicas (redis://host:port/db): per-minute and monthly limits, session slots, confirmation tokens and the write locks of the data location. Unset: kept in this process (one process per data location).',
  },
  {
    path: 'redis.lockLeaseMs',
    env: ['DOCENT_LOCK_LEASE_MS'],
    default: 15000,
    doc: "Lease of a write lock in Redis, in milliseconds: the holder renews it while it writes; a replica that dies holding it blocks that table's writers at most this long.",
  },
  {
    path: 'limits.usageFlushSeconds',
    env: ['DOCENT_USAGE_FLUSH_SECONDS'],
    default: 5,
    doc: 'How often monthly request counts are written to the data directory.',
  },
];

const LIST_PATHS = new Set(['http.allowedHosts', 'http.allowedOrigins']);

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export interface ConfigSources {
  env?: NodeJS.ProcessEnv;
  /** Parsed command-line flags keyed by flag name (without dashes). */
  flags?: Record<string, unknown>;
  /** Programmatic overrides (tests, embedding) keyed by setting path; applied last. */
  overrides?: Record<string, unknown>;
  cwd?: string;
}

/** Builds the frozen Config, or throws a ConfigError naming every setting to fix. */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const flags = sources.flags ?? {};
  const cwd = sources.cwd ?? process.cwd();
  const raw: Record<string, unknown> = {};
  const origin = new Map<string, string>();

  for (const s of SETTINGS) {
    let value = s.default;
    let from = `default of ${s.path}`;
    if (s.path === 'policy.agentEnv') {
      value = isAgentEnvironment(env);
      from = 'environment';
    } else {
      const name = s.env?.find((n) => env[n] !== undefined && env[n] !== '');
      if (name) {
        value = LIST_PATHS.has(s.path) ? list(env[name]!) : env[name];
        from = `environment variable ${name}`;
      }
      if (s.flag && flags[s.flag] !== undefined) {
        value = flags[s.flag];
        from = `flag --${s.flag}`;
      }
    }
    if (sources.overrides && s.path in sources.overrides) {
      value = sources.overrides[s.path];
      from = `setting ${s.path}`;
    }
    origin.set(s.path, from);
    if (value !== undefined) setPath(raw, s.path, value);
  }

  for (const section of ['embeddings', 'llm', 'secrets', 'storage', 'redis']) raw[section] ??= {};
  raw.dataDir ??= defaultDataDir(env);
  const http = raw.http as { host: string; port: number | string };
  raw.baseUrl ??= `http://${http.host.includes(':') ? `[${http.host}]` : http.host}:${http.port}`;

  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    // A base URL built from a bad host or port is not a second problem: only the setting given is reported.
    const derived = origin.get('baseUrl')?.startsWith('default') && parsed.error.issues.some((i) => i.path[0] === 'http');
    const issues = parsed.error.issues.filter((issue) => !(derived && issue.path.join('.') === 'baseUrl'));
    const problems = issues.map((issue) => {
      const key = issue.path.join('.');
      return `${origin.get(key) ?? key}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  const config = parsed.data;
  if (!isObjectStoreLocation(config.dataDir)) config.dataDir = path.resolve(cwd, config.dataDir);
  config.workspaceDir = path.resolve(cwd, config.workspaceDir);
  config.baseUrl = config.baseUrl.replace(/(?<!\/)\/+$/, '');
  return deepFreeze(config);
}

/** An object-store URI (s3://, gs://, az://, …) rather than a local directory. Mirrors src/storage's test without loading LanceDB. */
export function isObjectStoreLocation(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !/^file:\/\//i.test(location);
}

/** LanceDB storage options from the storage settings (only those set). */
export function storageOptions(config: Config): Record<string, string> {
  const s = config.storage;
  const options: Record<string, string> = {};
  if (s.awsAccessKeyId) options.aws_access_key_id = s.awsAccessKeyId;
  if (s.awsSecretAccessKey) options.aws_secret_access_key = s.awsSecretAccessKey;
  if (s.awsSessionToken) options.aws_session_token = s.awsSessionToken;
  if (s.awsRegion) options.aws_region = s.awsRegion;
  if (s.awsEndpointUrl) options.aws_endpoint = s.awsEndpointUrl;
  if (s.awsAllowHttp) options.allow_http = 'true';
  return options;
}

/** Markdown table of every setting, for `--help` and the README. */
export function settingsTable(): string {
  const rows = SETTINGS.map((s) => {
    const env = s.env?.map((e) => `\`${e}\``).join(', ') ?? '';
    const flag = s.flag ? `\`--${s.flag}\`` : '';
    const def = s.default === undefined ? '' : `\`${Array.isArray(s.default) ? s.default.join(',') : String(s.default)}\``;
    return `| ${env} | ${flag} | ${def} | ${s.doc} |`;
  });
  return ['| Environment | Flag | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
