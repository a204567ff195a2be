/**
 * The storage seam. Only modules under src/storage/ import LanceDB; everything else gets a Store from
 * `services.store()`, which loads this module (and LanceDB) on first use.
 *
 * A Store is one LanceDB database in the data location: a local directory, or an object-store URI
 * (`s3://bucket/prefix`, `gs://…`, `az://…`) opened with the configured storage options. Record tables hold
 * small typed records (API keys, plans, tasks, posts) with equality filters only, so no caller ever writes SQL
 * and no value is ever interpolated unescaped.
 *
 * Writes: every write to a table runs under that table's write lock (`exclusive`), and read-check-write
 * sequences (complete a task once, unique plan names) run whole inside it. The lock comes from the shared
 * state (src/shared): in-process by default; with Redis, one lock per table across every replica, whose
 * fence is checked right before each commit. Plain object storage has no atomic commit, so two processes
 * committing to one table at once would silently lose one commit; under the lock they never do. Every read
 * and every write starts from the table's latest committed version (read consistency interval 0), so a
 * commit made by another process is seen by the next operation here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as lancedb from '@lancedb/lancedb';
import { Bool, Field, Float64, Schema, Utf8 } from 'apache-arrow';
import { isObjectStoreLocation } from '../config.js';
import type { Logger } from '../logging.js';
import { prepareDataDir } from './data-dir.js';
import { InProcessState, type WriteLocks } from '../shared/state.js';

export interface StoreOptions {
  /** LanceDB storage options (credentials, region, endpoint) for an object-store data location. */
  storageOptions?: Record<string, string>;
  /** Cross-process write locks; in-process when not given. */
  locks?: WriteLocks;
}

/**
 * The write locks this async context holds, with their fences (so nested writes neither re-lock nor deadlock).
 * `active` turns false when the section ends: work started inside a section but still running after it (a
 * background compaction) inherits the context, and must take the lock again rather than trust it.
 */
interface Held {
  fence: () => Promise<void>;
  active: boolean;
}
const held = new AsyncLocalStorage<Map<string, Held>>();

/**
 * Retries of an operation that met a transient object-store failure, 20 ms doubling each time: about 5 s in
 * all, enough for an S3 stand-in under a burst of concurrent writers to finish a PUT.
 */
const RETRIES = 8;
/** An object read back empty while its PUT was still arriving (before any byte of the new version was used). */
const EMPTY_READ = /Generic S3 error: Range started at 0 and ended at 0/;
const messageOf = (error: unknown) => String((error as Error)?.message);

/**
 * Runs `op`, and again after a backoff (RETRIES times at most) while `retryable` says its failure is transient.
 * LanceDB's errors come from native code with no JavaScript frames: the one that finally escapes carries
 * the frames of the call that made the operation and how many attempts it took, so a log says which
 * storage call failed.
 */
export async function retrying<T>(op: () => Promise<T>, retryable: (error: unknown) => boolean | Promise<boolean>): Promise<T> {
  const site = new Error('storage operation');
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (error) {
      if (attempt >= RETRIES || !(await retryable(error))) throw located(error, site, attempt + 1);
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
}

/** `error` with the caller's frames (from `site`) when it has none of its own, and the attempts after a retry. */
function located(error: unknown, site: Error, attempts: number): unknown {
  if (!(error instanceof Error)) return error;
  const frames = (site.stack ?? '').split('\n').slice(1).join('\n');
  const own = error.stack ?? `${error.name}: ${error.message}`;
  const note = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  if (!/\n[ \t]+at /.test(own)) error.stack = `${own}${note}\n${frames}`;
  else if (note) error.stack = own.replace(/\n/, `${note}\n`);
  return error;
}

/**
 * Runs a read again when the object store answered with a transient I/O failure. A read racing a commit can
 * find a version's manifest listed before its bytes are readable on S3-compatible servers whose PUT is not
 * atomic (s3rver); AWS S3's PUT is atomic, so there this never retries. Any other error is thrown at once.
 */
export function retryRead<T>(read: () => Promise<T>): Promise<T> {
  return retrying(read, transientRead);
}

/** A read that met an object-store failure that passes (see retryRead). */
function transientRead(error: unknown): boolean {
  return /LanceError\(IO\)|Generic S3 error/.test(messageOf(error));
}

export type ColumnType = 'string' | 'number' | 'boolean' | 'json';

export interface TableSpec {
  /** snake_case table name. */
  name: string;
  /** snake_case column names (LanceDB's SQL folds unquoted identifiers to lower case). */
  columns: Record<string, ColumnType>;
}

export type Row = Record<string, unknown>;
/** Equality filter: every listed column must equal the value (`null` matches a missing value). */
export type Filter = Record<string, string | number | boolean | null>;

export interface RecordTable<R extends Row = Row> {
  insert(rows: R[]): Promise<void>;
  find(filter?: Filter, options?: { limit?: number }): Promise<R[]>;
  count(filter?: Filter): Promise<number>;
  /** Sets `values` on matching rows; returns how many rows matched. */
  update(filter: Filter, values: Partial<R>): Promise<number>;
  /** Deletes matching rows; returns how many there were. */
  delete(filter: Filter): Promise<number>;
  /** Runs `fn` holding this table's write lock: no other writer of the table, in any process sharing the locks, runs meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Inserts rows, replacing the rows whose `on` columns all match, in one atomic commit. */
  upsert(rows: R[], on: string[]): Promise<void>;
  /**
   * Merges small writes into larger files and deletes table versions older than `keepMs` (each write is a
   * new version, kept on disk until cleaned up). For tables written often in small pieces.
   */
  optimize(keepMs?: number): Promise<void>;
}

const IDENT = /^[a-z][a-z0-9_]*$/;

export function sqlLiteral(value: string | number | boolean): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('non-finite number in filter');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `'${value.replace(/'/g, "''")}'`;
}

export function whereClause(filter: Filter = {}, columns?: Record<string, ColumnType>): string | undefined {
  const parts = Object.entries(filter).map(([column, value]) => {
    if (!IDENT.test(column) || (columns && !(column in columns))) throw new Error(`unknown column ${column}`);
    return value === null ? `${column} IS NULL` : `${column} = ${sqlLiteral(value)}`;
  });
  return parts.length ? parts.join(' AND ') : undefined;
}

function arrowSchema(spec: TableSpec): Schema {
  return new Schema(
    Object.entries(spec.columns).map(([name, type]) => {
      if (!IDENT.test(name)) throw new Error(`column name ${name} must be snake_case`);
      const arrowType = type === 'number' ? new Float64() : type === 'boolean' ? new Bool() : new Utf8();
      return new Field(name, arrowType, true);
    }),
  );
}

export class Store {
  private readonly tables = new Map<string, Promise<lancedb.Table>>();

  private constructor(
    readonly dataDir: string,
    readonly db: lancedb.Connection,
    readonly logger: Logger,
    readonly locks: WriteLocks,
  ) {}

  static async open(dataDir: string, logger: Logger, options: StoreOptions = {}): Promise<Store> {
    const remote = isObjectStoreLocation(dataDir);
    if (!remote) await prepareDataDir(dataDir);
    // Every read sees commits made by other processes (a key created or revoked by `docent keys`, documents
    // added by another replica); LanceDB's default never re-checks an open table.
    const db = await lancedb.connect(dataDir, {
      readConsistencyInterval: 0,
      ...(remote && options.storageOptions ? { storageOptions: options.storageOptions } : {}),
    });
    return new Store(dataDir, db, logger, options.locks ?? new InProcessState().locks);
  }

  /**
   * Runs `fn` holding the write lock `name` (one per table, or per group of tables written together). Nested
   * calls for a lock this context already holds run directly.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const current = held.getStore();
    if (current?.get(name)?.active) return fn();
    return this.locks.run(name, async (fence) => {
      const mine: Held = { fence, active: true };
      try {
        return await held.run(new Map([...(current ?? []), [name, mine]]), fn);
      } finally {
        mine.active = false;
      }
    });
  }

  /**
   * Runs `fn` outside every write lock this context holds: for background work started inside a section (a
   * compaction after a write), which must queue for the lock like any other writer rather than run inside
   * a section that is about to end.
   */
  detached<T>(fn: () => T): T {
    return held.exit(fn);
  }

  /**
   * One commit under the lock `name`: takes it when not held, and checks its fence right before committing.
   * A commit that failed reading the table's latest manifest as an empty object (the non-atomic PUT of an
   * S3 stand-in such as s3rver, see retryRead) wrote nothing, and is tried again.
   */
  commit<T>(name: string, write: () => Promise<T>): Promise<T> {
    return this.exclusive(name, () =>
      retrying(
        async () => {
          await held.getStore()!.get(name)!.fence();
          return write();
        },
        (error) => EMPTY_READ.test(messageOf(error)),
      ),
    );
  }

  /** Opens a table, creating it empty with the given Arrow schema when missing (safe under races). */
  async openTable(name: string, schema: Schema): Promise<lancedb.Table> {
    let table = this.tables.get(name);
    if (!table) {
      table = this.exclusive(`create:${name}`, async () => {
        // Another process may be creating the same table right now: its folder is listed before its first
        // version is written, and opening it then fails. Such a table is retried briefly before giving up.
        // Only a table that is listed (being created elsewhere), or a manifest read that met a transient failure
        // (as any read, see retryRead), is worth another try; any other failure (a data directory that cannot be
        // written, say) is reported at once.
        return retrying(
          async () => {
            if ((await this.db.tableNames()).includes(name)) return await this.db.openTable(name);
            return await this.db.createEmptyTable(name, schema, { existOk: true });
          },
          async (error) => transientRead(error) || (await this.db.tableNames().catch((): string[] => [])).includes(name),
        );
      });
      this.tables.set(name, table);
      table.catch(() => this.tables.delete(name));
    }
    return table;
  }

  async records<R extends Row = Row>(spec: TableSpec): Promise<RecordTable<R>> {
    const table = await this.openTable(spec.name, arrowSchema(spec));
    const columns = spec.columns;
    const encode = (row: Partial<R>): Row => {
      const out: Row = {};
      for (const [k, v] of Object.entries(row)) {
        if (!(k in columns)) throw new Error(`unknown column ${k} in ${spec.name}`);
        out[k] = columns[k] === 'json' && v !== null && v !== undefined ? JSON.stringify(v) : (v ?? null);
      }
      return out;
    };
    const full = (row: Partial<R>): Row => {
      const out = encode(row);
      for (const k of Object.keys(columns)) if (!(k in out)) out[k] = null;
      return out;
    };
    const decode = (row: Row): R => {
      const out: Row = {};
      for (const [k, type] of Object.entries(columns)) {
        const v = row[k];
        out[k] = type === 'json' && typeof v === 'string' ? JSON.parse(v) : v === undefined ? null : v;
      }
      return out as R;
    };
    const lock = `table:${spec.name}`;
    const commit = <T>(write: () => Promise<T>) => this.commit(lock, write);
    const exclusive = <T>(fn: () => Promise<T>) => this.exclusive(lock, fn);
    return {
      async insert(rows) {
        if (rows.length) await commit(() => table.add(rows.map(full)));
      },
      async find(filter, options) {
        let query = table.query();
        const where = whereClause(filter, columns);
        if (where) query = query.where(where);
        if (options?.limit) query = query.limit(options.limit);
        const rows = (await retryRead(() => query.toArray())) as Row[];
        return rows.map(decode);
      },
      async count(filter) {
        const where = whereClause(filter, columns);
        return retryRead(() => table.countRows(where));
      },
      update(filter, values) {
        const where = whereClause(filter, columns) ?? 'true';
        const encoded = encode(values);
        const valuesSql: Record<string, string> = {};
        for (const [k, v] of Object.entries(encoded)) {
          valuesSql[k] = v === null ? 'NULL' : sqlLiteral(v as string | number | boolean);
        }
        // The count and the update under one lock, so the count is of the rows the update changed.
        return exclusive(async () => {
          const matched = await retryRead(() => table.countRows(where));
          if (matched) await commit(() => table.update({ where, valuesSql }));
          return matched;
        });
      },
      delete(filter) {
        const where = whereClause(filter, columns);
        if (!where) throw new Error('refusing to delete without a filter');
        return exclusive(async () => {
          const matched = await retryRead(() => table.countRows(where));
          if (matched) await commit(() => table.delete(where));
          return matched;
        });
      },
      exclusive,
      async upsert(rows, on) {
        if (!rows.length) return;
        for (const column of on) if (!(column in columns)) throw new Error(`unknown column ${column}`);
        await commit(() => table.mergeInsert(on).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows.map(full)));
      },
      async optimize(keepMs = 60_000) {
        await commit(() => table.optimize({ cleanupOlderThan: new Date(Date.now() - keepMs) }));
      },
    };
  }

  async close(): Promise<void> {
    this.tables.clear();
    this.db.close();
  }
}

export async function openStore(dataDir: string, logger: Logger, options?: StoreOptions): Promise<Store> {
  return Store.open(dataDir, logger, options);
}
