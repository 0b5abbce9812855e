// End-to-end tests drive the real renderer and core through the browser host in Chromium.
// Playwright's own browser download cannot reach the internet on our machines, so when it is absent
// we drive a system Chromium (apt package `chromium`) instead.
import { existsSync } from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';

function chromiumPath(): string {
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return bundled;
  } catch {
    // No bundled browser known for this platform: fall through to the system one.
  }
  return process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
}

const isRoot = process.getuid?.() === 0;

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  forbidOnly: Boolean(process.env['CI']),
  retries: 0, // a flaky test is a bug to fix, not to retry away
  // Each test starts its own browser host and sandbox in the worker; two workers fit two cores.
  workers: 2,
  fullyParallel: true,
  timeout: 60_000,
  // Polling (the open chat every second, the rest every 5 s) and simulated delivery take seconds.
  expect: { timeout: 15_000 },
  reporter: process.env['CI'] ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    trace: 'retain-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        // Chromium refuses to start its sandbox as root (CI containers run as root).
        ...(isRoot ? ['--no-sandbox'] : []),
        // No GPU in CI, and nothing that phones home or updates: the network is npm/apt only.
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
