// The renderer: a React single page built into dist/renderer, loaded by Electron from the app-owned
// `parley://` protocol and by the browser host from 127.0.0.1. No inline scripts (strict CSP).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    assetsInlineLimit: 0,
  },
});
