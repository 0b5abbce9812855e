import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { MIGRATIONS } from './migrations.ts';
import { StorageError, type StorageProblem, storageProblemOf } from './storage-errors.ts';

/**
 * Statements with more parameters than this are prepared for each use and not kept: a query over a
 * list (`IN (?, ?, …)`) is a different statement for every length of list, and each compiled one holds
 * its program in native memory that V8 does not see (2,000 lengths of one query held 470 MB). Kept,
 * they grew the core by 80 MB a minute through `bench:memory`'s working day. A statement used once
 * and dropped is finalized with its wrapper at the next scavenge.
 */
export const MAX_KEPT_STATEMENT_PARAMETERS = 32;

/** Told when writing starts failing for a disk reason (a problem) and when it works again (null). */
export type StorageStatusListener = (problem: StorageProblem | null) => void;

/**
 * One SQLite database (node:sqlite) with WAL, foreign keys, versioned migrations and a statement
 * cache. Every multi-row change goes through `transaction`, which nests by savepoints. Disk trouble
 * (full, read-only, no permission) is thrown as a StorageError and reported to the status listener
 * until a write succeeds again. The connection never leaves this class: only the store speaks SQL.
 */
export class Database {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #onStatus: StorageStatusListener;
  readonly #beforeCommit: Array<() => void> = [];
  #depth = 0;
  /** Whether the open transaction changed a row (an empty commit proves nothing about the disk). */
  #wrote = false;
  #problem: StorageProblem | null = null;

  constructor(path: string, onStatus: StorageStatusListener = () => {}) {
    this.#onStatus = onStatus;
    this.#db = this.#guard(
      () => {
        if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
        const db = new DatabaseSync(path);
        db.exec(
          'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;',
        );
        db.exec(`PRAGMA wal_autocheckpoint = ${autocheckpointPages()}`);
        return db;
      },
      () => (path === ':memory:' ? undefined : unwritable(path)),
    );
    this.migrate();
  }

  /** The disk trouble the last write ran into; null once a write succeeded after it. */
  get problem(): StorageProblem | null {
    return this.#problem;
  }

  statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#guard(() => this.#db.prepare(sql));
      if (parameterCount(sql) <= MAX_KEPT_STATEMENT_PARAMETERS) this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** How many prepared statements are kept for reuse. */
  get keptStatements(): number {
    return this.#statements.size;
  }

  all<T>(sql: string, ...params: SqlValue[]): T[] {
    const statement = this.statement(sql);
    return this.#guard(() => statement.all(...params) as T[]);
  }

  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    const statement = this.statement(sql);
    return this.#guard(() => statement.get(...params) as T | undefined);
  }

  run(sql: string, ...params: SqlValue[]): { changes: number; lastInsertRowid: number } {
    const statement = this.statement(sql);
    const result = this.#guard(() => statement.run(...params));
    const changes = Number(result.changes);
    if (changes > 0) {
      if (this.#depth === 0) {
        this.#writesWork();
        this.#upkeepAfterAutocommit();
      } else this.#wrote = true;
    }
    return { changes, lastInsertRowid: Number(result.lastInsertRowid) };
  }

  /** Whether a transaction is open (writes now commit with it, not on their own). */
  get inTransaction(): boolean {
    return this.#depth > 0;
  }

  /**
   * Runs `work` inside every outermost transaction just before it commits (and so rolls back with
   * it): for upkeep that is cheaper done once per transaction than once per row.
   */
  beforeCommit(work: () => void): void {
    this.#beforeCommit.push(work);
  }

  /** Runs a script of statements (migrations, index rebuilds) as it is. */
  exec(sql: string): void {
    this.#guard(() => this.#db.exec(sql));
  }

  /**
   * Runs `work` atomically. If it throws, or the commit itself fails (a full disk is usually found
   * out only then), everything it did is rolled back and the depth is as before, so the next
   * transaction starts clean.
   */
  transaction<T>(work: () => T): T {
    const outermost = this.#depth === 0;
    const savepoint = `sp${this.#depth}`;
    // Prepared once like any statement: a transaction per delivery must not parse SQL each time.
    this.#control(outermost ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
    if (outermost) this.#wrote = false;
    this.#depth++;
    let result: T;
    try {
      result = work();
      if (outermost) for (const upkeep of this.#beforeCommit) upkeep();
      this.#control(outermost ? 'COMMIT' : `RELEASE ${savepoint}`);
    } catch (error) {
      this.#undo(outermost, savepoint);
      throw error;
    } finally {
      this.#depth--;
    }
    if (outermost && this.#wrote) this.#writesWork();
    return result;
  }

  get userVersion(): number {
    return Number(this.get<{ user_version: number }>('PRAGMA user_version')?.user_version);
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  /**
   * A write outside any transaction committed on its own: the upkeep a commit owes runs now, in a
   * transaction of its own. If that cannot write, the next commit does it.
   */
  #upkeepAfterAutocommit(): void {
    if (this.#beforeCommit.length === 0) return;
    try {
      this.transaction(() => {});
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
    }
  }

  #control(sql: string): void {
    const statement = this.statement(sql);
    this.#guard(() => statement.run());
  }

  /** Rolls back what is still open: SQLite itself may already have rolled back (e.g. on SQLITE_FULL). */
  #undo(outermost: boolean, savepoint: string): void {
    if (!this.#db.isTransaction) return;
    try {
      this.#db.exec(outermost ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
    } catch {
      // The error that made us roll back says more than this one; a transaction SQLite could not
      // roll back is rolled back when the connection next reads (its journal says so).
    }
  }

  /**
   * Runs a call into SQLite or the file system, turning disk trouble into a reported StorageError.
   * `explain` may name the cause better than SQLite does (which says "unable to open" or
   * "readonly" for a folder that is read-only and one that is not ours alike).
   */
  #guard<T>(call: () => T, explain?: () => StorageProblem | undefined): T {
    try {
      return call();
    } catch (error) {
      const found = storageProblemOf(error);
      const problem = found && (explain?.() ?? found);
      if (!problem) throw error;
      if (this.#problem?.code !== problem.code) {
        this.#problem = problem;
        this.#onStatus(problem);
      }
      throw error instanceof StorageError ? error : new StorageError(problem, error);
    }
  }

  #writesWork(): void {
    if (this.#problem === null) return;
    this.#problem = null;
    this.#onStatus(null);
  }

  private migrate(): void {
    const from = this.userVersion;
    for (let version = from; version < MIGRATIONS.length; version++) {
      this.transaction(() => {
        this.exec(MIGRATIONS[version] as string);
        this.exec(`PRAGMA user_version = ${version + 1}`);
      });
    }
  }
}

export type SqlValue = string | number | bigint | null | Uint8Array;

/** SQLite's own mark (pages in the write-ahead log) and how far each store's is moved from it. */
export const AUTOCHECKPOINT = { pages: 1_000, spread: 0.25 } as const;

/**
 * When this store checkpoints its write-ahead log: after SQLite's 1,000 pages, moved by up to a
 * quarter either way at random, once per open.
 *
 * Why not exactly 1,000: every desktop joined to a team's relay applies the same events in the same
 * transactions, so every store reaches the mark on the same event. Where desktops share a disk (a
 * terminal server or virtual desktops, twenty agents on one host, as bench:team runs them), twenty
 * checkpoints' writes and fsyncs then land at once and each holds its core's event loop while the
 * disk works through all of them: a customer message reached the last of twenty desktops 250 ms
 * late instead of 40 (docs/bench/README.md, issue #18). Spread, they take their turns.
 */
export function autocheckpointPages(random: () => number = Math.random): number {
  const { pages, spread } = AUTOCHECKPOINT;
  return Math.round(pages * (1 - spread + 2 * spread * random()));
}

/** Why the database file or its folder cannot be written (the OS's answer), if it cannot. */
function unwritable(path: string): StorageProblem | undefined {
  for (const target of [dirname(path), path]) {
    if (!existsSync(target)) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      return storageProblemOf(error);
    }
  }
  return undefined;
}

function parameterCount(sql: string): number {
  let count = 0;
  for (let i = sql.indexOf('?'); i !== -1; i = sql.indexOf('?', i + 1)) count++;
  return count;
}
