/**
 * The storage seam. Only modules under src/storage/ import LanceDB; everything else gets a Store from
 * `services.store()`, which loads this module (and LanceDB) on first use.
 *
 * A Store is one LanceDB database in the data directory. Record tables hold small typed records (API keys,
 * plans, tasks, posts) with equality filters only, so no caller ever writes SQL and no value is ever
 * interpolated unescaped. Writers in one process are serialised per table (`exclusive`) so that
 * read-check-write sequences (complete a task once, unique plan names) cannot interleave.
 */
import * as lancedb from '@lancedb/lancedb';
import { Bool, Field, Float64, Schema, Utf8 } from 'apache-arrow';
import type { Logger } from '../logging.js';
import { prepareDataDir } from './data-dir.js';

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
  /** Runs `fn` with no other `exclusive` section of this table running in this process. */
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

/** Serialises async sections by key. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

export class Store {
  private readonly tables = new Map<string, Promise<lancedb.Table>>();
  readonly mutex = new KeyedMutex();

  private constructor(readonly dataDir: string, readonly db: lancedb.Connection, readonly logger: Logger) {}

  static async open(dataDir: string, logger: Logger): Promise<Store> {
    await prepareDataDir(dataDir);
    // Every read sees commits made by other processes (a key created or revoked by `docent keys`, documents
    // added by `docent ingest` while the server runs); LanceDB's default never re-checks an open table.
    const db = await lancedb.connect(dataDir, { readConsistencyInterval: 0 });
    return new Store(dataDir, db, logger);
  }

  /** Opens a table, creating it empty with the given Arrow schema when missing (safe under races). */
  async openTable(name: string, schema: Schema): Promise<lancedb.Table> {
    let table = this.tables.get(name);
    if (!table) {
      table = this.mutex.run(`create:${name}`, async () => {
        // Another process may be creating the same table right now: its folder is listed before its first
        // version is written, and opening it then fails. Such a table is retried briefly before giving up.
        for (let attempt = 0; ; attempt++) {
          try {
            if ((await this.db.tableNames()).includes(name)) return await this.db.openTable(name);
            return await this.db.createEmptyTable(name, schema, { existOk: true });
          } catch (error) {
            // Only a table that is listed (being created elsewhere) is worth another try; any other failure
            // (a data directory that cannot be written, say) is reported at once.
            if (attempt >= 6 || !(await this.db.tableNames().catch((): string[] => [])).includes(name)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
          }
        }
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
    const mutex = this.mutex;
    return {
      async insert(rows) {
        if (rows.length) await table.add(rows.map(full));
      },
      async find(filter, options) {
        let query = table.query();
        const where = whereClause(filter, columns);
        if (where) query = query.where(where);
        if (options?.limit) query = query.limit(options.limit);
        const rows = (await query.toArray()) as Row[];
        return rows.map(decode);
      },
      async count(filter) {
        return table.countRows(whereClause(filter, columns));
      },
      async update(filter, values) {
        const where = whereClause(filter, columns) ?? 'true';
        const matched = await table.countRows(where);
        if (!matched) return 0;
        const encoded = encode(values);
        const valuesSql: Record<string, string> = {};
        for (const [k, v] of Object.entries(encoded)) {
          valuesSql[k] = v === null ? 'NULL' : sqlLiteral(v as string | number | boolean);
        }
        await table.update({ where, valuesSql });
        return matched;
      },
      async delete(filter) {
        const where = whereClause(filter, columns);
        if (!where) throw new Error('refusing to delete without a filter');
        const matched = await table.countRows(where);
        if (matched) await table.delete(where);
        return matched;
      },
      exclusive(fn) {
        return mutex.run(`table:${spec.name}`, fn);
      },
      async upsert(rows, on) {
        if (!rows.length) return;
        for (const column of on) if (!(column in columns)) throw new Error(`unknown column ${column}`);
        await table.mergeInsert(on).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows.map(full));
      },
      async optimize(keepMs = 60_000) {
        await table.optimize({ cleanupOlderThan: new Date(Date.now() - keepMs) });
      },
    };
  }

  async close(): Promise<void> {
    this.tables.clear();
    this.db.close();
  }
}

export async function openStore(dataDir: string, logger: Logger): Promise<Store> {
  return Store.open(dataDir, logger);
}
