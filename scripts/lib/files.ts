// Small filesystem helpers shared by scripts/typecheck.ts and scripts/test.ts. They decide which
// steps have anything to do: tsc fails (TS18003) on a project with no inputs, and Playwright fails
// when it finds no tests, so empty folders must be skipped rather than handed to those tools.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

// Folders that never hold project sources; walking node_modules would also be slow.
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', 'test-results', 'playwright-report', 'coverage']);

/** Relative paths (with '/' separators) of files under `root` whose names end with one of `suffixes`. */
export function findFiles(root: string, suffixes: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // A missing folder simply has no files; anything else (permissions) is a real problem.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // Declaration files alone are not inputs worth type-checking or running.
      else if (suffixes.some((s) => entry.name.endsWith(s)) && !entry.name.endsWith('.d.ts')) {
        found.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

export function hasFiles(root: string, suffixes: readonly string[]): boolean {
  return findFiles(root, suffixes).length > 0;
}
