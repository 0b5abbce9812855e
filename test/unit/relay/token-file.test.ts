/** The relay takes the service's token only from a file that no one but its owner can read. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTokenFile } from '../../../electron/relay/cli.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function tokenFile(mode: number, content = 'sk_live_secret\n'): string {
  dir = mkdtempSync(join(tmpdir(), 'parley-token-'));
  const path = join(dir, 'token');
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe('the relay token file', () => {
  it('is read when only its owner can read it', () => {
    expect(readTokenFile(tokenFile(0o600))).toBe('sk_live_secret');
  });

  it('is refused, with the fix, when others can read it', () => {
    const path = tokenFile(0o644);
    expect(() => readTokenFile(path)).toThrow(`can be read by others: run chmod 600 ${path}`);
  });

  it('is refused when empty', () => {
    expect(() => readTokenFile(tokenFile(0o600, '  \n'))).toThrow('is empty');
  });
});
