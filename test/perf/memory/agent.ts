/** The day's two sides: customers writing through the service, and the agent's steps in the page. */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { bulkCustomerPhone } from '../../../sandbox/seed/numbers.ts';
import type { SandboxProcess } from '../lib.ts';
import { control } from './day-service.ts';
import type { HostProcess } from './host.ts';
import { pageNow, waitForMark } from './page.ts';
import { sleep, wallNow } from './units.ts';

/** How fast customers write, all day. */
export const INBOUND_PER_SECOND = 5;

export interface DayCounts {
  inbound: number;
  inbound_failed: number;
  switches: number;
  sends: number;
  scrolls: number;
  attachments_opened: number;
  attachments_not_found: number;
}

/** Customers writing at a steady rate to random chats, some with a photo, until `until`. */
export async function customers(
  service: SandboxProcess,
  longChat: { chatId: number },
  photoUrl: string,
  done: () => boolean,
  counts: Pick<DayCounts, 'inbound' | 'inbound_failed'>,
  bulkChats: number,
): Promise<void> {
  const interval = 1000 / INBOUND_PER_SECOND;
  const inFlight = new Set<Promise<unknown>>();
  for (let i = 0, next = wallNow(); !done(); i++, next += interval) {
    await sleep(Math.max(0, next - wallNow()));
    // Every tenth to the long chat (so its tail moves), every 25th with a photo.
    const target =
      i % 10 === 0
        ? { chat_id: longChat.chatId }
        : { from: bulkCustomerPhone(Math.floor(Math.random() * bulkChats)) };
    const body = {
      ...target,
      text: `Customer message ${i + 1} (${randomUUID().slice(0, 8)})`,
      ...(i % 25 === 0 ? { attachment_urls: [photoUrl] } : {}),
    };
    const call = control(service, '/inbound/message', body).then(
      () => counts.inbound++,
      () => counts.inbound_failed++,
    );
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
  }
  await Promise.all(inFlight);
}

/**
 * Adds the organization as the agent's own workspace (not the demo, whose cache is dropped at every
 * launch: a cold start then opens a cached inbox, as an agent's next morning does) and waits out its
 * first sync.
 */
export async function addWorkspaceAndSync(
  host: HostProcess,
  service: SandboxProcess,
  chats: number,
): Promise<void> {
  await host.call('workspaces.add', {
    name: 'Bench',
    baseUrl: service.url,
    token: service.token,
    apiVersion: 'v2',
  });
  const syncing = wallNow();
  for (;;) {
    // (While the added workspace replaces the demo, none is open for a moment.)
    const status = await host.call('app.syncStatus', {}).catch(() => null);
    if (status?.phase === 'incremental' && status.chatsKnown >= chats) return;
    if (wallNow() - syncing > 20 * 60_000)
      throw new Error(`the first sync did not finish: ${JSON.stringify(status)}`);
    await sleep(500);
  }
}

/** Live events on, through the direct tunnel (the service's webhooks reach the host on loopback). */
export async function turnLiveEventsOn(host: HostProcess): Promise<void> {
  await host.call('webhooks.configure', { enabled: true, provider: 'direct' });
  for (let i = 0; (await host.call('webhooks.status', {})).state !== 'live'; i++) {
    if (i > 300) throw new Error('live events did not turn on');
    await sleep(100);
  }
}

/** The title of the inbox's top conversation: the long chat, whose newest message is the latest. */
export async function topConversationTitle(page: Page): Promise<string> {
  const title = await page
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option')
    .first()
    .getAttribute('aria-label')
    .then((label) => label?.split('. ')[0] ?? '');
  if (!title) throw new Error('the long chat is not at the top of the inbox');
  return title;
}

export async function openLongChat(page: Page, title: string): Promise<void> {
  // Already open (a switch can land on it): choosing it again paints nothing new.
  if ((await page.getByRole('textbox', { name: `Message ${title}` }).count()) > 0) return;
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Jump to a conversation, contact or action' }).fill(title);
  const after = await pageNow(page);
  await page.keyboard.press('Enter');
  await waitForMark(page, 'timeline-painted', after);
}

// The agent's steps, one at a time (bench-memory.ts's day runs them on a clock; memory-breakdown.ts
// repeats each alone).

/** Alt+↓ to the next conversation, until its timeline is painted. */
export async function switchConversation(page: Page): Promise<void> {
  const after = await pageNow(page);
  await page.keyboard.press('Alt+ArrowDown');
  await waitForMark(page, 'timeline-painted', after).catch(() => undefined);
}

/** Opens the newest photo of the long chat in the viewer and closes it; false when none was there. */
export async function openNewestPhoto(page: Page, longTitle: string): Promise<boolean> {
  // The newest photos are at the bottom of the long chat, wherever the agent last left it.
  await openLongChat(page, longTitle);
  await page.getByRole('log', { name: 'Messages' }).hover();
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 50_000);
  const open = page.getByRole('log', { name: 'Messages' }).getByRole('button', { name: /^Open image / });
  await open
    .last()
    .waitFor({ timeout: 5_000 })
    .catch(() => undefined);
  if ((await open.count()) === 0) return false;
  // The newest rows move while customers write into the long chat (the list follows its end): a
  // photo near the top of the drawn rows can be pushed out of them again and again while Playwright
  // waits for it to hold still. Then it is clicked where it is, in one step in the page.
  await open
    .last()
    .click({ timeout: 5_000 })
    .catch(() => open.last().evaluate((button: HTMLElement) => button.click()));
  await page.getByRole('dialog').waitFor();
  // The agent looks at the photo: the viewer has drawn it (its canvas) or loaded it (an <img>).
  await page
    .waitForFunction(
      () =>
        document.querySelector('.media-viewer canvas[aria-busy="false"]') !== null ||
        [...document.querySelectorAll<HTMLImageElement>('.media-viewer img')].some(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  return true;
}

/** Scrolls back through the long chat (30 wheel steps of 800 px). */
export async function scrollBackLongChat(page: Page, longTitle: string): Promise<void> {
  await openLongChat(page, longTitle);
  await page.getByRole('log', { name: 'Messages' }).hover();
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, -800);
    await sleep(16);
  }
}

/** Sends a reply in the open conversation, until its bubble is on screen. */
export async function sendReply(page: Page): Promise<void> {
  const box = page.getByRole('textbox', { name: /^Message / });
  await box.fill(`On our way, see you soon (${randomUUID().slice(0, 8)})`);
  const before = await pageNow(page);
  await box.press('Enter');
  await waitForMark(page, 'bubble-rendered', before).catch(() => undefined);
}
