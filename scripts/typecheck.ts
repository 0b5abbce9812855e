// Type-checks every TypeScript project. They are separate projects (not one tsconfig) so that each
// folder sees only the globals it may use at run time, e.g. no Node types in renderer/ or shared/.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasFiles } from './lib/files.ts';
import { runTogether } from './lib/run-together.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

// [tsconfig, folder whose sources it checks], the longest first (they run two at a time). A folder
// without sources is skipped, because tsc fails with TS18003 on an empty project and these folders
// start out empty.
const projects: [string, string][] = [
  ['test/tsconfig.json', 'test'],
  ['electron/tsconfig.json', 'electron'],
  ['renderer/tsconfig.json', 'renderer'],
  ['sandbox/tsconfig.json', 'sandbox'],
  ['tsconfig.json', 'scripts'],
  ['shared/tsconfig.json', 'shared'],
];

// Two projects at a time: tsc is mostly one busy thread, and the machines we test on have two cores.
const runnable = projects.filter(([config, folder]) => {
  if (hasFiles(join(root, folder), ['.ts', '.tsx'])) return true;
  console.log(`typecheck: ${config} skipped (no sources in ${folder}/)`);
  return false;
});
const outcomes = await runTogether(
  runnable.map(([config]) => ({ name: config, command: process.execPath, args: [tsc, '-p', config] })),
  { cwd: root, atOnce: 2 },
);
for (const { name, status, seconds } of outcomes) {
  console.log(`typecheck: ${name} ${status === 0 ? 'ok' : 'FAILED'} (${seconds.toFixed(1)}s)`);
}
process.exit(outcomes.every((o) => o.status === 0) ? 0 : 1);
