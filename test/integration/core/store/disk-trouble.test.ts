/**
 * The store on a real full disk, a read-only folder and a folder that is not ours (issue #13): the
 * errors are the kernel's and SQLite's own, and the store must come out of them usable.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StorageStatus } from '../../../../shared/contract/errors.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { StorageError } from '../../../../electron/core/store/storage-errors.ts';
import { tempDir } from '../helpers.ts';
import { mountSmallDisk, type SmallDisk } from '../small-disk.ts';

const PAGE_OF_TEXT = 'Thanks, I will be there at noon. '.repeat(400);

function caught(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the store to refuse the write');
}

describe('a full disk', () => {
  let disk: SmallDisk;
  let store: LocalStore;
  let statuses: StorageStatus[];

  beforeEach(() => {
    disk = mountSmallDisk(4);
    store = new LocalStore(join(disk.path, 'workspace.db'));
    statuses = [];
    store.events.on('storage.status', (status) => statuses.push(status));
  });
  afterEach(() => {
    store.close();
    disk.remove();
  });

  it('fails a commit whole, names the problem, and the next transaction works once space is back', () => {
    store.drafts.set(1, 'kept from before', []);
    disk.fill();

    // When a transaction writes more than the disk holds…
    const error = caught(() =>
      store.transaction(() => {
        for (let chat = 2; chat < 40; chat++) store.drafts.set(chat, PAGE_OF_TEXT, []);
      }),
    );

    // …it fails as disk_full (not "SQL logic error" from a confused rollback), leaves nothing half
    // written, and the agent is told at once.
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/disk is full/) });
    expect(store.drafts.all().map((d) => d.chatId)).toEqual([1]);
    expect(statuses).toEqual([{ problem: { code: 'disk_full', message: expect.any(String) } }]);
    expect(store.storageStatus.problem?.code).toBe('disk_full');

    // While the disk stays full, the next transaction fails the same clean way (not `SAVEPOINT sp-1`).
    expect(caught(() => store.transaction(() => store.drafts.set(2, PAGE_OF_TEXT, [])))).toMatchObject({
      code: 'disk_full',
    });

    // Space is back: the next transaction commits, and the problem is cleared.
    disk.free();
    store.transaction(() => {
      store.drafts.set(2, 'written after', []);
      store.drafts.set(3, 'and this', []);
    });
    expect(store.drafts.all().map((d) => d.chatId)).toEqual([1, 2, 3]);
    expect(statuses.at(-1)).toEqual({ problem: null });
    expect(store.storageStatus.problem).toBeNull();

    // Nested transactions (savepoints) are back to normal too, and all of it survives a reopen.
    store.transaction(() => store.transaction(() => store.drafts.set(4, 'nested', [])));
    store.close();
    store = new LocalStore(join(disk.path, 'workspace.db'));
    expect(store.drafts.all().map((d) => d.text)).toEqual([
      'kept from before',
      'written after',
      'and this',
      'nested',
    ]);
  });

  it('fails a single write outside a transaction as disk_full and keeps what was there', () => {
    store.drafts.set(1, 'kept from before', []);
    disk.fill();
    expect(caught(() => store.drafts.set(2, PAGE_OF_TEXT, []))).toMatchObject({ code: 'disk_full' });
    disk.free();
    store.drafts.set(2, 'after', []);
    expect(store.drafts.all().map((d) => d.text)).toEqual(['kept from before', 'after']);
  });
});

describe('a data folder the store cannot write', () => {
  let disk: SmallDisk;

  beforeEach(() => {
    disk = mountSmallDisk(4);
  });
  afterEach(() => {
    execFileSync('mount', ['-o', 'remount,rw', disk.path]);
    disk.remove();
  });

  it('on a read-only file system, refuses to open with storage_read_only', () => {
    const path = join(disk.path, 'workspace.db');
    const first = new LocalStore(path);
    first.drafts.set(1, 'written while writable', []);
    first.close();
    execFileSync('mount', ['-o', 'remount,ro', disk.path]);

    expect(caught(() => new LocalStore(path))).toMatchObject({
      code: 'storage_read_only',
      message: expect.stringMatching(/read-only/),
    });
  });
});

describe('a data folder that belongs to someone else', () => {
  const dir = tempDir('parley-not-ours-');
  afterEach(() => dir.remove());

  it('refuses to open with storage_permission when run as another user', () => {
    // The folder and database are root's; the store runs as `nobody` (setpriv), so the kernel
    // itself answers EACCES.
    const data = join(dir.path, 'workspace');
    mkdirSync(data);
    new LocalStore(join(data, 'workspace.db')).close();
    chmodSync(dir.path, 0o755);
    const script = `
      import { LocalStore } from ${JSON.stringify(new URL('../../../../electron/core/store/local-store.ts', import.meta.url).pathname)};
      try { new LocalStore(${JSON.stringify(join(data, 'workspace.db'))}); console.log(JSON.stringify({ opened: true })); }
      catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }
    `;
    const out = execFileSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        '--input-type=module',
        '-e',
        script,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out.trim().split('\n').at(-1) as string)).toEqual({
      code: 'storage_permission',
      message: expect.stringMatching(/not allowed to write/),
    });
  });
});
