/**
 * Send later, undo send, snooze and answering from a notification, in the browser host against the
 * sandbox: a scheduled message shows in the thread and goes out once when sent; an undone one puts
 * its words back in the composer and never reaches the service; a conversation snoozed until the
 * customer replies leaves the inbox and comes back (notified) when the simulated customer writes;
 * clicking a notification opens its conversation with the composer focused. The new views in the
 * light and the dark theme, photographed (docs/screenshots/send-later-*.png with
 * PARLEY_DOCS_SCREENSHOTS=1) and free of serious or critical axe-core violations.
 */
import type { Page } from '@playwright/test';
import { chooseTheme, photograph, seriousViolations } from './support/look.ts';
import { expect, openInbox, test } from './support/parley.ts';
import {
  bubble,
  chatRow,
  composer,
  conversation,
  conversationList,
  goTo,
  openChat,
} from './support/screen.ts';

function held(page: Page) {
  return page.getByRole('list', { name: 'Messages not sent yet' }).getByTestId('held-message');
}

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

test('a scheduled message waits in the thread and goes out once; an undone one comes back to the composer and never goes out', async ({
  page,
  parley,
}) => {
  // Given undo send is on (10 s) and a conversation is open
  await parley.call('workbench.updateSettings', { undoSeconds: 10 });
  const { chat, title } = await parley.pickChat((c) => !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, title);
  const box = composer(page, title);

  // When the agent writes a message and picks Send later → Tomorrow morning
  const later = 'Your replacement ships tomorrow at 9.';
  await box.fill(later);
  await page.getByRole('button', { name: 'Schedule message' }).click();
  await page
    .getByRole('group', { name: 'Send later' })
    .getByRole('button', { name: /^Tomorrow morning/ })
    .click();

  // Then it sits in the thread as "Scheduled for …", the composer is empty, and nothing went out
  const scheduled = held(page).filter({ hasText: later });
  await expect(scheduled).toContainText('Scheduled for');
  await expect(box).toHaveValue('');
  expect(await parley.copiesOnService(chat.id, later)).toBe(0);

  // When they send it now, it goes out once and leaves the strip
  await scheduled.getByRole('button', { name: 'Send now' }).click();
  await expect(bubble(page, later)).toBeVisible();
  await expect(scheduled).toHaveCount(0);
  await expect.poll(() => parley.copiesOnService(chat.id, later)).toBe(1);

  // When they send another and press Undo during the grace period
  const oops = 'Sorry, wrong conversation — ignore this.';
  await box.fill(oops);
  await box.press('Enter');
  const grace = held(page).filter({ hasText: oops });
  await expect(grace).toContainText(/Sending in \d+ s/);
  await grace.getByRole('button', { name: 'Undo' }).click();

  // Then its words are back in the composer, and it never reaches the service
  await expect(box).toHaveValue(oops);
  await expect(grace).toHaveCount(0);
  expect(await parley.call('scheduled.list', { chatId: chat.id })).toEqual([]);
  expect(parley.host.core.session.store.outbox.count()).toBe(0);
  expect(await parley.copiesOnService(chat.id, oops)).toBe(0);
});

test('a conversation snoozed until the customer replies leaves the inbox and comes back, notified, when they write', async ({
  page,
  parley,
}) => {
  const notices = await recordClickableNotifications(page);
  const { chat, title } = await parley.pickChat((c) => !c.isGroup && !c.pinned);
  await openInbox(page, parley);
  await openChat(page, title);

  // When the agent snoozes it until next week
  await conversation(page, title).getByRole('button', { name: 'Snooze' }).click();
  await page
    .getByRole('group', { name: 'Snooze until' })
    .getByRole('button', { name: /^Next week/ })
    .click();

  // Then it leaves the inbox and the Snoozed view lists it with its time
  await expect(chatRow(page, title)).toHaveCount(0);
  await sidebar(page)
    .getByRole('button', { name: /^Snoozed/ })
    .click();
  const snoozedList = page.getByRole('list', { name: 'Snoozed conversations' });
  await expect(snoozedList.getByRole('listitem', { name: title })).toContainText(/Until .* or their reply/);

  // When the simulated customer replies
  const reply = 'Actually, can you call me today?';
  await parley.control('POST', '/inbound/message', { chat_id: chat.id, text: reply });

  // Then it is back at the top of the inbox, marked in the Snoozed view, with a notification
  const back = page.getByRole('list', { name: 'Back from snooze' }).getByRole('listitem', { name: title });
  await expect(back).toContainText(/Snoozed until .* back on their reply/);
  await expect
    .poll(() =>
      notices.shown().then((n) => n.some((x) => x.tag === `chat-${chat.id}` && x.title.endsWith(' is back'))),
    )
    .toBe(true);
  await goTo(page, 'Inbox');
  await expect(conversationList(page).getByRole('option').first()).toContainText(title);
});

test('clicking a notification opens its conversation with the composer focused, and the reply goes out once', async ({
  page,
  parley,
}) => {
  const notices = await recordClickableNotifications(page);
  const [first, second] = await parley.pickChats(2);
  if (!first || !second) throw new Error('the demo needs two conversations');
  await openInbox(page, parley);
  await openChat(page, first.title);

  // Given a customer writes in a conversation the agent is not looking at
  const text = 'Is the store open on Sunday?';
  await parley.control('POST', '/inbound/message', { chat_id: second.chat.id, text });
  await expect.poll(() => notices.shown().then((n) => n.some((x) => x.body === text))).toBe(true);

  // When the agent clicks the notification
  await notices.click(text);

  // Then that conversation is open with the cursor in its composer; the answer goes out once
  const box = composer(page, second.title);
  await expect(box).toBeFocused();
  const answer = 'Yes, 10am to 4pm.';
  await page.keyboard.type(answer);
  await page.keyboard.press('Enter');
  await expect(bubble(page, answer)).toBeVisible();
  await expect.poll(() => parley.copiesOnService(second.chat.id, answer)).toBe(1);
});

/**
 * Grants notifications and keeps each shown one, so a test can read and click it (the browser
 * host uses the Web Notifications API; a click runs its onclick like the OS would).
 */
async function recordClickableNotifications(page: Page) {
  await page.context().grantPermissions(['notifications']);
  await page.addInitScript(() => {
    const Native = window.Notification;
    const shown: Notification[] = [];
    (window as unknown as { __notices: Notification[] }).__notices = shown;
    class Recorded extends Native {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(this);
      }
    }
    window.Notification = Recorded;
  });
  return {
    shown: () =>
      page.evaluate(() =>
        (window as unknown as { __notices: Notification[] }).__notices.map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
        })),
      ),
    click: (body: string) =>
      page.evaluate((b) => {
        const n = (window as unknown as { __notices: Notification[] }).__notices.find((x) => x.body === b);
        n?.onclick?.(new Event('click'));
      }, body),
  };
}

for (const theme of ['light', 'dark'] as const) {
  test(`send later and snooze in the ${theme} theme are accessible (and photographed)`, async ({
    page,
    parley,
  }, testInfo) => {
    test.setTimeout(120_000);
    const problems: Record<string, string[]> = {};
    const check = async (view: string) => {
      await photograph(page, testInfo, `send-later-${view}-${theme}`);
      const found = await seriousViolations(page);
      if (found.length) problems[view] = found;
    };
    const [a, b] = await parley.pickChats(2);
    if (!a || !b) throw new Error('the demo needs two conversations');
    await parley.call('scheduled.create', {
      chatId: a.chat.id,
      text: 'Checking in on your order first thing tomorrow.',
      at: Date.now() + 20 * 3_600_000,
    });
    await parley.call('snooze.set', { chatId: b.chat.id, until: Date.now() + 3 * 86_400_000 });
    await openInbox(page, parley);
    await chooseTheme(page, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

    await goTo(page, 'Inbox');
    await openChat(page, a.title);
    await expect(held(page)).toContainText('Scheduled for');
    await composer(page, a.title).fill('And one more thing…');
    await page.getByRole('button', { name: 'Schedule message' }).click();
    await expect(page.getByRole('group', { name: 'Send later' })).toBeVisible();
    await check('composer');
    await page.keyboard.press('Escape');

    await sidebar(page)
      .getByRole('button', { name: /^Snoozed/ })
      .click();
    await expect(page.getByRole('list', { name: 'Snoozed conversations' })).toBeVisible();
    await check('snoozed');

    expect(problems).toEqual({});
  });
}
