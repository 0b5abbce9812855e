/**
 * Smoke: Parley as `npm run web` runs it (electron/browser-host.ts in its own process, the real core,
 * the embedded demo sandbox, the built renderer), opened in Chromium from the URL it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const ROOT = join(import.meta.dirname, '..', '..');

let host: ChildProcess | undefined;
let dataDir = '';
let launchUrl = '';

/** Starts the browser host exactly as `npm run web` does and reads the URL it prints. */
async function startHost(): Promise<string> {
  dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
  const child = spawn(
    process.execPath,
    [join(ROOT, 'electron', 'browser-host.ts'), '--no-open', '--port', '0', '--data-dir', dataDir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  host = child;
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Parley is running at (http:\/\/127\.0\.0\.1:\d+\/\?k=\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) =>
      reject(new Error(`the browser host exited (${code}) before printing its URL`)),
    );
  });
}

/**
 * The names of the inbox's most recent named conversations, asked of the core over the page's own
 * bridge socket. (The demo's simulated customers keep texting, so which chats are on top changes;
 * asking at the time keeps the check exact without hard-coding the seed.)
 */
function newestNamedChats(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const socket = new WebSocket(`ws://${location.host}/bridge`);
        socket.onopen = () =>
          socket.send(JSON.stringify({ id: 1, method: 'chats.list', input: { limit: 10 } }));
        socket.onmessage = (message) => {
          const frame = JSON.parse(String(message.data)) as {
            id?: number;
            value?: Array<{ displayName: string }>;
          };
          if (frame.id !== 1) return;
          socket.close();
          resolve(
            (frame.value ?? []).map((chat) => chat.displayName).filter((name) => /[A-Za-z]/.test(name)),
          );
        };
        socket.onerror = () => reject(new Error('the bridge socket failed'));
      }),
  );
}

test.beforeAll(async () => {
  launchUrl = await startHost();
});

test.afterAll(async () => {
  if (host && host.exitCode === null) {
    const exited = new Promise((resolve) => host?.once('exit', resolve));
    host.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('an agent opens the printed URL and the inbox lists the demo conversations', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(launchUrl);
  // The key in the URL became a session cookie; the address bar no longer shows it.
  await expect(page).toHaveURL(new URL('/', launchUrl).href);

  const conversations = page.getByRole('listbox', { name: 'Conversations' });
  await expect(conversations.getByRole('option').first()).toBeVisible({ timeout: 30_000 });

  const [newest] = await newestNamedChats(page);
  expect(newest).toBeTruthy();
  await expect(conversations.getByRole('option').filter({ hasText: newest })).toBeVisible();
  expect(errors).toEqual([]);
});
