/**
 * Look and accessibility: every main view (inbox, conversation, contacts, settings, and the
 * dialogs) in the light and the dark theme has no serious or critical axe-core violation, and each
 * is photographed (test artifacts; with PARLEY_DOCS_SCREENSHOTS=1 also docs/screenshots/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chooseTheme, photograph, seriousViolations } from './support/look.ts';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { chatRow, conversation, conversationList, goTo, timeline } from './support/screen.ts';

/** The views the README shows (docs/screenshots/<view>-<theme>.png). */
const DOCS_VIEWS = new Set([
  'inbox',
  'conversation',
  'details',
  'search',
  'new-conversation',
  'contacts',
  'settings',
]);

/** The pictures the README shows, which this suite (or narrow.spec.ts) must keep current. */
test('every picture in the README is one the suite takes', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const pictures = [...readme.matchAll(/docs\/screenshots\/([\w-]+)\.png/g)].map((m) => m[1]!);
  expect(pictures).toEqual(expect.arrayContaining(['conversation-light', 'conversation-dark']));
  for (const picture of pictures) {
    const [, view, theme] = /^(.+)-(light|dark)$/.exec(picture) ?? [];
    const taken =
      (view !== undefined && DOCS_VIEWS.has(view) && theme !== undefined) || picture.startsWith('narrow-');
    expect(taken, `${picture}.png is refreshed by the e2e suite`).toBe(true);
  }
});

/** Scrolls the virtualized inbox until the row is rendered, then opens it. */
async function scrollToAndOpen(page: Page, title: string): Promise<void> {
  const list = conversationList(page);
  for (let i = 0; i < 40 && (await chatRow(page, title).count()) === 0; i++) {
    await list.hover();
    await page.mouse.wheel(0, 300);
  }
  await chatRow(page, title).click();
  await expect(conversation(page, title)).toBeVisible();
}

/** The conversation with the most to show (images, a PDF, both directions): Rosa's, in the demo. */
async function showcaseChat(parley: Parley): Promise<string> {
  const inbox = await parley.pickChats(40);
  return (
    inbox.find((c) => c.title === 'Rosa Schneider') ??
    inbox.find((c) => !c.chat.isGroup && c.chat.service === 'iMessage')!
  ).title;
}

/**
 * Each theme's views are checked in three tests (each with its own host), so that no one test carries
 * a dozen axe runs and pictures on a slow machine.
 */
for (const theme of ['light', 'dark'] as const) {
  test.describe(`the main views in the ${theme} theme are accessible (and photographed)`, () => {
    // Several axe runs and pictures: on a loaded machine axe on a conversation alone took 15 s.
    test.describe.configure({ timeout: 120_000 });
    let problems: Record<string, string[]>;
    let check: (view: string) => Promise<void>;
    test.beforeEach(async ({ page, parley }, testInfo) => {
      problems = {};
      check = async (view) => {
        await photograph(page, testInfo, `${view}-${theme}`, DOCS_VIEWS.has(view));
        const found = await seriousViolations(page);
        if (found.length) problems[view] = found;
      };
      await openInbox(page, parley);
      // The theme, as an agent picks it
      await chooseTheme(page, theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    });
    test.afterEach(() => {
      expect(problems).toEqual({});
    });

    test('settings, the inbox, a conversation and its details', async ({ page, parley }) => {
      await check('settings');

      await goTo(page, 'Inbox');
      await expect(conversationList(page).getByRole('option').first()).toBeVisible();
      await check('inbox');

      await scrollToAndOpen(page, await showcaseChat(parley));
      await expect(timeline(page).getByTestId('message').first()).toBeVisible();
      // Images have their reserved boxes; wait until they are drawn for the picture.
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('[role=log] img')].every((img) => img.complete) &&
          document.querySelectorAll('[role=log] canvas[aria-busy=true]').length === 0,
      );
      await check('conversation');

      await page.getByRole('button', { name: 'Conversation details' }).click();
      await expect(page.getByRole('complementary', { name: 'Conversation details' })).toBeVisible();
      await check('details');
    });

    test('search and a new conversation', async ({ page }) => {
      await goTo(page, 'Inbox');
      await page
        .getByRole('searchbox', { name: 'Search conversations, contacts and messages' })
        .fill('quote');
      await expect(page.getByRole('region', { name: 'Messages found' })).toBeVisible();
      await check('search');
      await page.getByRole('searchbox', { name: 'Search conversations, contacts and messages' }).fill('');

      await page.getByRole('button', { name: 'New conversation' }).click();
      const dialog = page.getByRole('dialog', { name: 'New conversation' });
      await dialog.getByRole('combobox', { name: 'To' }).pressSequentially('628 555 0142');
      await dialog.getByRole('combobox', { name: 'To' }).press('Enter');
      await dialog.getByRole('textbox', { name: 'Message' }).fill('Hi! This is Harborview Home Services.');
      await check('new-conversation');
    });

    test('contacts, lines and the live status', async ({ page }) => {
      await goTo(page, 'Contacts');
      await page.getByRole('list', { name: 'Contact list' }).getByRole('button').first().click();
      await expect(page.getByRole('button', { name: 'Delete contact' })).toBeVisible();
      await check('contacts');

      await goTo(page, 'Lines & forwarding');
      await expect(page.getByRole('heading', { name: 'Lines & forwarding' })).toBeVisible();
      await check('lines');

      await page.getByRole('button', { name: /^Connection: / }).click();
      await expect(page.getByRole('dialog', { name: 'Live status' })).toBeVisible();
      await check('live-status');
    });
  });
}
