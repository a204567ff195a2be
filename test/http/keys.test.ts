/** The API key store on a real LanceDB data directory. */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS_TABLE, ApiKeys, KEY_SNAPSHOT_MS, keyId, LAST_USED_RESOLUTION_MS } from '../../src/auth/keys.js';
import type { ApiKeyRecord } from '../../src/auth/types.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { silentLogger } from '../../src/logging.js';
import { tempDir } from '../helpers/harness.js';

let root: string;
let store: Store;
let keys: ApiKeys;
let clock = Date.parse('2026-01-01T00:00:00Z');

beforeAll(async () => {
  root = await tempDir('docent-keys-');
  store = await openStore(path.join(root, 'data'), silentLogger());
  keys = new ApiKeys(await store.records(API_KEYS_TABLE), () => new Date(clock));
});
const others: ApiKeys[] = [];
afterAll(async () => {
  await Promise.all([keys, ...others].map((k) => k.settled()));
  await store.close();
  await rm(root, { recursive: true, force: true });
});

async function rawRows(): Promise<ApiKeyRecord[]> {
  return (await store.records<ApiKeyRecord & Record<string, unknown>>(API_KEYS_TABLE)).find();
}

describe('ApiKeys', () => {
  it('creates a high-entropy key, returns it once and stores only its hash', async () => {
    const { key, record } = await keys.create({ tenant: 'acme', label: '  ci  ' });
    expect(key).toMatch(/^dk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(keyId(key)).toBe(record.id);
    expect(record).toEqual({
      id: record.id,
      tenant: 'acme',
      plan: 'free',
      label: 'ci',
      created_at: '2026-01-01T00:00:00.000Z',
      revoked_at: null,
      last_used_at: null,
    });
    expect(record).not.toHaveProperty('hash');
    const rows = await rawRows();
    const row = rows.find((r) => r.id === record.id)!;
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key.split('_').slice(2).join('_'));
    clock += 1000;
    const second = await keys.create({ tenant: 'acme', plan: 'pro' });
    expect(second.key).not.toBe(key);
    expect(second.record.plan).toBe('pro');
  });

  it('verifies the exact key only', async () => {
    const { key, record } = await keys.create({ tenant: 'beta' });
    expect(await keys.verify(key)).toMatchObject({ id: record.id, tenant: 'beta', plan: 'free' });
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expect(await keys.verify(key.slice(0, -1) + last)).toBeUndefined();
    expect(await keys.verify(`dk_0000000000000000_${key.split('_').slice(2).join('_')}`)).toBeUndefined();
    for (const bad of ['', 'dk_', key.toUpperCase(), `${key}x`, ` ${key}`, "dk_' OR 1=1 --_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]) {
      expect(await keys.verify(bad), bad).toBeUndefined();
    }
  });

  it('notes when a key was last used, at most once per resolution window', async () => {
    const { key, record } = await keys.create({ tenant: 'gamma' });
    await keys.verify(key);
    await expect.poll(async () => (await keys.list('gamma'))[0]!.last_used_at).toBe(new Date(clock).toISOString());
    const versionsBefore = await (await store.openTable('api_keys', undefined as never)).version();
    clock += LAST_USED_RESOLUTION_MS / 2;
    await keys.verify(key);
    expect(await (await store.openTable('api_keys', undefined as never)).version()).toBe(versionsBefore);
    clock += LAST_USED_RESOLUTION_MS;
    await keys.verify(key);
    await expect.poll(async () => (await keys.list('gamma'))[0]!.last_used_at).toBe(new Date(clock).toISOString());
    expect(record.id).toBe((await keys.list('gamma'))[0]!.id);
  });

  it('lists keys (optionally one tenant) without hashes, oldest first', async () => {
    const all = await keys.list();
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const k of all) expect(k).not.toHaveProperty('hash');
    expect((await keys.list('acme')).map((k) => k.plan)).toEqual(['free', 'pro']);
    expect(await keys.list('nobody')).toEqual([]);
  });

  it('revokes by id: the key stops verifying at once', async () => {
    const { key, record } = await keys.create({ tenant: 'delta' });
    expect(await keys.verify(key)).toBeDefined();
    expect(await keys.revoke(record.id)).toBe('revoked');
    expect(await keys.verify(key)).toBeUndefined();
    expect(await keys.revoke(record.id)).toBe('already_revoked');
    expect(await keys.revoke('0123456789abcdef')).toBe('not_found');
    expect(await keys.revoke("x' OR '1'='1")).toBe('not_found');
    expect((await keys.list('delta'))[0]!.revoked_at).not.toBeNull();
  });

  it('verifies from memory: a key revoked or created by another process is seen within KEY_SNAPSHOT_MS', async () => {
    // Another process's view of the same table (as `docent keys revoke` beside a running server).
    const other = new ApiKeys(await store.records(API_KEYS_TABLE), () => new Date(clock));
    others.push(other);
    const { key, record } = await keys.create({ tenant: 'epsilon' });
    expect(await other.verify(key)).toBeDefined();
    expect(await keys.revoke(record.id)).toBe('revoked');
    // Within the bound the other process may still accept it; past it, never.
    clock += KEY_SNAPSHOT_MS;
    expect(await other.verify(key)).toBeUndefined();
    // A key created elsewhere verifies without waiting for the bound.
    const created = await keys.create({ tenant: 'epsilon' });
    clock += 2_000;
    expect(await other.verify(created.key)).toBeDefined();
  });
});
