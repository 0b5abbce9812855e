/**
 * A narrow window: below 1100 px the sidebar is a rail of icons; below 860 px the inbox shows the
 * conversation list or one conversation at a time, with a back control, as desktop messengers do.
 * Nothing overlaps, and bubbles wrap between words. Pictures: test artifacts, and with
 * PARLEY_DOCS_SCREENSHOTS=1 docs/screenshots/narrow-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, openInbox, test } from './support/parley.ts';
import { bubbles, chatRow, conversation, conversationList, composer, timeline } from './support/screen.ts';

const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** A test artifact; with PARLEY_DOCS_SCREENSHOTS=1 also docs/screenshots/narrow-<name>.png. */
async function photograph(page: Page, name: string): Promise<void> {
  const body = await page.screenshot({ caret: 'hide', animations: 'disabled' });
  await test.info().attach(`narrow-${name}`, { body, contentType: 'image/png' });
  if (process.env['PARLEY_DOCS_SCREENSHOTS'] !== '1') return;
  mkdirSync(DOCS, { recursive: true });
  writeFileSync(join(DOCS, `narrow-${name}.png`), body);
}

// The list and the log are virtualized (taller than their panes): geometry is the panes'.
const inboxColumn = (page: Page) => page.locator('.inbox-column');
const timelinePane = (page: Page) => page.locator('.timeline');

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator.toString()} is not on screen`);
  return found;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x + a.width > b.x + 0.5 &&
  b.x + b.width > a.x + 0.5 &&
  a.y + a.height > b.y + 0.5 &&
  b.y + b.height > a.y + 0.5;

/** Every pair of these regions lies apart, and each lies inside the window. */
async function expectApart(page: Page, regions: Record<string, Locator>): Promise<void> {
  const viewport = page.viewportSize()!;
  const boxes = Object.fromEntries(
    await Promise.all(Object.entries(regions).map(async ([name, l]) => [name, await box(l)] as const)),
  );
  const names = Object.keys(boxes);
  for (const name of names) {
    const b = boxes[name]!;
    expect(b.x, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, `${name} ends inside the window`).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(b.y + b.height, `${name} ends inside the window`).toBeLessThanOrEqual(viewport.height + 0.5);
  }
  for (const [i, a] of names.entries())
    for (const b of names.slice(i + 1))
      expect(overlaps(boxes[a]!, boxes[b]!), `${a} and ${b} overlap`).toBe(false);
}

/** No word of a bubble's text is broken across lines: each line ends where a word ends. */
async function expectWordWrapping(page: Page): Promise<void> {
  const broken = await timeline(page)
    .locator('.message-text')
    .evaluateAll((nodes) =>
      nodes.flatMap((node) => {
        const text = node.textContent ?? '';
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        const breaks: string[] = [];
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          const value = t.textContent ?? '';
          let lastTop: number | null = null;
          for (let i = 0; i < value.length; i++) {
            const range = document.createRange();
            range.setStart(t, i);
            range.setEnd(t, i + 1);
            const rect = range.getClientRects()[0];
            if (!rect) continue;
            // A new line that starts in the middle of a word (letters on both sides of the break).
            if (
              lastTop !== null &&
              rect.top > lastTop + 2 &&
              /\p{L}/u.test(value[i - 1] ?? '') &&
              /\p{L}/u.test(value[i]!)
            )
              breaks.push(`${text.slice(0, 40)}… broken at “${value.slice(Math.max(0, i - 8), i + 8)}”`);
            lastTop = rect.top;
          }
        }
        return breaks;
      }),
    );
  expect(broken).toEqual([]);
}

test('at 900×700 the sidebar is icons, and the list and the conversation sit side by side', async ({
  page,
  parley,
}) => {
  await page.setViewportSize({ width: 900, height: 700 });
  const { title } = await parley.pickChat(() => true);
  await openInbox(page, parley);
  await chatRow(page, title).click();
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubbles(page).first()).toBeVisible();

  // The sidebar's entries keep their names, shown as icons
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  await expect(sidebar.getByRole('button', { name: 'Inbox' })).toBeVisible();
  expect((await box(sidebar)).width).toBeLessThanOrEqual(72);

  const header = conversation(page, title).locator('header');
  await expectApart(page, {
    banner: page.getByRole('region', { name: 'Demo workspace' }),
    sidebar,
    list: inboxColumn(page),
    header,
    timeline: timelinePane(page),
    composer: composer(page, title),
  });
  // The conversation has room to read
  expect((await box(timelinePane(page))).width).toBeGreaterThanOrEqual(480);
  // Its header's lines stay on one line each
  for (const line of await header.locator('.conversation-subtitle > *').all())
    expect((await box(line)).height).toBeLessThanOrEqual(24);
  await expectWordWrapping(page);
  await photograph(page, '900x700');
});

test('at 800×600 the list and a conversation show one at a time, and Back returns to the list', async ({
  page,
  parley,
}) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const { title } = await parley.pickChat(() => true);
  await openInbox(page, parley);
  await photograph(page, '800x600-list');

  // When the agent opens a conversation, it takes the place of the list
  await chatRow(page, title).click();
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubbles(page).first()).toBeVisible();
  await expect(conversationList(page)).toBeHidden();
  const header = conversation(page, title).locator('header');
  await expectApart(page, {
    banner: page.getByRole('region', { name: 'Demo workspace' }),
    sidebar: page.getByRole('navigation', { name: 'Main' }),
    header,
    timeline: timelinePane(page),
    composer: composer(page, title),
  });
  expect((await box(timelinePane(page))).width).toBeGreaterThanOrEqual(600);
  await expectWordWrapping(page);
  await photograph(page, '800x600-conversation');

  // And the back control brings the list back, with that conversation's row still there
  await page.getByRole('button', { name: 'Back to conversations' }).click();
  await expect(conversationList(page)).toBeVisible();
  await expect(conversation(page, title)).toHaveCount(0);
  await expect(chatRow(page, title)).toBeVisible();
});
