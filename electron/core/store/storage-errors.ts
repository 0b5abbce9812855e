import type { StorageErrorCode } from '../../../shared/contract/errors.ts';

/** Local disk trouble, in words the agent can act on. */
export interface StorageProblem {
  code: StorageErrorCode;
  message: string;
}

const KEPT = 'Parley keeps your unsent messages and retries.';

const PROBLEMS: Readonly<Record<StorageErrorCode, string>> = {
  disk_full: `Your disk is full — free some space. ${KEPT}`,
  storage_read_only: `Parley’s data folder is read-only — make it writable again (or check the disk). ${KEPT}`,
  storage_permission: `Parley is not allowed to write to its data folder — check the folder’s permissions. ${KEPT}`,
  storage_io: `Parley could not read or write its data on disk (input/output error) — check the disk. ${KEPT}`,
};

/** Primary SQLite result codes (the low byte of an extended code). */
const SQLITE_PERM = 3;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;

const SQLITE_CODES: ReadonlyMap<number, StorageErrorCode> = new Map([
  [SQLITE_FULL, 'disk_full'],
  [SQLITE_READONLY, 'storage_read_only'],
  [SQLITE_PERM, 'storage_permission'],
  [SQLITE_CANTOPEN, 'storage_permission'],
  [SQLITE_IOERR, 'storage_io'],
]);

/** errno names that only a file system raises. */
const DISK_ERRNOS: Readonly<Record<string, StorageErrorCode>> = {
  ENOSPC: 'disk_full',
  EDQUOT: 'disk_full',
  EROFS: 'storage_read_only',
  EIO: 'storage_io',
};

/** errno names that mean a refused file only when they name a `path` (a socket can raise them too). */
const PATH_ERRNOS: Readonly<Record<string, StorageErrorCode>> = {
  EACCES: 'storage_permission',
  EPERM: 'storage_permission',
};

function storageProblem(code: StorageErrorCode): StorageProblem {
  return { code, message: PROBLEMS[code] };
}

/**
 * The disk trouble behind an error from SQLite (node:sqlite's `errcode`) or from the file system
 * (its errno); undefined for anything else.
 */
export function storageProblemOf(error: unknown): StorageProblem | undefined {
  if (error instanceof StorageError) return { code: error.code, message: error.message };
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; errcode?: unknown; path?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const code = SQLITE_CODES.get(e.errcode & 0xff);
    return code ? storageProblem(code) : undefined;
  }
  if (typeof e.code !== 'string') return undefined;
  const code = DISK_ERRNOS[e.code] ?? (typeof e.path === 'string' ? PATH_ERRNOS[e.code] : undefined);
  return code ? storageProblem(code) : undefined;
}

/** The store could not read or write its files; the original error is the cause. */
export class StorageError extends Error {
  readonly code: StorageErrorCode;
  constructor(problem: StorageProblem, cause: unknown) {
    super(problem.message, { cause });
    this.name = 'StorageError';
    this.code = problem.code;
  }
}

export function isStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError;
}
