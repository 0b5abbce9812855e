/**
 * The world an end-to-end test runs in: Parley's browser host in this process (the real core and the
 * built renderer, on 127.0.0.1) over its demo workspace, whose service is a sandbox we can reach
 * from the side: its control API (simulated customers, faults) and its REST API with the demo token
 * (to check what really happened on the service).
 *
 * Each test gets its own host, data folder and sandbox (the `parley` fixture), so nothing one test
 * does can be seen by another. The sandbox is quiet (customers only answer what we send), so every
 * inbound message, typing indicator or reaction in a test is one the test asked for.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, type Page } from '@playwright/test';
import type { BrowserHost } from '../../../electron/browser-host.ts';
import { startBrowserHost } from '../../../electron/browser-host.ts';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract/methods.ts';
import type { Chat } from '../../../shared/domain.ts';
import { chatTitle } from '../../../renderer/lib/chat-presentation.ts';
import { DEMO_TOKEN, startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';

export interface ParleyOptions {
  /** The browser host's upload limit (default: the service's 100 MB). */
  maxUploadBytes?: number;
  /** The sandbox's speed (delivery delays, replies); default 1. */
  speed?: number;
  /** Poll intervals the agent chose (defaults: 1 s for the open chat, 5 s for the rest). */
  pollIntervalMs?: number;
  backgroundPollIntervalMs?: number;
}

/** A message as the service's REST API shows it. */
export interface ServiceMessage {
  id: number;
  text: string;
  sent_at: string;
  delivery_status: string;
  is_read: boolean;
  edited_at: string | null;
  attachments: Array<{ id: string; filename: string; mime_type: string; file_size: number }>;
  reactions: Array<{ reaction: string; is_from_me: boolean }>;
}

export class Parley {
  readonly host: BrowserHost;
  readonly sandbox: RunningSandbox;
  readonly dataDir: string;

  constructor(host: BrowserHost, sandbox: RunningSandbox, dataDir: string) {
    this.host = host;
    this.sandbox = sandbox;
    this.dataDir = dataDir;
  }

  /** The URL the host prints (with its one-time key). */
  get url(): string {
    return this.host.url;
  }

  /** A bridge call, exactly as the renderer makes it (the contract's dispatcher). */
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
    return callCore(this.host, method, input);
  }

  /** The sandbox's control API (simulated customers, faults, configuration). */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.sandbox.url}/__sandbox${path}`, {
      method,
      headers: {
        'x-sandbox-admin-secret': this.sandbox.adminSecret,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** The service's REST API with the demo workspace's token: what really happened there. */
  async service<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.sandbox.url}/api/partner/v2${path}`, {
      method,
      headers: {
        'x-partner-integration-token': DEMO_TOKEN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** Every message of a chat on the service, oldest first. */
  async messagesOnService(chatId: number): Promise<ServiceMessage[]> {
    const all: ServiceMessage[] = [];
    for (let page = 1; ; page++) {
      const body = await this.service<{ data: ServiceMessage[]; meta: { total_pages: number } }>(
        'GET',
        `/chats/${chatId}/chat_messages?per_page=100&page=${page}`,
      );
      all.push(...body.data);
      if (page >= body.meta.total_pages) return all;
    }
  }

  /** How many messages with exactly this text the chat holds on the service. */
  async copiesOnService(chatId: number, text: string): Promise<number> {
    return (await this.messagesOnService(chatId)).filter((m) => m.text === text).length;
  }

  /**
   * Where a message with this text got to — the service, the core's store, the sync and live status —
   * for the failure message of a test whose screen never showed it.
   */
  async whereIs(chatId: number, text: string, page: Page): Promise<string> {
    const onService = await this.copiesOnService(chatId, text).catch(
      (e: unknown) => `unknown (${String(e)})`,
    );
    const newest = await this.call('messages.page', { chatId, limit: 60 }).catch(() => null);
    const stored = newest ? newest.messages.filter((m) => m.text === text).length : 'unknown';
    const sync = await this.call('app.syncStatus', {}).catch((e: unknown) => String(e));
    const live = await this.call('webhooks.status', {}).catch((e: unknown) => String(e));
    const screen = await page
      .evaluate(() => {
        const bubbles = [...document.querySelectorAll('[role="log"] [data-testid="message"]')];
        const scroller = document.querySelector('.timeline-scroller');
        return JSON.stringify({
          bubbles: bubbles.length,
          last: bubbles.at(-1)?.textContent?.slice(0, 80) ?? null,
          scrolledUpBy: scroller ? scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight : null,
        });
      })
      .catch((e: unknown) => String(e));
    return [
      `on screen: ${screen}`,
      `copies on the service: ${onService}; in the core's newest page: ${stored}`,
      `sync: ${JSON.stringify(sync)}`,
      `live: ${JSON.stringify(live)}`,
    ].join('\n');
  }

  /** The inbox as the core lists it (the same order as the screen: pinned, then latest activity). */
  async inbox(limit = 50): Promise<Chat[]> {
    return this.call('chats.list', { limit });
  }

  /** The first `n` conversations of the inbox, with the titles their rows show. */
  async pickChats(n: number): Promise<Array<{ chat: Chat; title: string }>> {
    return (await this.inbox(n)).map((chat) => ({ chat, title: chatTitle(chat) }));
  }

  /**
   * A conversation near the top of the inbox (so its row is on screen) that fits `fits`, with the
   * title its row shows. The demo's history is seeded from fixed PRNGs, so this is deterministic.
   */
  async pickChat(
    fits: (chat: Chat) => boolean,
    { skip = [] as number[] } = {},
  ): Promise<{ chat: Chat; title: string }> {
    const chat = (await this.inbox(10)).find((c) => fits(c) && !skip.includes(c.id));
    if (!chat) throw new Error('no conversation near the top of the demo inbox fits this test');
    return { chat, title: chatTitle(chat) };
  }

  /** Resolves once the core's first sync of the demo workspace has filled the inbox. */
  async firstSync(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.call('app.syncStatus', {}).catch(() => null);
      if (status?.phase === 'incremental' && status.chatsKnown > 0) return;
      if (Date.now() > deadline) throw new Error(`the first sync did not finish: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    await this.host.stop();
    await this.sandbox.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A bridge call to a host's core, exactly as the renderer makes it (the contract's dispatcher). */
export async function callCore<M extends MethodName>(
  host: BrowserHost,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> {
  const result = await host.core.dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

/** Starts a browser host over a fresh demo workspace whose service is a quiet sandbox. */
export async function startParley(options: ParleyOptions = {}): Promise<Parley> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
  let sandbox: Promise<RunningSandbox> | undefined;
  const demo = {
    async start() {
      sandbox ??= startSandbox({
        seed: 'demo',
        tokens: [DEMO_TOKEN],
        quiet: true,
        speed: options.speed ?? 1,
      });
      return { url: (await sandbox).url, token: DEMO_TOKEN };
    },
    // The test stops the sandbox itself, after the host (which must not lose its service first).
    async stop() {},
  };
  const host = await startBrowserHost({
    dataDir,
    port: 0,
    // A keychain entry name of its own: hosts of parallel tests never share secrets.
    vaultService: `parley-e2e-${randomUUID()}`,
    demo,
    ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}),
  });
  await demo.start();
  const parley = new Parley(host, await (sandbox as Promise<RunningSandbox>), dataDir);
  await parley.firstSync();
  // The agent's sync preferences (what settings.update offers): faster than the defaults, so a test
  // sees what polling brings within seconds.
  await parley.call('settings.update', {
    sync: {
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      backgroundPollIntervalMs: options.backgroundPollIntervalMs ?? 5_000,
    },
  });
  return parley;
}

/** The `parley` fixture: a fresh app per test; `test.use({ parleyOptions })` configures it. */
export const test = base.extend<{ parleyOptions: ParleyOptions; parley: Parley }>({
  parleyOptions: [{}, { option: true }],
  parley: async ({ parleyOptions }, use) => {
    const parley = await startParley(parleyOptions);
    await use(parley);
    await parley.stop();
  },
});

export { expect } from '@playwright/test';

/** Opens the printed URL and waits for the inbox's first rows. */
export async function openInbox(page: Page, parley: Parley): Promise<void> {
  await page.goto(parley.url);
  await page.getByRole('listbox', { name: 'Conversations' }).getByRole('option').first().waitFor();
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
