/**
 * A real small disk for tests of disk trouble: a tmpfs of its own (mounting needs root, which the
 * test machines are), filled up by a file until the kernel answers ENOSPC and emptied again. The
 * errors the store meets there are the OS's and SQLite's own, not imitations.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  path: string;
  /** Takes every free byte; resolves with how many it took. */
  fill(): number;
  /** Gives the space back. */
  free(): void;
  remove(): void;
}

export function mountSmallDisk(sizeMb = 64): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), 'parley-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    throw new Error('these tests need a real full disk: mounting a tmpfs failed (run them as root)', {
      cause: error,
    });
  }
  const filler = join(path, 'filler');
  return {
    path,
    fill() {
      const fd = openSync(filler, 'a');
      let taken = 0;
      try {
        // Big chunks first, then single pages, so not even a page is left.
        for (const size of [1 << 20, 4096, 512]) {
          const chunk = Buffer.alloc(size, 1);
          for (;;) {
            try {
              taken += writeSync(fd, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return taken;
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      rmSync(path, { recursive: true, force: true });
    },
  };
}
