// Type-checks every TypeScript project. They are separate projects (not one tsconfig) so that each
// folder sees only the globals it may use at run time, e.g. no Node types in renderer/ or shared/.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasFiles } from './lib/files.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

// [tsconfig, folder whose sources it checks]. A folder without sources is skipped, because tsc fails
// with TS18003 on an empty project and these folders start out empty.
const projects: [string, string][] = [
  ['tsconfig.json', 'scripts'],
  ['shared/tsconfig.json', 'shared'],
  ['renderer/tsconfig.json', 'renderer'],
  ['sandbox/tsconfig.json', 'sandbox'],
  ['electron/tsconfig.json', 'electron'],
  ['test/tsconfig.json', 'test'],
];

let failed = 0;
for (const [config, folder] of projects) {
  if (!hasFiles(join(root, folder), ['.ts', '.tsx'])) {
    console.log(`typecheck: ${config} skipped (no sources in ${folder}/)`);
    continue;
  }
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '-p', config], { cwd: root, stdio: 'inherit' });
  const ok = result.status === 0;
  if (!ok) failed++;
  console.log(
    `typecheck: ${config} ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)}s)`,
  );
}
process.exit(failed === 0 ? 0 : 1);
