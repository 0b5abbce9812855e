/**
 * The renderer's boot path and its size budget, from Vite's build manifest (`build.manifest`).
 * The boot path is the entry chunk and every chunk it imports statically (what the page must fetch
 * and parse before the inbox can draw); chunks behind `import()` load on demand. Sizes are bytes of
 * minified output: deterministic for a given source, so a budget over them is no timing assertion.
 */

/** One entry of `.vite/manifest.json`. */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/**
 * Issue #12 asks ≤ 250 kB for the inbox path; react-dom alone is 202 kB of it and react-virtuoso
 * (the inbox list) 61 kB, with zod and libphonenumber-js (232 kB, from shared/) still loaded at boot.
 * This budget holds the boot path near its size once the V3 inbox, the workbench and fuzzysort (the
 * canned-reply picker) landed (742 kB on 2026-11-23) so it cannot silently grow; lower it as the shared modules and the composer's
 * V3 and scheduling controls leave the boot path (docs/bench/README.md).
 */
export const BOOT_BUDGET_BYTES = 760_000;
export const BOOT_TARGET_BYTES = 250_000;

export interface ChunkSize {
  file: string;
  name: string;
  bytes: number;
  boot: boolean;
}

/** Keys of the entry and of every chunk reachable from it through static imports. */
export function bootKeys(manifest: Manifest): Set<string> {
  const boot = new Set<string>();
  const visit = (key: string): void => {
    if (boot.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest names ${key} but has no entry for it`);
    boot.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length === 0) throw new Error('the manifest has no entry chunk');
  for (const [key] of entries) visit(key);
  return boot;
}

/** Every JavaScript chunk with its size, boot path first, then largest first. */
export function chunkSizes(manifest: Manifest, sizeOf: (file: string) => number): ChunkSize[] {
  const boot = bootKeys(manifest);
  return Object.entries(manifest)
    .filter(([, chunk]) => chunk.file.endsWith('.js'))
    .map(([key, chunk]) => ({
      file: chunk.file,
      name: chunk.name ?? key,
      bytes: sizeOf(chunk.file),
      boot: boot.has(key),
    }))
    .sort((a, b) => Number(b.boot) - Number(a.boot) || b.bytes - a.bytes);
}

export function bootBytes(chunks: readonly ChunkSize[]): number {
  return chunks.filter((c) => c.boot).reduce((sum, c) => sum + c.bytes, 0);
}
