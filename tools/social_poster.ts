import { z } from 'zod';
import { actionInputShape, checkAction, defineActions } from '../src/catalog/actions.js';
import { defineTool } from '../src/catalog/definition.js';
import { ToolError } from '../src/errors.js';
import { POST_STATUSES, PostStore, type PostRow } from '../src/tenants/posts.js';
import { resolveTenant, tenantIdInput } from '../src/tenants/tenant.js';
import { characterCount, PLATFORM_LIMITS, PLATFORMS } from '../src/social/platforms.js';

/** The fields each action reads (besides action and tenant_id): validation and field descriptions come from here. */
const SPEC = defineActions({
  selector: 'action',
  selectorDoc: 'What to do',
  fields: {
    platform: { schema: z.enum(PLATFORMS), doc: `Where the post goes: one of ${PLATFORMS.join(', ')}` },
    content: {
      schema: z
        .string()
        .max(10_000)
        .refine((s) => s.trim() !== '', 'must not be empty'),
      doc: 'The text of the post, exactly as it will be published',
    },
    post_id: { schema: z.string().trim().min(1).max(100), doc: 'The id of the post, from create_draft or list_posts' },
    scheduled_at: {
      schema: z.iso.datetime({ offset: true, message: 'an ISO 8601 date-time with a time zone, e.g. 2026-05-04T09:30:00Z' }),
      doc: 'When the post should go out: an ISO 8601 date-time with Z or an offset, in the future',
    },
  },
  actions: {
    create_draft: { platform: 'required', content: 'required' },
    list_posts: { platform: ['optional', 'a filter'] },
    schedule: { post_id: 'required', scheduled_at: 'required' },
    post: { post_id: 'required' },
  },
});
const ACTIONS = Object.keys(SPEC.actions) as [keyof typeof SPEC.actions];

const post = z.object({
  id: z.string(),
  platform: z.enum(PLATFORMS),
  content: z.string(),
  characters: z.number().int(),
  limit: z.number().int(),
  status: z.enum(POST_STATUSES),
  scheduled_at: z.string().nullable(),
  posted_at: z.string().nullable(),
  external_id: z.string().nullable().describe("The platform's id of the published post"),
  url: z.string().nullable(),
  error: z.string().nullable().describe('Why the last send failed, for failed posts'),
  attempts: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

const output = z.object({
  action: z.enum(ACTIONS),
  tenant_id: z.string(),
  post: post.optional(),
  posts: z.array(post).optional(),
  already_posted: z.boolean().optional().describe('post: true when the post had been published before this call (nothing was sent)'),
});

function shown(row: PostRow): z.infer<typeof post> {
  return {
    id: row.id,
    platform: row.platform,
    content: row.content,
    characters: characterCount(row.content),
    limit: PLATFORM_LIMITS[row.platform].maxChars,
    status: row.status,
    scheduled_at: row.scheduled_at,
    posted_at: row.posted_at,
    external_id: row.external_id,
    url: row.url,
    error: row.error,
    attempts: row.attempts,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function line(p: PostRow): string {
  const when = p.status === 'posted' ? ` ${p.posted_at}${p.url ? ` ${p.url}` : ''}` : p.status === 'scheduled' ? ` for ${p.scheduled_at}` : '';
  const error = p.status === 'failed' && p.error ? ` (${p.error})` : '';
  const preview = p.content.length > 80 ? `${p.content.slice(0, 77)}...` : p.content;
  return `- ${p.id} [${p.platform}] ${p.status}${when}${error}: ${JSON.stringify(preview)}`;
}

export const social_poster = defineTool({
  name: 'social_poster',
  title: 'Social posts',
  summary: 'Per-tenant drafts, scheduling and confirmed posting (Mastodon, LinkedIn, Discord, Reddit)',
  description:
    "Drafts, schedules and publishes a tenant's social posts for a launch campaign. Actions: `create_draft` " +
    "(platform, content; refused when the text is over the platform's limit: microblog 280, professional_network " +
    '3000, chat_community 2000, launch_site 260 characters), `list_posts` (optional platform filter), `schedule` ' +
    '(post_id, scheduled_at: an ISO 8601 date-time in the future; marks the post as planned, docent does not ' +
    'publish it by itself), `post` (post_id: publishes it now on the connected account; the user must confirm the ' +
    'text first, every time). A post that failed can be posted again; a published post is never sent twice. ' +
    'Use it to prepare and publish announcements; not for direct messages or reading feeds.',
  input: z.object({ ...actionInputShape(SPEC), tenant_id: tenantIdInput }),
  output,
  side_effects: 'mutating',
  cost_class: 'free',
  requires_secret: true,
  hints: [
    'post always asks the user to confirm the exact text before it is published.',
    "Posting needs the platform's credentials configured by the operator; the error names the variable when one is missing.",
  ],
  async handler(input, ctx) {
    const tenant = resolveTenant(ctx, input.tenant_id);
    const args = checkAction(SPEC, input);
    const action = args.action;
    const posts = await PostStore.open(ctx.services);
    const base = { action, tenant_id: tenant };

    switch (args.action) {
      case 'create_draft': {
        const { platform, content } = args;
        const limit = PLATFORM_LIMITS[platform];
        const length = characterCount(content);
        if (length > limit.maxChars) {
          throw new ToolError(
            `\`content\` is ${length} characters, over ${limit.why} by ${length - limit.maxChars}. Shorten it to at most ` +
              `${limit.maxChars} characters and call again. Nothing was saved.`,
            'too_long',
            { field: 'content', platform, characters: length, limit: limit.maxChars },
          );
        }
        await ctx.confirm({ kind: 'safe', summary: `Save a ${platform} draft for tenant "${tenant}"`, preview: content });
        const row = await posts.create(tenant, platform, content);
        return { value: { ...base, post: shown(row) }, text: `Saved draft ${row.id} for ${platform} (${length}/${limit.maxChars} characters).` };
      }
      case 'list_posts': {
        const rows = await posts.list(tenant, args.platform);
        const text = rows.length
          ? `${rows.length} post${rows.length === 1 ? '' : 's'} for tenant "${tenant}":\n${rows.map(line).join('\n')}`
          : `No posts for tenant "${tenant}"${args.platform ? ` on ${args.platform}` : ''}.`;
        return { value: { ...base, posts: rows.map(shown) }, text };
      }
      case 'schedule': {
        const { post_id: postId, scheduled_at: at } = args;
        const when = new Date(at);
        const now = new Date();
        if (when.getTime() <= now.getTime()) {
          throw new ToolError(
            `\`scheduled_at\` ${at} is not in the future (now is ${now.toISOString()}). Give a later date-time, or use action post to publish now. Nothing was changed.`,
            'invalid_arguments',
            { field: 'scheduled_at' },
          );
        }
        await posts.get(tenant, postId);
        await ctx.confirm({ kind: 'safe', summary: `Schedule post ${postId} for ${when.toISOString()} (tenant "${tenant}")` });
        const row = await posts.schedule(tenant, postId, when.toISOString(), now);
        return {
          value: { ...base, post: shown(row) },
          text: `Post ${row.id} is scheduled for ${row.scheduled_at}. docent does not publish by itself: call post with this post_id when it is time.`,
        };
      }
      case 'post': {
        const postId = args.post_id;
        const current = await posts.get(tenant, postId);
        if (current.status === 'posted') {
          return {
            value: { ...base, post: shown(current), already_posted: true },
            text: `Post ${current.id} was already published on ${current.posted_at}${current.url ? ` (${current.url})` : ''}; it was not sent again.`,
          };
        }
        const { adapterFor, SendFailure } = await ctx.services.social();
        const adapter = adapterFor(current.platform);
        const missing = adapter
          .settings(ctx.config)
          .filter((s) => !s.present)
          .map((s) => s.env);
        if (missing.length) {
          throw new ToolError(
            `Posting to ${current.platform} (${adapter.service}) needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not set. ` +
              `The operator sets ${missing.length === 1 ? 'it' : 'them'} in docent's environment and restarts it. The post is unchanged (${current.status}).`,
            'not_configured',
            { field: 'platform', missing },
          );
        }
        const schedule = current.status === 'scheduled' ? ` (scheduled for ${current.scheduled_at}; publishing now)` : '';
        const retry = current.status === 'failed' ? ` (retry after: ${current.error})` : '';
        await ctx.confirm({
          kind: 'send',
          summary: `Publish post ${current.id} as ${adapter.describe(ctx.config)}${schedule}${retry}`,
          preview: current.content,
        });

        const timeoutMs = ctx.config.social.timeoutSeconds * 1000;
        const claim = await posts.claim(tenant, postId, { staleAfterMs: timeoutMs + 60_000, deduplicates: adapter.deduplicates, service: adapter.service });
        if (claim.kind === 'already_posted') {
          return { value: { ...base, post: shown(claim.post), already_posted: true }, text: `Post ${postId} was published meanwhile; it was not sent again.` };
        }
        try {
          const endpoint = (await ctx.services.outbound()).service(adapter.endpoint);
          const delivered = await adapter.send(ctx.config, endpoint, {
            content: claim.post.content,
            idempotencyKey: claim.post.idempotency_key,
            timeoutMs,
            signal: ctx.signal,
          });
          const row = await posts.markPosted(tenant, postId, delivered);
          ctx.logger.info({ post: postId, platform: row.platform, external_id: row.external_id }, 'post published');
          return {
            value: { ...base, post: shown(row), already_posted: false },
            text: `Published post ${row.id} on ${adapter.service} (id ${row.external_id}${row.url ? `, ${row.url}` : ''}).`,
          };
        } catch (error) {
          const known = error instanceof SendFailure;
          if (!known) ctx.logger.error({ err: error, post: postId }, 'post failed unexpectedly');
          const reason = known ? error.message : `${adapter.service} send failed unexpectedly; it may still have published the post`;
          const maybe = known ? error.maybeDelivered : true;
          const row = await posts.markFailed(tenant, postId, reason);
          const next =
            maybe && !adapter.deduplicates
              ? `It may have been published anyway: check ${adapter.service} before calling post again.`
              : `Fix the cause and call post again to retry${adapter.deduplicates ? `; ${adapter.service} drops a repeat of this post, so it will not appear twice` : ''}.`;
          throw new ToolError(`Posting ${row.id} failed: ${reason}. The post is marked failed. ${next}`, 'upstream_error', {
            field: 'post_id',
            post_id: row.id,
            status: row.status,
            error: reason,
          });
        }
      }
    }
  },
});
