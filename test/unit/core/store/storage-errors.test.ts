/** Naming disk trouble (issue #13): which OS and SQLite errors become which storage codes. */
import { describe, expect, it } from 'vitest';
import { toBridgeError } from '../../../../electron/core/app/errors.ts';
import { storageProblemOf } from '../../../../electron/core/store/storage-errors.ts';

const sqlite = (errcode: number, message: string) =>
  Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode });
const errno = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: failed`), { code, ...(path ? { path } : {}) });

describe('storage problems', () => {
  it.each([
    ['SQLITE_FULL', sqlite(13, 'database or disk is full'), 'disk_full'],
    [
      'SQLITE_READONLY_DIRECTORY',
      sqlite(8 | (6 << 8), 'attempt to write a readonly database'),
      'storage_read_only',
    ],
    ['SQLITE_CANTOPEN', sqlite(14, 'unable to open database file'), 'storage_permission'],
    ['SQLITE_IOERR_WRITE', sqlite(10 | (3 << 8), 'disk I/O error'), 'storage_io'],
    ['ENOSPC', errno('ENOSPC'), 'disk_full'],
    ['EROFS', errno('EROFS', '/data/staged/x'), 'storage_read_only'],
    ['EACCES on a file', errno('EACCES', '/data/staged/x'), 'storage_permission'],
  ])('%s is %s', (_name, error, code) => {
    expect(storageProblemOf(error)?.code).toBe(code);
    expect(toBridgeError(error)).toMatchObject({ code, retryable: true });
  });

  it('says what the agent can do about a full disk', () => {
    expect(toBridgeError(sqlite(13, 'database or disk is full')).message).toBe(
      'Your disk is full — free some space. Parley keeps your unsent messages and retries.',
    );
  });

  it.each([
    ['a SQL mistake', sqlite(1, 'no such table: x')],
    ['a constraint', sqlite(19, 'UNIQUE constraint failed')],
    ['EACCES without a path (a socket)', errno('EACCES')],
    ['a plain error', new Error('boom')],
  ])('%s is not disk trouble', (_name, error) => {
    expect(storageProblemOf(error)).toBeUndefined();
    expect(toBridgeError(error).code).toBe('internal');
  });
});
