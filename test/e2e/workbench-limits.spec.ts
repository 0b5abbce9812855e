/**
 * The workbench's limits, said and held: an import file too large (or empty) is refused in words
 * that name the limit, before anything is sent, and the page's connection to Parley stays up; a note
 * or a canned reply past its limit is kept whole on screen, refused in words with the limit, and
 * saved once it fits. Nothing is cut silently.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { openChat, timeline } from './support/screen.ts';

const MB = 1024 * 1024;

/** Counts the page's bridge sockets that close: a refusal must not take the connection down. */
function watchBridge(page: Page): { closed: number } {
  const seen = { closed: 0 };
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).pathname === '/bridge') socket.on('close', () => (seen.closed += 1));
  });
  return seen;
}

async function openCannedReplies(page: Page, parley: Parley): Promise<void> {
  await openInbox(page, parley);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Canned replies' })
    .click();
  await expect(page.getByRole('heading', { name: 'Canned replies', level: 1 })).toBeVisible();
}

const importFile = (page: Page) => page.getByLabel('Canned replies file to import');

test('a 20 MB import file is refused in words naming the limit, and the connection stays up', async ({
  page,
  parley,
}, testInfo) => {
  const bridge = watchBridge(page);
  await openCannedReplies(page, parley);

  // When the agent imports a 20 MB file (picked from disk: the browser reads it, not the test)
  const huge = testInfo.outputPath('huge.json');
  writeFileSync(huge, Buffer.alloc(20 * MB, 'a'));
  await importFile(page).setInputFiles(huge);

  // Then it is refused in words, with the limit, and nothing was imported
  const problem = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
  await expect(problem).toHaveText(
    'Nothing was imported. The canned-reply file is too large: 20 MB, the limit is 3.5 MB.',
  );
  expect(await parley.call('canned.list', {})).toEqual([]);

  // And the connection is still up: the next call goes through at once, nothing reconnected
  await problem.getByRole('button', { name: 'Dismiss' }).click();
  await importFile(page).setInputFiles({
    name: 'set.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        format: 'parley.canned-replies',
        version: 1,
        replies: [{ title: 'Still here', body: 'Imported right after the refusal' }],
      }),
    ),
  });
  await expect(page.getByRole('button', { name: /Still here/ })).toBeVisible();
  await expect(page.getByText(/Reconnecting|Offline/)).toHaveCount(0);
  expect(bridge.closed).toBe(0);
});

test('an empty import file is refused in words', async ({ page, parley }) => {
  await openCannedReplies(page, parley);
  await importFile(page).setInputFiles({
    name: 'empty.json',
    mimeType: 'application/json',
    buffer: Buffer.alloc(0),
  });
  await expect(page.getByRole('alert')).toHaveText('Nothing was imported. The canned-reply file is empty.');
});

test('a 20,000-character note is kept whole and refused in words with the limit; one that fits is saved', async ({
  page,
  parley,
}) => {
  const { chat, title } = await parley.pickChat((c) => !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, title);

  // When the agent pastes 20,000 characters into a new note
  await page.getByRole('button', { name: 'Add a private note' }).click();
  const input = page.getByRole('textbox', { name: 'Private note' });
  await input.fill('n'.repeat(20_000));

  // Then all of it is still there, the note is refused in words, and it cannot be saved
  await expect(input).toHaveValue('n'.repeat(20_000));
  await expect(page.getByText('The note is too long: 20,000 characters, the limit is 10,000.')).toBeVisible();
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Save note' })).toBeDisabled();
  await input.press('Control+Enter');
  expect(await parley.call('notes.list', { chatId: chat.id })).toEqual([]);

  // When they cut it to the limit, the count shows it fits, and it is saved whole
  await input.fill('n'.repeat(10_000));
  await expect(page.getByText('10,000 / 10,000')).toBeVisible();
  await page.getByRole('button', { name: 'Save note' }).click();
  await expect(timeline(page).getByRole('article', { name: /^Private note/ })).toBeVisible();
  const notes = await parley.call('notes.list', { chatId: chat.id });
  expect(notes.map((n) => n.text.length)).toEqual([10_000]);
});

test('the canned-reply editor keeps an over-long title and text whole, refuses them with the limit, then saves', async ({
  page,
  parley,
}) => {
  await openCannedReplies(page, parley);
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const form = page.getByRole('form', { name: 'New canned reply' });
  const titleField = form.getByRole('textbox', { name: 'Title' });
  const body = form.getByRole('textbox', { name: 'Reply' });

  // When the agent writes a 130-character title and a 5,001-character reply
  await titleField.fill('t'.repeat(130));
  await body.fill('b'.repeat(5001));

  // Then nothing is cut, each field says what is wrong and its limit
  await expect(titleField).toHaveValue('t'.repeat(130));
  await expect(body).toHaveValue('b'.repeat(5001));
  await expect(form.getByText('The title is too long: 130 characters, the limit is 120.')).toBeVisible();
  await expect(form.getByText('The reply is too long: 5,001 characters, the limit is 5,000.')).toBeVisible();
  await expect(titleField).toHaveAttribute('aria-invalid', 'true');

  // And saving is refused in the same words, with nothing saved
  await form.getByRole('button', { name: 'Save canned reply' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'The title is too long: 130 characters, the limit is 120.',
  );
  expect(await parley.call('canned.list', {})).toEqual([]);

  // When both fit, the counts say so and it is saved whole
  await titleField.fill('t'.repeat(120));
  await body.fill('b'.repeat(5000));
  await expect(form.getByText('120 / 120')).toBeVisible();
  await expect(form.getByText('5,000 / 5,000')).toBeVisible();
  await form.getByRole('button', { name: 'Save canned reply' }).click();
  await expect(page.getByRole('form', { name: `Edit ${'t'.repeat(120)}` })).toBeVisible();
  const [saved] = await parley.call('canned.list', {});
  expect([saved?.title.length, saved?.body.length]).toEqual([120, 5000]);
});
