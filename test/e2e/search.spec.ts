/**
 * Finding things fast: full-text search over messages (matches highlighted, the hit opens the chat
 * at the message), and the quick switcher (Ctrl+K) jumping to a conversation far down the inbox.
 */
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { bubble, chatRow, conversation } from './support/screen.ts';
import { chatTitle } from '../../renderer/lib/chat-presentation.ts';

/** A named direct conversation well below the first screenful of the inbox. */
async function farDownChat(parley: Parley) {
  const chat = (await parley.inbox(60))
    .slice(30)
    .find((c) => !c.isGroup && c.handles.some((h) => !h.isMe && h.contactName));
  if (!chat) throw new Error('the demo inbox has no named conversation past the first 30');
  return { chat, title: chatTitle(chat) };
}

test('search finds a message, highlighted, and opens the conversation at it', async ({ page, parley }) => {
  const { chat, title } = await farDownChat(parley);
  // Given a customer wrote about a part by its brand name
  const text = 'Did the Zephyrine valve arrive? The old one is leaking again';
  await parley.control('POST', '/inbound/message', { chat_id: chat.id, text });
  await openInbox(page, parley);
  await expect(chatRow(page, title)).toHaveAccessibleName(new RegExp(`leaking again$`));

  // When the agent searches for the brand
  await page
    .getByRole('searchbox', { name: 'Search conversations, contacts and messages' })
    .fill('zephyrine');

  // Then the message is found, in its conversation, with the word highlighted
  const found = page
    .getByRole('region', { name: 'Messages found' })
    .getByRole('button', { name: new RegExp(title) });
  await expect(found).toHaveCount(1);
  await expect(found.locator('mark')).toHaveText(/^zephyrine$/i);

  // When they open the hit, the conversation shows that message, highlighted
  await found.click();
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubble(page, text)).toBeVisible();
  await expect(bubble(page, text)).toHaveClass(/is-highlighted/);
});

test('the quick switcher (Ctrl+K) opens a conversation by a few letters of its name', async ({
  page,
  parley,
}) => {
  const { title } = await farDownChat(parley);
  await openInbox(page, parley);
  await expect(chatRow(page, title)).toHaveCount(0); // not among the rows on screen

  // When the agent presses Ctrl+K and types part of the customer's name
  await page.keyboard.press('Control+k');
  const switcher = page.getByRole('dialog', { name: 'Quick switcher' });
  const input = switcher.getByRole('combobox', { name: 'Jump to a conversation, contact or action' });
  await expect(input).toBeFocused();
  await input.fill(title.slice(0, Math.max(4, title.indexOf(' ') + 3)));

  // Then the conversation is offered first, and Enter opens it
  const results = switcher.getByRole('listbox', { name: 'Results' });
  await expect(results.getByRole('option').first()).toContainText(title);
  await expect(results.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await input.press('Enter');
  await expect(switcher).toHaveCount(0);
  await expect(conversation(page, title)).toBeVisible();

  // And Escape closes the switcher without doing anything
  await page.keyboard.press('Control+k');
  await expect(switcher).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(switcher).toHaveCount(0);
  await expect(conversation(page, title)).toBeVisible();
});
