/**
 * Tests look at a store's database the way an outside observer would: through a read-only
 * connection of their own to the same file (WAL lets it read what the store committed). The app's
 * own code never does this; only electron/core/store speaks SQL to the database it owns.
 */
import { DatabaseSync } from 'node:sqlite';
import type { LocalStore } from '../../electron/core/store/local-store.ts';

type Param = string | number | null;

export interface StoreInspector {
  all<T>(sql: string, ...params: Param[]): T[];
  get<T>(sql: string, ...params: Param[]): T | undefined;
}

/** Runs `look` with a read-only connection to the store's file, closed afterwards. */
export function inspectStore<R>(store: Pick<LocalStore, 'path'>, look: (db: StoreInspector) => R): R {
  const connection = new DatabaseSync(store.path, { readOnly: true });
  try {
    return look({
      all: <T>(sql: string, ...params: Param[]) => connection.prepare(sql).all(...params) as T[],
      get: <T>(sql: string, ...params: Param[]) => connection.prepare(sql).get(...params) as T | undefined,
    });
  } finally {
    connection.close();
  }
}

export interface StoreArranger extends StoreInspector {
  run(sql: string, ...params: Param[]): void;
}

/**
 * Runs `arrange` with a writable connection of its own to the store's file, for a test's "given"
 * that no public path produces (a row exactly as a hostile service might state it). WAL lets the
 * store see the committed rows at its next read.
 */
export function arrangeStore<R>(store: Pick<LocalStore, 'path'>, arrange: (db: StoreArranger) => R): R {
  const connection = new DatabaseSync(store.path);
  connection.exec('PRAGMA busy_timeout = 5000');
  try {
    return arrange({
      all: <T>(sql: string, ...params: Param[]) => connection.prepare(sql).all(...params) as T[],
      get: <T>(sql: string, ...params: Param[]) => connection.prepare(sql).get(...params) as T | undefined,
      run: (sql: string, ...params: Param[]) => void connection.prepare(sql).run(...params),
    });
  } finally {
    connection.close();
  }
}
