/**
 * The keyboard: skip links (the first Tab stops, shown when focused) to the conversation list and
 * to the composer; the list is one Tab stop (a listbox with a roving tabindex: arrow keys, Home
 * and End move within it, across its virtualization), and no Tab stop on its scroll area; Enter
 * on a row opens the conversation with the focus in its composer.
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
  await expect(conversationList(page).getByRole('option').first()).toBeFocused();
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
  await expect(conversationList(page).getByRole('option').first()).toBeFocused();
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

test('after a reload, Enter on a conversation row opens it with the focus in its composer, not back at the top', async ({
  page,
  parley,
}) => {
  const [first, second, third] = await parley.pickChats(3);
  await openInbox(page, parley);
  // Given a fresh page: no conversation open, nothing focused yet
  await page.reload();
  await conversationList(page).getByRole('option').first().waitFor();

  // When the agent tabs from the filters into the list, moves down one row and presses Enter
  await page.getByLabel('Service').focus();
  await page.keyboard.press('Tab');
  await expect(chatRow(page, first!.title)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(chatRow(page, second!.title)).toBeFocused();
  await page.keyboard.press('Enter');

  // Then that conversation is open and the cursor is in its composer, ready to type
  await expect(conversation(page, second!.title)).toBeVisible();
  await expect(composer(page, second!.title)).toBeFocused();
  await page.keyboard.type('Typed right after opening');
  await expect(composer(page, second!.title)).toHaveValue('Typed right after opening');
  // And its row is the selected one, and the list's Tab stop
  await expect(chatRow(page, second!.title)).toHaveAttribute('aria-selected', 'true');
  await expect(chatRow(page, second!.title)).toHaveAttribute('tabindex', '0');

  // When the agent goes back to the list (its one Tab stop is the open row) and presses Enter there
  await page.getByRole('link', { name: 'Skip to conversations' }).focus();
  await page.keyboard.press('Enter');
  await expect(chatRow(page, second!.title)).toBeFocused();
  await page.keyboard.press('Enter');
  // Then the focus goes back into the open conversation's composer
  await expect(composer(page, second!.title)).toBeFocused();

  // And Alt+↓ still opens the next conversation, and the list's Tab stop follows it
  await page.keyboard.press('Alt+ArrowDown');
  await expect(conversation(page, third!.title)).toBeVisible();
  await expect(chatRow(page, third!.title)).toHaveAttribute('tabindex', '0');
  await expect(chatRow(page, second!.title)).toHaveAttribute('tabindex', '-1');
});

test('the conversation list is one Tab stop: arrow keys, Home and End move within it, to rows not drawn yet too', async ({
  page,
  parley,
}) => {
  const [top] = await parley.pickChats(1);
  await openInbox(page, parley);
  const list = conversationList(page);
  const focusedRow = list.locator('[role="option"]:focus');
  // (with the top conversation open, so Tab has somewhere to go after the list)
  await openChat(page, top!.title);
  const total = Number(await list.getByRole('option').first().getAttribute('aria-setsize'));
  expect(total).toBeGreaterThan(30); // more rows than the list draws at once

  // Given the focus on the filters, Tab enters the list on one row: the only row with tabindex 0
  await page.getByLabel('Service').focus();
  await page.keyboard.press('Tab');
  await expect(focusedRow).toHaveAttribute('aria-posinset', '1');
  await expect(list.locator('[role="option"][tabindex="0"]')).toHaveCount(1);
  await expect(list.locator('[role="option"]:not([tabindex="-1"])')).toHaveCount(1);

  // When the agent presses ↓ three times, the fourth row has the focus; ↑ goes back one
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(focusedRow).toHaveAttribute('aria-posinset', '4');
  await page.keyboard.press('ArrowUp');
  await expect(focusedRow).toHaveAttribute('aria-posinset', '3');

  // Then one Tab leaves the list (no other row is a stop) for the conversation, and Shift+Tab comes
  // back to the same row
  await page.keyboard.press('Tab');
  await expect(focusedRow).toHaveCount(0);
  await expect(conversation(page, top!.title).locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Shift+Tab');
  await expect(focusedRow).toHaveAttribute('aria-posinset', '3');

  // When End is pressed, the last conversation (not drawn until now) is scrolled to and focused
  await page.keyboard.press('End');
  await expect(focusedRow).toHaveAttribute('aria-posinset', String(total));
  await expect(focusedRow).toBeInViewport();
  await expect(list.locator('[role="option"][aria-posinset="1"]')).toHaveCount(0);

  // And after the list is scrolled back to the top by the mouse (the last row leaves the DOM), the
  // list is still one Tab stop, and Tab brings the focus back to that last row
  await page.getByLabel('Service').focus();
  await list.hover();
  for (let i = 0; i < 30 && (await list.locator('[role="option"][aria-posinset="1"]').count()) === 0; i++)
    await page.mouse.wheel(0, -4000);
  await expect(list.locator('[role="option"][aria-posinset="1"]')).toBeVisible();
  await expect(list.locator(`[role="option"][aria-posinset="${total}"]`)).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(focusedRow).toHaveAttribute('aria-posinset', String(total));

  // When Home is pressed, the first row has the focus again
  await page.keyboard.press('Home');
  await expect(focusedRow).toHaveAttribute('aria-posinset', '1');
  await expect(focusedRow).toBeInViewport();
});
