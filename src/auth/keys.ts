/**
 * API keys, stored hashed in the `api_keys` table of the data directory.
 *
 * A key reads `dk_<id>_<secret>`: `id` (16 hex digits) is public (shown by `keys list`, used by
 * `keys revoke`), `secret` is 256 random bits. Only the SHA-256 of the whole key is stored, so the key is
 * shown exactly once, when it is created. A fast hash is right here: the secret is random, not a password.
 * Verification looks the record up by id and compares hashes in constant time (timingSafeEqual on the two
 * SHA-256 digests, also against a dummy digest when the id is unknown, so an answer takes as long whether the
 * id exists or not); revoked keys never verify.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';
import type { RecordTable } from '../storage/store.js';
import { PLANS, type ApiKeyRecord, type Plan } from './types.js';

export const API_KEYS_TABLE = {
  name: 'api_keys',
  columns: {
    id: 'string',
    tenant: 'string',
    plan: 'string',
    label: 'string',
    hash: 'string',
    created_at: 'string',
    revoked_at: 'string',
    last_used_at: 'string',
  },
} as const;

const KEY_PATTERN = /^dk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** `last_used_at` is written at most this often per key (each write is a new table version). */
export const LAST_USED_RESOLUTION_MS = 10 * 60 * 1000;

/** A key record as shown to operators: everything but the hash. */
export type ApiKeyInfo = Omit<ApiKeyRecord, 'hash'>;

export interface CreateKeyOptions {
  tenant: string;
  plan?: Plan;
  label?: string | null;
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found';

type KeyRow = ApiKeyRecord & Record<string, unknown>;

/** The id part of a well-formed key, or undefined. */
export function keyId(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Compared against when the id is unknown, so that the comparison runs either way (no key hashes to it). */
const NO_KEY_HASH = Buffer.alloc(32);

export function publicInfo(record: ApiKeyRecord): ApiKeyInfo {
  const { hash: _hash, ...info } = record;
  return info;
}

/**
 * Keys are verified against an in-memory snapshot of the key table (id → record), so authentication costs a
 * map lookup and a hash, not a database query. The snapshot is reloaded when it is older than this: a key
 * revoked or created by another process (`docent keys revoke` beside a running server) is seen within it.
 */
export const KEY_SNAPSHOT_MS = 5_000;
/** An unknown id reloads the snapshot at most this often (a key created a moment ago elsewhere), so a flood of made-up keys costs no queries. */
const UNKNOWN_RELOAD_MS = 1_000;

export class ApiKeys {
  private readonly lastUsedWrites = new Map<string, number>();
  private readonly pendingWrites = new Set<Promise<unknown>>();
  private snapshot?: { at: number; byId: Map<string, KeyRow> };
  private loading?: Promise<{ at: number; byId: Map<string, KeyRow> }>;

  constructor(
    private readonly table: RecordTable<KeyRow>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  static async open(services: Services): Promise<ApiKeys> {
    const store = await services.store();
    return new ApiKeys(await store.records<KeyRow>(API_KEYS_TABLE));
  }

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller's hands. */
  async create(options: CreateKeyOptions): Promise<{ key: string; record: ApiKeyInfo }> {
    const plan = options.plan ?? 'free';
    if (!PLANS.includes(plan)) throw new Error(`unknown plan ${plan}; use one of ${PLANS.join(', ')}`);
    const id = randomBytes(8).toString('hex');
    const key = `dk_${id}_${randomBytes(32).toString('base64url')}`;
    const record: KeyRow = {
      id,
      tenant: options.tenant,
      plan,
      label: options.label?.trim() ? options.label.trim() : null,
      hash: hashKey(key).toString('hex'),
      created_at: this.now().toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    await this.table.insert([record]);
    this.snapshot?.byId.set(id, record);
    return { key, record: publicInfo(record) };
  }

  /** The snapshot of every key, reloaded (once, however many callers wait) when older than `maxAge`. */
  private async keys(maxAge = KEY_SNAPSHOT_MS): Promise<Map<string, KeyRow>> {
    const now = this.now().getTime();
    if (this.snapshot && now - this.snapshot.at < maxAge) return this.snapshot.byId;
    this.loading ??= this.table
      .find({})
      .then((rows) => (this.snapshot = { at: now, byId: new Map(rows.map((r) => [r.id, r])) }))
      .finally(() => (this.loading = undefined));
    return (await this.loading).byId;
  }

  /** The record of a valid, unrevoked key; undefined for anything else. Notes the use (best effort). */
  async verify(key: string): Promise<ApiKeyInfo | undefined> {
    const id = keyId(key);
    if (!id) return undefined;
    let record = (await this.keys()).get(id);
    if (!record) record = (await this.keys(UNKNOWN_RELOAD_MS)).get(id);
    const stored = record ? Buffer.from(record.hash, 'hex') : NO_KEY_HASH;
    const given = hashKey(key);
    const equal = stored.length === given.length && timingSafeEqual(stored, given);
    if (!record || !equal || record.revoked_at !== null) return undefined;
    this.noteUse(record);
    return publicInfo(record);
  }

  private noteUse(record: ApiKeyRecord): void {
    const now = this.now();
    const last = Math.max(record.last_used_at ? Date.parse(record.last_used_at) : 0, this.lastUsedWrites.get(record.id) ?? 0);
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWrites.set(record.id, now.getTime());
    // Not awaited: a request never waits for, or fails because of, this bookkeeping (settled() waits for it).
    const write = this.table.update({ id: record.id }, { last_used_at: now.toISOString() }).catch(() => this.lastUsedWrites.delete(record.id));
    this.pendingWrites.add(write);
    void write.finally(() => this.pendingWrites.delete(write));
  }

  /** Resolves when the last-used notes written so far have landed (before closing the store). */
  async settled(): Promise<void> {
    await Promise.all([...this.pendingWrites]);
  }

  /** Every key (or one tenant's), oldest first, without hashes. */
  async list(tenant?: string): Promise<ApiKeyInfo[]> {
    const rows = await this.table.find(tenant === undefined ? {} : { tenant });
    return rows.map(publicInfo).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async revoke(id: string): Promise<RevokeOutcome> {
    return this.table.exclusive(async () => {
      const [record] = await this.table.find({ id }, { limit: 1 });
      if (!record) return 'not_found';
      if (record.revoked_at !== null) return 'already_revoked';
      const revokedAt = this.now().toISOString();
      await this.table.update({ id }, { revoked_at: revokedAt });
      const cached = this.snapshot?.byId.get(id);
      if (cached) cached.revoked_at = revokedAt;
      return 'revoked';
    });
  }
}

const opened = new WeakMap<Services, Promise<ApiKeys>>();

/** The key store of one process's services (opened once, on first use). */
export function apiKeys(services: Services): Promise<ApiKeys> {
  let keys = opened.get(services);
  if (!keys) {
    keys = ApiKeys.open(services);
    opened.set(services, keys);
    keys.catch(() => opened.delete(services));
  }
  return keys;
}
