/**
 * The keyboard: skip links (the first Tab stops, shown when focused) to the conversation list and
 * to the composer, and no Tab stop on the list's scroll area (its rows are the stops).
 */
import { expect, openInbox, test } from './support/parley.ts';
import { chatRow, composer, conversation, conversationList, openChat } from './support/screen.ts';

test('skip links take the keyboard to the conversations and to the composer', async ({ page, parley }) => {
  const { title } = await parley.pickChat((c) => !c.isGroup);
  await openInbox(page, parley);
  const toList = page.getByRole('link', { name: 'Skip to conversations' });
  const toComposer = page.getByRole('link', { name: 'Skip to message composer' });
  // The first Tab shows "Skip to conversations" on screen; it is off screen otherwise
  await expect(toList).not.toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(toList).toBeFocused();
  await expect(toList).toBeInViewport();

  // Enter puts the focus on the first conversation, and Enter there opens it
  await page.keyboard.press('Enter');
  await expect(conversationList(page).getByRole('button').first()).toBeFocused();
  await expect(toList).not.toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(conversation(page, title)).toBeVisible();

  // With a conversation open, "Skip to message composer" is the Tab stop after the first skip link
  await toList.focus();
  await page.keyboard.press('Tab');
  await expect(toComposer).toBeFocused();
  await expect(toComposer).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(composer(page, title)).toBeFocused();
  await page.keyboard.type('Typed without the mouse');
  await expect(composer(page, title)).toHaveValue('Typed without the mouse');

  // And "Skip to conversations" (the Tab stop before it) now focuses the open conversation's row
  await toComposer.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(toList).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(chatRow(page, title)).toBeFocused();
});

test('Tab goes from the filters straight to the first conversation, not to the list’s scroll area', async ({
  page,
  parley,
}) => {
  await openInbox(page, parley);
  await page.getByLabel('Service').focus();
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus');
  await expect(focused).toHaveCount(1);
  await expect(conversationList(page).getByRole('button').first()).toBeFocused();
});

test('Shift+Enter starts a new line: the composer grows with its lines up to its limit, then scrolls, and Enter sends', async ({
  page,
  parley,
}) => {
  const { title } = await parley.pickChat((c) => !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, title);
  const box = composer(page, title);
  const height = async () => (await box.boundingBox())?.height ?? 0;
  const oneLine = await height();

  // Given three lines typed with Shift+Enter between them
  await box.click();
  for (const line of ['First line', 'second line', 'third line']) {
    if (line !== 'First line') await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(line);
  }

  // Then the composer is taller, with all three lines in it, unsent
  await expect(box).toHaveValue('First line\nsecond line\nthird line');
  await expect.poll(height).toBeGreaterThan(oneLine * 2);

  // When many more lines are added, it stops growing at its limit and scrolls instead
  for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+Enter');
  await expect.poll(height).toBeLessThanOrEqual(222);
  expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);

  // When Enter sends, it is one line tall again
  await page.keyboard.type('last line');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await expect.poll(height).toBe(oneLine);
});
