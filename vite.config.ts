// The renderer: a React single page built into dist/renderer, loaded by Electron from the app-owned
// `parley://` protocol and by the browser host from 127.0.0.1. No inline scripts (strict CSP).
// Views off the inbox path are split into their own chunks (renderer/lib/lazy.ts); the build fails
// when the boot path (the entry and its static imports) outgrows its budget (test/perf/boot-budget.ts).
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { BOOT_BUDGET_BYTES, bootBytes, chunkSizes, type Manifest } from './test/perf/boot-budget.ts';

function bootBudget(): Plugin {
  return {
    name: 'parley-boot-budget',
    apply: 'build',
    // After the write: the manifest asset is added to the bundle late in generation.
    writeBundle(_options, bundle) {
      const manifestAsset = Object.values(bundle).find(
        (item) => item.type === 'asset' && item.fileName.endsWith('manifest.json'),
      );
      if (!manifestAsset || manifestAsset.type !== 'asset') return this.error('no build manifest to check');
      const manifest = JSON.parse(String(manifestAsset.source)) as Manifest;
      const sizeOf = (file: string): number => {
        const item = bundle[file];
        if (!item || item.type !== 'chunk') throw new Error(`${file} is not in the bundle`);
        return Buffer.byteLength(item.code);
      };
      const boot = bootBytes(chunkSizes(manifest, sizeOf));
      if (boot > BOOT_BUDGET_BYTES)
        this.error(
          `the renderer's boot path is ${boot} bytes, over its budget of ${BOOT_BUDGET_BYTES}: ` +
            'move what the inbox does not need behind a lazy boundary (renderer/lib/lazy.ts)',
        );
    },
  };
}

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), bootBudget()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    assetsInlineLimit: 0,
    manifest: true,
  },
});
