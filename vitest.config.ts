// Two projects because they need different runtimes: unit tests are fast and parallel; integration
// tests start real servers (sandbox, keychain via scripts/with-keyring.sh, SQLite files), so they get
// child processes (`forks`: node:sqlite and native addons are safest outside worker threads) and
// generous timeouts for slow CI machines. `npm run test:integration` runs three files at once: they
// mostly wait on their servers, and Vitest's default (cores − 1) ran them one at a time on 2 cores
// (494 s against 289 s with two at once; 279 → 249 s with three, the cores then 87 % busy).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'shared/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
