/**
 * Finding things fast: full-text search over messages (matches highlighted, the hit opens the chat
 * at the message), and the quick switcher (Ctrl+K) jumping to a conversation far down the inbox.
 */
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import {
  bubble,
  chatRow,
  conversation,
  expectHighlighted,
  forgetHighlights,
  recordHighlights,
} from './support/screen.ts';
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
  await recordHighlights(page);
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
  await expectHighlighted(bubble(page, text));
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

/**
 * A word that occurs in one message only, weeks old and well above the newest screenful of its
 * conversation (the demo's history is seeded from fixed PRNGs, so this is the same word every run).
 */
async function wordOnlyWeeksBack(parley: Parley) {
  const weeks = Date.now() - 14 * 24 * 3600_000;
  const seen = new Map<string, Array<{ title: string; text: string; sentAt: number; fromEnd: number }>>();
  for (const chat of await parley.inbox(200)) {
    const { messages } = await parley.call('messages.page', { chatId: chat.id, limit: 1000 });
    messages.forEach((message, i) => {
      for (const word of new Set(message.text.toLowerCase().match(/\p{L}{5,}/gu) ?? [])) {
        const hits = seen.get(word) ?? [];
        hits.push({
          title: chatTitle(chat),
          text: message.text,
          sentAt: message.sentAt,
          fromEnd: messages.length - i,
        });
        seen.set(word, hits);
      }
    });
  }
  for (const [word, hits] of seen) {
    const [hit] = hits;
    if (hits.length === 1 && hit && hit.sentAt < weeks && hit.fromEnd > 20) return { word, ...hit };
  }
  throw new Error('the demo history has no word that only a weeks-old message holds');
}

test('a hit from weeks back opens the conversation scrolled to that message, highlighted', async ({
  page,
  parley,
}) => {
  // Given a word only one message weeks back holds, far above its conversation's latest messages
  const { word, text, title } = await wordOnlyWeeksBack(parley);
  await recordHighlights(page);
  await openInbox(page, parley);

  // When the agent searches for it and opens the hit
  await page.getByRole('searchbox', { name: 'Search conversations, contacts and messages' }).fill(word);
  const found = page.getByRole('region', { name: 'Messages found' }).getByRole('button');
  await expect(found).toHaveCount(1);
  await found.click();

  // Then the conversation shows that message on screen, highlighted for a moment
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubble(page, text)).toBeInViewport();
  await expectHighlighted(bubble(page, text));
  await expect(bubble(page, text)).not.toHaveClass(/is-highlighted/);
  await expect(bubble(page, text)).toBeInViewport();

  // When they go down to the latest messages and open the same hit again in the open conversation
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(bubble(page, text)).not.toBeInViewport();
  await forgetHighlights(page);
  await found.click();

  // Then the view goes back up to it, highlighted again
  await expect(bubble(page, text)).toBeInViewport();
  await expectHighlighted(bubble(page, text));
});
