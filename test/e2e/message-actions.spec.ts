/**
 * What an agent does to a message after it is in the timeline: react to a customer's message (and
 * take the reaction back), edit a message they sent, delete one. Each change is checked on the
 * service, not only on screen.
 */
import type { Page } from '@playwright/test';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { bubble, openChat, send, timeline } from './support/screen.ts';

/** Opens a direct iMessage chat (edits and deletes are refused on SMS). */
async function openImessageChat(page: Page, parley: Parley) {
  const picked = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, picked.title);
  return picked;
}

/** Sends a text and waits until the service has it (edit, delete and react need its id). */
async function sendAndWait(page: Page, title: string, text: string) {
  await send(page, title, text);
  const mine = bubble(page, text);
  await expect(mine).toHaveAttribute('data-state', /^(pending|delivered)$/);
  return mine;
}

test('react to a customer’s message, then take the reaction back', async ({ page, parley }) => {
  const { chat } = await openImessageChat(page, parley);

  // Given a customer's message in the open conversation
  const text = `Thanks, the heater works again! (${Date.now()})`;
  const { data } = await parley.control<{ data: { id: number } }>('POST', '/inbound/message', {
    chat_id: chat.id,
    text,
  });
  const theirs = bubble(page, text);
  await expect(theirs).toBeVisible();

  // When the agent reacts with a heart
  await theirs.hover();
  await theirs.getByRole('button', { name: 'React' }).click();
  await page.getByRole('menu', { name: 'Reactions' }).getByRole('menuitemcheckbox', { name: 'Love' }).click();

  // Then the bubble shows it as theirs, and the service has it
  const chip = theirs.getByRole('button', { name: /^Loved by You/ });
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  const reactionsOnService = async () =>
    (await parley.messagesOnService(chat.id))
      .find((m) => m.id === data.id)
      ?.reactions.filter((r) => r.is_from_me)
      .map((r) => r.reaction);
  await expect.poll(reactionsOnService).toEqual(['love']);

  // When they click their reaction again
  await chip.click();

  // Then it is gone, here and on the service
  await expect(theirs.getByRole('button', { name: /^Loved by/ })).toHaveCount(0);
  await expect.poll(reactionsOnService).toEqual([]);
});

test('edit a sent message', async ({ page, parley }) => {
  const { chat, title } = await openImessageChat(page, parley);
  const text = `The visit is on Tuesday (${Date.now()})`;
  const mine = await sendAndWait(page, title, text);

  // When the agent edits it
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit' }).click();
  // (the bubble becomes an editor holding the text)
  const editor = timeline(page).getByRole('textbox', { name: 'Edit message' });
  await expect(editor).toHaveValue(text);
  await expect(editor).toBeFocused();
  const corrected = text.replace('Tuesday', 'Wednesday');
  await editor.fill(corrected);
  await editor.press('Enter');

  // Then the bubble shows the new text, labelled edited
  const edited = bubble(page, corrected);
  await expect(edited).toBeVisible();
  await expect(edited.getByText('Edited', { exact: true })).toBeVisible();
  await expect(bubble(page, text)).toHaveCount(0);

  // And the service has the new text, marked edited
  await expect
    .poll(async () => {
      const found = (await parley.messagesOnService(chat.id)).find((m) => m.text === corrected);
      return found ? found.edited_at !== null : 'not there';
    })
    .toBe(true);
  expect(await parley.copiesOnService(chat.id, text)).toBe(0);
});

test('delete a sent message, after confirming', async ({ page, parley }) => {
  const { chat, title } = await openImessageChat(page, parley);
  const text = `Sent to the wrong customer, sorry (${Date.now()})`;
  const mine = await sendAndWait(page, title, text);

  // When the agent asks to delete it, Parley asks first; cancelling keeps it
  await mine.hover();
  await mine.getByRole('button', { name: 'Delete' }).click();
  const confirm = mine.getByRole('alertdialog', { name: 'Delete this message?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(mine).toBeVisible();

  // When they confirm
  await mine.hover();
  await mine.getByRole('button', { name: 'Delete' }).click();
  await mine
    .getByRole('alertdialog', { name: 'Delete this message?' })
    .getByRole('button', { name: 'Delete' })
    .click();

  // Then it leaves the timeline and the service
  await expect(bubble(page, text)).toHaveCount(0);
  await expect.poll(() => parley.copiesOnService(chat.id, text)).toBe(0);
});
