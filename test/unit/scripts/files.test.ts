import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFiles, hasFiles } from '../../../scripts/lib/files.ts';

describe('findFiles', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'parley-files-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const touch = (path: string): void => {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, '');
  };

  it('finds matching files recursively, sorted, with forward slashes', () => {
    touch('b.ts');
    touch('a/deep/c.tsx');
    touch('a/readme.md');
    expect(findFiles(root, ['.ts', '.tsx'])).toEqual(['a/deep/c.tsx', 'b.ts']);
  });

  it('ignores declaration files, dot folders and build/dependency folders', () => {
    touch('types.d.ts');
    touch('node_modules/pkg/index.ts');
    touch('dist/x.ts');
    touch('.cache/y.ts');
    expect(findFiles(root, ['.ts'])).toEqual([]);
    expect(hasFiles(root, ['.ts'])).toBe(false);
  });

  it('matches on the full suffix, so only Playwright specs count as e2e tests', () => {
    touch('helpers.ts');
    expect(hasFiles(root, ['.spec.ts'])).toBe(false);
    touch('inbox.spec.ts');
    expect(findFiles(root, ['.spec.ts'])).toEqual(['inbox.spec.ts']);
  });

  it('treats a missing folder as empty', () => {
    expect(findFiles(join(root, 'nope'), ['.ts'])).toEqual([]);
  });
});
