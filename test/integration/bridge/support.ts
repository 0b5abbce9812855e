/** Shared by the bridge's tests: a quiet demo service, a stub renderer, and snapshots of the core. */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { BrowserHost } from '../../../electron/browser-host.ts';
import type { AppCore } from '../../../electron/core/app/app-core.ts';
import { webSocketTransport } from '../../../renderer/bridge/transports.ts';
import type { Transport } from '../../../shared/contract/client.ts';
import { DEMO_TOKEN, startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';
import { control, eventually } from '../core/helpers.ts';
import { inspectStore } from '../store-inspector.ts';

/**
 * The demo workspace's service as the app runs it (the embedded sandbox with the demo seed and its
 * token), minus the simulated customers' unprompted messages, so "nothing changed" can be checked.
 */
export function quietDemo(): {
  start(): Promise<{ url: string; token: string }>;
  stop(): Promise<void>;
  sandbox(): RunningSandbox;
} {
  let running: Promise<RunningSandbox> | undefined;
  let started: RunningSandbox | undefined;
  return {
    async start() {
      running ??= startSandbox({ seed: 'demo', tokens: [DEMO_TOKEN], quiet: true });
      started = await running;
      return { url: started.url, token: DEMO_TOKEN };
    },
    async stop() {
      await (await running)?.stop();
    },
    sandbox() {
      if (!started) throw new Error('the demo service has not started');
      return started;
    },
  };
}

/** What the page's browser adds to its WebSocket by itself: the session cookie and its Origin. */
function pageWebSocket(origin: string, cookie: string): typeof WebSocket {
  return class PageWebSocket extends WebSocket {
    constructor(url: string | URL) {
      super(url, { headers: { origin, cookie } } as unknown as string[]);
    }
  };
}

/** Once the test is over, reconnection attempts go nowhere instead of to a closed port. */
class Disconnected extends EventTarget {
  send(): void {}
  close(): void {}
}

const realWebSocket = globalThis.WebSocket;

/**
 * The renderer's WebSocket transport connected to the host the way a page is: launched for its
 * session cookie, then opening the bridge with that cookie and the page's Origin.
 */
export async function connectAsPage(host: BrowserHost): Promise<Transport> {
  const launch = await fetch(host.url, { redirect: 'manual' });
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] as string;
  globalThis.WebSocket = pageWebSocket(host.server.origin, cookie);
  return webSocketTransport(`${host.server.origin.replace('http:', 'ws:')}/bridge`);
}

/** Stops the host with the page's reconnection attempts going nowhere, then restores WebSocket. */
export async function stopPageHost(host: BrowserHost | undefined): Promise<void> {
  globalThis.WebSocket = Disconnected as unknown as typeof WebSocket;
  await host?.stop();
  globalThis.WebSocket = realWebSocket;
}

/** Resolves once the first sync of the active workspace has finished. */
export async function firstSync(core: AppCore): Promise<void> {
  await eventually(() => core.session.sync.status.phase === 'incremental', 'the first sync', 30_000);
}

/**
 * A stand-in for dist/renderer (integration tests must not depend on a renderer build), with a
 * secret file beside it that no request may ever reach.
 */
export function stubRenderer(root: string): { dir: string; secret: string } {
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>Parley</title><script type="module" src="./assets/app.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("parley");\n');
  writeFileSync(join(dir, '.env'), 'NOT_FOR_THE_PAGE=1\n');
  const secret = 'the-secret-beside-the-renderer';
  writeFileSync(join(root, 'secret.txt'), secret);
  return { dir, secret };
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A small real PNG on disk (what a user would drop on the composer). */
export function pngFile(dir: string, name = 'photo.png'): string {
  const path = join(dir, name);
  writeFileSync(path, PNG);
  return path;
}

const digest = (rows: unknown): string => createHash('sha256').update(JSON.stringify(rows)).digest('hex');

/**
 * Everything a bridge call could change, in the core and on the service: rows the user can affect
 * (not sync bookkeeping such as delivery states, which the service moves on its own), the outbox,
 * staged files, drafts, settings, workspaces and the service's own counts.
 */
export async function worldSnapshot(core: AppCore, sandbox: RunningSandbox): Promise<Record<string, string>> {
  const rows = (sql: string) =>
    inspectStore(core.session.store, (db) => db.all(sql)).map((row) => ({ ...(row as object) }));
  const service = await control<{ orgs: unknown[] }>(sandbox, 'GET', '/state');
  return {
    chats: digest(rows('SELECT id, pinned, archived, marked_unread, display_name FROM chats ORDER BY id')),
    messages: digest(rows('SELECT key, chat_id, text, edited_at, deleted FROM messages ORDER BY key')),
    reactions: digest(rows('SELECT message_id, kind, from_me FROM reactions ORDER BY id')),
    contacts: digest(rows('SELECT * FROM contacts ORDER BY id')),
    lines: digest(rows('SELECT id, forwarding_number FROM lines ORDER BY id')),
    outbox: digest(rows('SELECT id, kind, state, attempts FROM outbox ORDER BY id')),
    staged: digest(rows('SELECT id FROM staged_files ORDER BY id')),
    drafts: digest(rows('SELECT chat_id, text, staged_json FROM drafts ORDER BY chat_id')),
    canned: digest(rows('SELECT id, title, body, group_name, updated_at FROM canned_replies ORDER BY id')),
    cannedFiles: digest(rows('SELECT id, reply_id, filename FROM canned_reply_files ORDER BY id')),
    notes: digest(rows('SELECT * FROM notes ORDER BY id')),
    workbench: digest(rows('SELECT * FROM workbench_settings ORDER BY key')),
    settings: digest(core.options.settings.get()),
    workspaces: digest(core.workspaceList()),
    service: digest(service.orgs),
  };
}

/** Row counts, for messages that say what changed. */
export function count(core: AppCore, table: string): number {
  return inspectStore(
    core.session.store,
    (db) => db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n ?? 0,
  );
}

/**
 * A web server for attachment URLs: `/flaky.png` fails until `heal()` (so a send fails for good, then
 * succeeds when retried), `/missing.png` always fails.
 */
export async function attachmentServer(png: Buffer): Promise<{
  url(name: 'flaky.png' | 'missing.png'): string;
  heal(): void;
  close(): Promise<void>;
}> {
  let healed = false;
  const server = createServer((request, response) => {
    if (request.url === '/flaky.png' && healed) {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      response.end(png);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    heal: () => {
      healed = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
