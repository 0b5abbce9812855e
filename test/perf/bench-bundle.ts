/**
 * npm run bench:bundle — the built renderer's JavaScript chunks, from Vite's build manifest: minified
 * bytes per chunk, the boot path (the entry and its static imports) first, then the boot total
 * against its budget. `npm run bench:ui` records the same list under `renderer_bundle`.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chunkSizes, chunkTable, type Manifest } from './boot-budget.ts';

const dir = join(import.meta.dirname, '..', '..', 'dist', 'renderer');
const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
console.log(chunkTable(chunkSizes(manifest, (file) => statSync(join(dir, file)).size)));
