/**
 * Social posts, one table for every tenant, every read and write filtered by tenant.
 *
 * States: `draft` → `scheduled` → `posted` | `failed`; a draft may be posted directly and a failed post may
 * be scheduled or posted again. `posted` is final. A send is claimed first (`sending_since`, under the
 * table's exclusive section), so two concurrent `post` calls cannot both send; a post that is `posted` is
 * never sent again. Each post carries one idempotency key for its whole life, passed to platforms that
 * deduplicate by key, so a repeat after an unknown outcome does not publish twice there either.
 */
import { randomBytes } from 'node:crypto';
import { ToolError } from '../errors.js';
import type { Services } from '../services.js';
import type { Platform } from '../social/platforms.js';
import type { RecordTable, TableSpec } from '../storage/store.js';
import { newId, nowIso, RECORD_ID } from './fields.js';
import { openTenantTable } from './maintenance.js';

export const POST_STATUSES = ['draft', 'scheduled', 'posted', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export interface PostRow {
  [column: string]: unknown;
  id: string;
  tenant: string;
  platform: Platform;
  content: string;
  status: PostStatus;
  scheduled_at: string | null;
  posted_at: string | null;
  external_id: string | null;
  url: string | null;
  error: string | null;
  idempotency_key: string;
  attempts: number;
  /** Set while a send is in flight (the claim); cleared when it ends either way. */
  sending_since: string | null;
  created_at: string;
  updated_at: string;
}

export const POSTS_TABLE: TableSpec = {
  name: 'social_posts',
  columns: {
    id: 'string',
    tenant: 'string',
    platform: 'string',
    content: 'string',
    status: 'string',
    scheduled_at: 'string',
    posted_at: 'string',
    external_id: 'string',
    url: 'string',
    error: 'string',
    idempotency_key: 'string',
    attempts: 'number',
    sending_since: 'string',
    created_at: 'string',
    updated_at: 'string',
  },
};

export function postNotFound(postId: string, tenant: string): ToolError {
  return new ToolError(`No post with id "${postId}" for tenant "${tenant}". Call list_posts to see the tenant's post ids. Nothing was changed.`, 'not_found', {
    field: 'post_id',
  });
}

export type Claim = { kind: 'claimed'; post: PostRow; resumed: boolean } | { kind: 'already_posted'; post: PostRow };

export class PostStore {
  private constructor(
    private readonly table: RecordTable<PostRow>,
    private readonly wrote: () => void,
  ) {}

  static async open(services: Services): Promise<PostStore> {
    const { table, wrote } = await openTenantTable<PostRow>(services, POSTS_TABLE);
    return new PostStore(table, wrote);
  }

  /** Updates one post of the tenant and notes the write. */
  private async set(tenant: string, id: string, values: Partial<PostRow>): Promise<void> {
    await this.table.update({ tenant, id }, values);
    this.wrote();
  }

  async create(tenant: string, platform: Platform, content: string, now = new Date()): Promise<PostRow> {
    const at = nowIso(now);
    const row: PostRow = {
      id: newId('post'),
      tenant,
      platform,
      content,
      status: 'draft',
      scheduled_at: null,
      posted_at: null,
      external_id: null,
      url: null,
      error: null,
      idempotency_key: randomBytes(12).toString('hex'),
      attempts: 0,
      sending_since: null,
      created_at: at,
      updated_at: at,
    };
    await this.table.exclusive(() => this.table.insert([row]));
    this.wrote();
    return row;
  }

  async list(tenant: string, platform?: Platform): Promise<PostRow[]> {
    const rows = await this.table.find({ tenant, ...(platform ? { platform } : {}) });
    return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async get(tenant: string, postId: string): Promise<PostRow> {
    if (!RECORD_ID.test(postId)) throw postNotFound(postId, tenant);
    const [row] = await this.table.find({ tenant, id: postId }, { limit: 1 });
    if (!row) throw postNotFound(postId, tenant);
    return row;
  }

  async schedule(tenant: string, postId: string, scheduledAt: string, now = new Date()): Promise<PostRow> {
    return this.table.exclusive(async () => {
      const post = await this.get(tenant, postId);
      if (post.status === 'posted') {
        throw new ToolError(`Post ${post.id} was already posted on ${post.posted_at}; it cannot be scheduled again. Nothing was changed.`, 'conflict', {
          field: 'post_id',
        });
      }
      if (post.sending_since) {
        throw new ToolError(`Post ${post.id} is being sent right now; wait for that to finish. Nothing was changed.`, 'conflict', { field: 'post_id' });
      }
      const values = { status: 'scheduled' as const, scheduled_at: scheduledAt, updated_at: nowIso(now) };
      await this.set(tenant, post.id, values);
      return { ...post, ...values };
    });
  }

  /**
   * Claims a post for sending. A claim older than `staleAfterMs` was abandoned (the process stopped while
   * sending): when the platform deduplicates by key it is resumed with the same key; otherwise the post is
   * marked `failed` with an "outcome unknown" reason and the caller must look before posting again.
   */
  async claim(tenant: string, postId: string, options: { staleAfterMs: number; deduplicates: boolean; service: string }, now = new Date()): Promise<Claim> {
    return this.table.exclusive(async () => {
      const post = await this.get(tenant, postId);
      if (post.status === 'posted') return { kind: 'already_posted', post };
      let resumed = false;
      if (post.sending_since) {
        const age = now.getTime() - Date.parse(post.sending_since);
        if (age < options.staleAfterMs) {
          throw new ToolError(`Post ${post.id} is being sent right now by another call; it will not be sent twice. Check list_posts in a moment.`, 'conflict', {
            field: 'post_id',
          });
        }
        if (!options.deduplicates) {
          const error = `Outcome unknown: a send to ${options.service} started at ${post.sending_since} never finished (the server stopped). Check ${options.service} for the post before posting again.`;
          await this.set(tenant, post.id, { status: 'failed', error, sending_since: null, updated_at: nowIso(now) });
          throw new ToolError(`${error} The post is now marked failed; calling post again will send it.`, 'outcome_unknown', {
            field: 'post_id',
            post_id: post.id,
            status: 'failed',
          });
        }
        resumed = true;
      }
      const values = { sending_since: nowIso(now), attempts: post.attempts + 1, updated_at: nowIso(now) };
      await this.set(tenant, post.id, values);
      return { kind: 'claimed', post: { ...post, ...values }, resumed };
    });
  }

  async markPosted(tenant: string, postId: string, delivered: { externalId: string; url: string | null }, now = new Date()): Promise<PostRow> {
    return this.table.exclusive(async () => {
      const post = await this.get(tenant, postId);
      const values = {
        status: 'posted' as const,
        posted_at: nowIso(now),
        external_id: delivered.externalId,
        url: delivered.url,
        error: null,
        sending_since: null,
        updated_at: nowIso(now),
      };
      await this.set(tenant, post.id, values);
      return { ...post, ...values };
    });
  }

  async markFailed(tenant: string, postId: string, reason: string, now = new Date()): Promise<PostRow> {
    return this.table.exclusive(async () => {
      const post = await this.get(tenant, postId);
      const values = { status: 'failed' as const, error: reason, sending_since: null, updated_at: nowIso(now) };
      await this.set(tenant, post.id, values);
      return { ...post, ...values };
    });
  }
}
