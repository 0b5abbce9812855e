// `npm test`: every check CI runs, in order, with a summary at the end. Each phase is an npm script
// so it can also be run alone; all phases run even after a failure so one CI run reports everything.
// The static checks (type-check and lint) run side by side, each printed whole when it ends: each is
// mostly one busy thread, and two cores finish both sooner together (the suite's budget is 15 minutes).
// A test phase with no test files yet is reported as skipped, visibly, instead of letting the
// runner fail on "no tests found" or hiding it behind passWithNoTests.
// Before any phase, the system packages the tests need are provisioned (scripts/lib/provision.ts):
// installed when this user may, else the run stops at once with the one command to run.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasFiles } from './lib/files.ts';
import { provision } from './lib/provision.ts';
import { runTogether } from './lib/run-together.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

type Phase = { script: string; skipUnless?: [folder: string, suffix: string] };

const sideBySide = ['typecheck', 'lint'];
const phases: Phase[] = [
  { script: 'test:unit' },
  // Runs inside scripts/with-keyring.sh (see package.json): these tests use a real Secret Service.
  { script: 'test:integration', skipUnless: ['test/integration', '.test.ts'] },
  { script: 'test:e2e', skipUnless: ['test/e2e', '.spec.ts'] },
];

const cannotProvision = provision();
if (cannotProvision !== null) {
  console.error(cannotProvision);
  process.exit(1);
}

const results: { script: string; outcome: string; seconds: number }[] = [];
console.log(`\n=== ${sideBySide.join(' + ')} (side by side) ===`);
for (const { name, status, reason, seconds } of await runTogether(
  sideBySide.map((script) => ({ name: script, command: 'npm', args: ['run', '--silent', script] })),
  { cwd: root, atOnce: sideBySide.length },
)) {
  const outcome = status === 0 ? 'passed' : `FAILED (${reason ?? `exit ${status}`})`;
  results.push({ script: name, outcome, seconds });
}
for (const { script, skipUnless } of phases) {
  if (skipUnless && !hasFiles(join(root, skipUnless[0]), [skipUnless[1]])) {
    results.push({ script, outcome: `skipped (no *${skipUnless[1]} in ${skipUnless[0]}/)`, seconds: 0 });
    continue;
  }
  console.log(`\n=== ${script} ===`);
  const started = Date.now();
  // npm is a .cmd shim on Windows, which spawn can only start through a shell.
  const run = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  const outcome =
    run.error !== undefined
      ? `FAILED (${run.error.message})`
      : run.status === 0
        ? 'passed'
        : `FAILED (${run.signal ?? `exit ${run.status}`})`;
  results.push({ script, outcome, seconds: (Date.now() - started) / 1000 });
}

const failed = results.filter((r) => r.outcome.startsWith('FAILED'));
console.log('\n=== summary ===');
for (const r of results) {
  console.log(`${r.script.padEnd(18)} ${r.seconds.toFixed(1).padStart(6)}s  ${r.outcome}`);
}
console.log(failed.length === 0 ? '\nAll checks passed.' : `\n${failed.length} check(s) failed.`);
process.exit(failed.length === 0 ? 0 : 1);
