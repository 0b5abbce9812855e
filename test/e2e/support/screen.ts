/**
 * What the agent sees, by accessible role and name (and the bubbles' test ids), so the specs read
 * like the screen: `chatRow(page, 'Sofia Park')`, `bubble(page, 'On my way')`.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { escapeRegExp } from './parley.ts';

export function conversationList(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Conversations' });
}

/** An inbox row: its accessible name is "<title>. <unread, pinned, service, preview>". */
export function chatRow(page: Page, title: string): Locator {
  return conversationList(page).getByRole('option', { name: new RegExp(`^${escapeRegExp(title)}\\. `) });
}

/** The open conversation (a region named after the chat). */
export function conversation(page: Page, title: string): Locator {
  return page.getByRole('region', { name: `Conversation with ${title}` });
}

export function timeline(page: Page): Locator {
  return page.getByRole('log', { name: 'Messages' });
}

export function bubbles(page: Page): Locator {
  return timeline(page).getByTestId('message');
}

/** The bubble whose text is exactly `text`. */
export function bubble(page: Page, text: string): Locator {
  return bubbles(page).filter({
    has: page.locator('.message-text', { hasText: new RegExp(`^${escapeRegExp(text)}$`) }),
  });
}

export function composer(page: Page, title: string): Locator {
  return page.getByRole('textbox', { name: `Message ${title}` });
}

/** Clicks a row and waits for its conversation to show. */
export async function openChat(page: Page, title: string): Promise<void> {
  await chatRow(page, title).click();
  await expect(conversation(page, title)).toBeVisible();
  await expect(timeline(page)).toBeVisible();
}

/** Types a message in the open conversation and presses Enter. */
export async function send(page: Page, title: string, text: string): Promise<void> {
  const box = composer(page, title);
  await box.fill(text);
  await box.press('Enter');
}

/** The sidebar's Live / Polling only / Offline button. */
export function liveIndicator(page: Page): Locator {
  return page.getByRole('button', { name: /^Connection: / });
}

/** Goes to a view of the sidebar ("Contacts", "Lines & forwarding", "Settings", "Inbox"). */
export async function goTo(
  page: Page,
  view: 'Inbox' | 'Contacts' | 'Lines & forwarding' | 'Settings',
): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const name = view === 'Inbox' ? /^Inbox/ : view;
  await nav.getByRole('button', { name, exact: view !== 'Inbox' }).click();
}

export interface Notice {
  title: string;
  body: string;
}

/**
 * Grants the page the Notifications permission and records every notification it shows: the
 * browser host uses the Web Notifications API, so the constructor is wrapped before the app loads.
 */
export async function recordNotifications(page: Page): Promise<Notice[]> {
  const shown: Notice[] = [];
  await page.context().grantPermissions(['notifications']);
  await page.exposeFunction('__parleyNotified', (title: string, body: string) => shown.push({ title, body }));
  await page.addInitScript(() => {
    const Native = window.Notification;
    class Recorded extends Native {
      constructor(title: string, options?: NotificationOptions) {
        (window as unknown as { __parleyNotified(title: string, body: string): void }).__parleyNotified(
          title,
          options?.body ?? '',
        );
        super(title, options);
      }
    }
    window.Notification = Recorded;
  });
  return shown;
}

interface HighlightWatch {
  highlightsSeen: Set<string>;
}

/**
 * Keeps a record of every row shown highlighted (a search hit or a revealed note), from the next
 * page load on. The highlight lasts a moment, which a slow machine can let pass before an assertion
 * looks; the record is what the agent saw. Call before `openInbox`.
 */
export async function recordHighlights(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = new Set<string>();
    (window as unknown as HighlightWatch).highlightsSeen = seen;
    new MutationObserver(() => {
      for (const row of document.querySelectorAll('.is-highlighted'))
        seen.add(row.getAttribute('data-key') ?? row.getAttribute('aria-label') ?? row.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });
}

/** Starts the record afresh (before the same row is revealed again). */
export async function forgetHighlights(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as HighlightWatch).highlightsSeen.clear());
}

/** The row was shown highlighted since the record began (see `recordHighlights`). */
export async function expectHighlighted(row: Locator): Promise<void> {
  await expect
    .poll(() =>
      row.evaluate((el) =>
        (window as unknown as HighlightWatch).highlightsSeen.has(
          el.getAttribute('data-key') ?? el.getAttribute('aria-label') ?? el.textContent ?? '',
        ),
      ),
    )
    .toBe(true);
}

/** What a photo shows once it is drawn: its size in pixels and the colour at its middle. */
export interface DrawnPicture {
  size: [number, number];
  rgb: [number, number, number];
}

/**
 * A photo as the agent sees it (the app draws still photos on a canvas it empties when they leave
 * the screen, and plays animations as an <img>): what it shows, or null while it is not drawn yet.
 */
export function drawnPicture(picture: Locator): Promise<DrawnPicture | null> {
  return picture.evaluate((element: HTMLCanvasElement | HTMLImageElement) => {
    const middle = (source: CanvasImageSource, width: number, height: number) => {
      const probe = document.createElement('canvas');
      probe.width = width;
      probe.height = height;
      const context = probe.getContext('2d');
      if (!context) return null;
      context.drawImage(source, 0, 0);
      const [r = 0, g = 0, b = 0] = context.getImageData(width >> 1, height >> 1, 1, 1).data;
      return { size: [width, height], rgb: [r, g, b] } as DrawnPicture;
    };
    if (element instanceof HTMLCanvasElement)
      return element.getAttribute('aria-busy') === 'false' && element.width > 0
        ? middle(element, element.width, element.height)
        : null;
    return element.complete && element.naturalWidth > 0
      ? middle(element, element.naturalWidth, element.naturalHeight)
      : null;
  });
}
