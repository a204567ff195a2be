/**
 * Monthly request counts per API key, kept in the `api_usage` table (one row per key and calendar month,
 * UTC) and counted in memory between writes.
 *
 * Counting never waits for storage: `record` is synchronous once a key's month is loaded (one read the
 * first time a key is seen in a month), and pending counts are added to the stored row by `flush`, which
 * the limits check runs on a timer and at shutdown. Several server processes on one data directory each add
 * their own counts to the row; each refreshes its view of the total on every flush, so a quota is exact in
 * one process and at most one flush interval behind across processes.
 *
 * With Redis (a distributed SharedState) the count lives there instead: seeded once from the stored row,
 * incremented atomically by every replica, so a quota holds across replicas up to the requests in flight at
 * the moment it is reached. Flushes then write Redis's total into the row (never lowering it).
 */
import type { Services } from '../services.js';
import type { SharedState } from '../shared/state.js';
import type { RecordTable, TableSpec } from '../storage/store.js';

export interface UsageRow {
  [column: string]: unknown;
  key_id: string;
  tenant: string;
  /** Calendar month, UTC: `YYYY-MM`. */
  month: string;
  requests: number;
  updated_at: string;
}

export const USAGE_TABLE: TableSpec = {
  name: 'api_usage',
  columns: { key_id: 'string', tenant: 'string', month: 'string', requests: 'number', updated_at: 'string' },
};

/** Every this many flushes the table's versions are compacted and old ones removed from disk. */
const OPTIMIZE_EVERY_FLUSHES = 100;

export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** The first instant of the month after `now` (UTC): when a monthly quota resets. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

interface Counter {
  tenant: string;
  /** The stored total when last read or flushed. */
  stored: number;
  /** Counted here since then. */
  pending: number;
}

export class UsageMeter {
  private readonly counters = new Map<string, Counter>();
  private readonly loading = new Map<string, Promise<Counter>>();
  private flushing?: Promise<void>;
  private flushes = 0;
  /** Redis mode: the counters recorded here since the last flush (id → tenant). */
  private readonly touched = new Map<string, string>();

  constructor(
    private readonly table: RecordTable<UsageRow>,
    private readonly shared?: SharedState,
  ) {}

  static async open(services: Services): Promise<UsageMeter> {
    const [store, shared] = await Promise.all([services.store(), services.shared()]);
    return new UsageMeter(await store.records<UsageRow>(USAGE_TABLE), shared.kind === 'redis' ? shared : undefined);
  }

  private storedCount(keyId: string, month: string): Promise<number> {
    return this.table.find({ key_id: keyId, month }, { limit: 1 }).then(([row]) => row?.requests ?? 0);
  }

  private static id(keyId: string, month: string): string {
    return `${keyId}|${month}`;
  }

  /** The counter of a key's month, loaded from storage the first time. */
  async counter(keyId: string, tenant: string, month: string): Promise<{ readonly used: number; record(): Promise<void> }> {
    const id = UsageMeter.id(keyId, month);
    const shared = this.shared;
    if (shared) {
      const seed = () => this.storedCount(keyId, month);
      const used = await shared.monthly(id, seed);
      return {
        used,
        record: async () => {
          await shared.addMonthly(id, seed);
          this.touched.set(id, tenant);
        },
      };
    }
    let counter = this.counters.get(id);
    if (!counter) {
      let load = this.loading.get(id);
      if (!load) {
        load = this.table.find({ key_id: keyId, month }, { limit: 1 }).then(([row]) => {
          const loaded = this.counters.get(id) ?? { tenant, stored: row?.requests ?? 0, pending: 0 };
          this.counters.set(id, loaded);
          this.loading.delete(id);
          return loaded;
        });
        load.catch(() => this.loading.delete(id));
        this.loading.set(id, load);
      }
      counter = await load;
    }
    const c = counter;
    return {
      // Read at the moment of the decision, so concurrent requests see each other's counts.
      get used() {
        return c.stored + c.pending;
      },
      record: async () => {
        c.pending++;
      },
    };
  }

  /** Adds pending counts to the stored rows and refreshes the totals; months other than `keep` are dropped from memory. */
  flush(keepMonth?: string): Promise<void> {
    this.flushing ??= this.writePending(keepMonth).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writePending(keepMonth?: string): Promise<void> {
    if (this.shared) return this.writeShared();
    const dirty = [...this.counters].filter(([, c]) => c.pending > 0);
    if (dirty.length) {
      await this.table.exclusive(async () => {
        const updated_at = new Date().toISOString();
        const writes: { counter: Counter; adding: number; row: UsageRow }[] = [];
        for (const month of new Set(dirty.map(([id]) => id.split('|')[1]!))) {
          const stored = new Map((await this.table.find({ month })).map((r) => [r.key_id, r.requests]));
          for (const [id, counter] of dirty.filter(([i]) => i.endsWith(`|${month}`))) {
            const key_id = id.split('|')[0]!;
            const adding = counter.pending;
            writes.push({ counter, adding, row: { key_id, tenant: counter.tenant, month, requests: (stored.get(key_id) ?? 0) + adding, updated_at } });
          }
        }
        // One commit for every key's count: one table version per flush, however many keys were busy.
        await this.table.upsert(
          writes.map((w) => w.row),
          ['key_id', 'month'],
        );
        for (const { counter, adding, row } of writes) {
          counter.pending -= adding;
          counter.stored = row.requests;
        }
        if (++this.flushes % OPTIMIZE_EVERY_FLUSHES === 0) await this.table.optimize();
      });
    }
    if (keepMonth) for (const [id, c] of this.counters) if (!id.endsWith(`|${keepMonth}`) && c.pending === 0) this.counters.delete(id);
  }

  /** Redis mode: the shared totals of the counters used here since the last flush, into their rows (never lowering one). */
  private async writeShared(): Promise<void> {
    const shared = this.shared!;
    const touched = [...this.touched];
    if (!touched.length) return;
    for (const [id] of touched) this.touched.delete(id);
    try {
      await this.table.exclusive(async () => {
        const updated_at = new Date().toISOString();
        const rows: UsageRow[] = [];
        for (const [id, tenant] of touched) {
          const [key_id, month] = id.split('|') as [string, string];
          const stored = await this.storedCount(key_id, month);
          const total = await shared.monthly(id, async () => stored);
          if (total > stored) rows.push({ key_id, tenant, month, requests: total, updated_at });
        }
        await this.table.upsert(rows, ['key_id', 'month']);
        if (++this.flushes % OPTIMIZE_EVERY_FLUSHES === 0) await this.table.optimize();
      });
    } catch (error) {
      for (const [id, tenant] of touched) this.touched.set(id, tenant);
      throw error;
    }
  }

  /** Stored counts of one month (what `docent keys list` shows), by key id. */
  async storedMonth(month: string): Promise<Map<string, number>> {
    const rows = await this.table.find({ month });
    return new Map(rows.map((r) => [r.key_id, r.requests]));
  }
}
