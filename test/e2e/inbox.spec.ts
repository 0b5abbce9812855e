/**
 * An agent's day in the inbox: the demo opens, a text goes out and is delivered, customers answer
 * (a notification, an unread badge, read once opened) and type before they answer.
 */
import type { Page } from '@playwright/test';
import type { Chat } from '../../shared/domain.ts';
import { escapeRegExp as escape, expect, openInbox, test } from './support/parley.ts';
import {
  bubble,
  chatRow,
  composer,
  conversation,
  conversationList,
  liveIndicator,
  openChat,
  recordNotifications,
  send,
} from './support/screen.ts';

test('first run lands in the simulated demo inbox', async ({ page, parley }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // Given Parley's first launch, when the agent opens the URL it printed
  await openInbox(page, parley);

  // Then a banner says the workspace is simulated and offers to connect the real one
  const banner = page.getByRole('region', { name: 'Demo workspace' });
  await expect(banner).toContainText('This is a simulated demo workspace.');
  await expect(banner.getByRole('button', { name: 'Connect your organization' })).toBeVisible();

  // And the inbox lists the demo's conversations, newest first, as the core orders them
  const [first, second] = await parley.pickChats(2);
  if (!first || !second) throw new Error('the demo inbox has fewer than two conversations');
  const rows = conversationList(page).getByRole('option');
  await expect(rows.nth(0)).toHaveAccessibleName(new RegExp(`^${escape(first.title)}\\. `));
  await expect(rows.nth(1)).toHaveAccessibleName(new RegExp(`^${escape(second.title)}\\. `));

  // And the connection indicator says messages arrive live (the demo's service is on this machine,
  // so its webhooks reach Parley directly)
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Connection: Live/);
  expect(errors).toEqual([]);
});

test('a text appears at once, then is delivered, once', async ({ page, parley }) => {
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  // Delivery takes a few seconds on this service, so the optimistic bubble is plain to see.
  await parley.control('PUT', '/config', { delivery_delay_ms: { iMessage: 3_000 } });
  await openInbox(page, parley);
  await openChat(page, title);

  // When the agent types a message and presses Enter
  const text = `Your technician is on the way (${Date.now()})`;
  await watchCopies(page, text);
  await send(page, title, text);

  // Then the bubble is there before the service has delivered it…
  const mine = bubble(page, text);
  await expect(mine).toHaveAttribute('data-state', /^(queued|sending|pending)$/);
  await expect(composer(page, title)).toHaveValue('');
  // (the same element stays on screen when the stored message replaces the local echo)
  await mine.evaluate((element) => ((element as HTMLElement & { echo?: boolean }).echo = true));

  // …and it turns delivered when the service says so
  await expect(mine).toHaveAttribute('data-state', 'delivered');
  await expect(mine).toContainText('Delivered');
  expect(await mine.evaluate((element) => (element as HTMLElement & { echo?: boolean }).echo)).toBe(true);
  await expect(mine).toHaveCount(1);
  // (never two bubbles, not even for a moment while the stored message replaced the echo)
  expect(await page.evaluate(() => (window as unknown as { mostCopies: number }).mostCopies)).toBe(1);

  // And the service holds exactly one copy
  expect(await parley.copiesOnService(chat.id, text)).toBe(1);
  // And the inbox row previews it as the agent's
  await expect(chatRow(page, title)).toHaveAccessibleName(new RegExp(`You: ${escape(text)}`));
});

test('a reply in another chat notifies, shows unread, and is read once opened', async ({ page, parley }) => {
  const notices = await recordNotifications(page);
  const open = await parley.pickChat((c) => !c.isGroup);
  const other = await parley.pickChat((c) => !c.isGroup && c.unreadCount === 0 && hasName(c), {
    skip: [open.chat.id],
  });
  const customer = other.chat.handles.find((h) => !h.isMe);
  await openInbox(page, parley);
  await expect(chatRow(page, other.title)).not.toHaveAccessibleName(/unread/);

  // Given the agent is reading one conversation (opening it reads it)
  await openChat(page, open.title);
  await expect(chatRow(page, open.title)).not.toHaveAccessibleName(/unread/);
  // (the sidebar's count settles on the core's: unread chats across the lines)
  const inboxBefore = (await parley.call('lines.list', {})).reduce((n, line) => n + line.unreadChats, 0);
  await expect.poll(() => unreadCount(page)).toBe(inboxBefore);

  // When a customer of another conversation texts
  const text = `Is the 2pm slot still free? (${Date.now()})`;
  await parley.control('POST', '/inbound/message', { chat_id: other.chat.id, text });

  // Then a notification names the customer and previews the text, once
  await expect
    .poll(() => notices.filter((n) => n.body === text))
    .toEqual([{ title: customer?.contactName ?? other.title, body: text }]);
  // And the row shows it unread, with the preview, and the inbox count goes up
  await expect(chatRow(page, other.title)).toHaveAccessibleName(
    new RegExp(`^${escape(other.title)}\\. 1 unread, .*${escape(text)}$`),
  );
  await expect.poll(() => unreadCount(page)).toBe(inboxBefore + 1);

  // When the agent opens that conversation
  await openChat(page, other.title);
  await expect(bubble(page, text)).toBeVisible();

  // Then it is read: no badge, the inbox count goes back, and the service got the read receipt
  await expect(chatRow(page, other.title)).not.toHaveAccessibleName(/unread/);
  await expect.poll(() => unreadCount(page)).toBe(inboxBefore);
  await expect
    .poll(async () => (await parley.messagesOnService(other.chat.id)).find((m) => m.text === text)?.is_read)
    .toBe(true);
  expect(notices.filter((n) => n.body === text)).toHaveLength(1);
});

test('a customer types, then replies: typing indicator, then the message', async ({ page, parley }) => {
  const { chat, title } = await parley.pickChat((c) => !c.isGroup && hasName(c));
  const customer = chat.handles.find((h) => !h.isMe);
  const firstName = (customer?.contactName ?? '').split(' ')[0] ?? '';
  await openInbox(page, parley);

  // Given live events are on (typing indicators only arrive by webhook): the demo's default,
  // applied here through the live-status panel
  await liveIndicator(page).click();
  const panel = page.getByRole('dialog', { name: 'Live status' });
  await panel.getByRole('switch', { name: /Receive events by webhook/ }).check();
  await panel.getByRole('radio', { name: /^Direct/ }).check();
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(panel.getByRole('status')).toHaveText('Saved.');
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Connection: Live/);
  await openChat(page, title);

  // When the customer starts typing
  await parley.control('POST', '/inbound/typing', { chat_id: chat.id, display: true });

  // Then the conversation and its row say so
  await expect(conversation(page, title).getByText(`${firstName} is typing…`)).toBeVisible();
  await expect(chatRow(page, title)).toHaveAccessibleName(new RegExp(`${escape(firstName)} is typing…`));

  // When their message arrives
  const text = `Running 5 minutes late, sorry! (${Date.now()})`;
  await parley.control('POST', '/inbound/message', { chat_id: chat.id, text });

  // Then it shows, and the typing indicator is gone
  await expect(bubble(page, text)).toBeVisible();
  await expect(conversation(page, title).getByText(/is typing…/)).toHaveCount(0);
});

test('with live events off, a reply still arrives, by polling', async ({ page, parley }) => {
  const { chat, title } = await parley.pickChat((c) => !c.isGroup);
  await openInbox(page, parley);

  // Given the agent turns live events off in the live-status panel
  await liveIndicator(page).click();
  const panel = page.getByRole('dialog', { name: 'Live status' });
  await panel.getByRole('switch', { name: /Receive events by webhook/ }).uncheck();
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(panel.getByRole('status')).toHaveText('Saved.');
  await expect(panel).toContainText('Polling only: new messages arrive on the next check');
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Connection: Polling only/);
  await openChat(page, title);

  // When the customer replies, the open conversation's next poll brings it
  const text = `Polling works too (${Date.now()})`;
  await parley.control('POST', '/inbound/message', { chat_id: chat.id, text });
  await expect(bubble(page, text))
    .toBeVisible()
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await parley.whereIs(chat.id, text, page)}`);
    });
  expect(
    await parley.control<{ deliveries: unknown[] }>('GET', '/deliveries?event_type=message.received'),
  ).toEqual({
    deliveries: [],
  });
});

function hasName(chat: Chat): boolean {
  return chat.handles.some((h) => !h.isMe && h.contactName);
}

/** The sidebar's unread total: its Inbox entry reads "Inbox 4 unread" (just "Inbox" at zero). */
async function unreadCount(page: Page): Promise<number> {
  const inbox = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Inbox/ });
  const badge = inbox.getByLabel(/^\d+ unread$/);
  if ((await badge.count()) === 0) return 0;
  return Number(/^(\d+)/.exec((await badge.getAttribute('aria-label')) ?? '')?.[1] ?? 0);
}

/** Counts, on every DOM change, the bubbles showing exactly `text`; keeps the most seen at once. */
async function watchCopies(page: Page, text: string): Promise<void> {
  await page.evaluate((wanted) => {
    const state = window as unknown as { mostCopies: number };
    state.mostCopies = 0;
    const count = () => {
      const copies = [...document.querySelectorAll('[data-testid="message"] .message-text')].filter(
        (node) => node.textContent === wanted,
      ).length;
      state.mostCopies = Math.max(state.mostCopies, copies);
    };
    new MutationObserver(count).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  }, text);
}
