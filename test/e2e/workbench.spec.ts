/**
 * The agent's workbench: a canned reply inserted with its variables filled (a fallback for what the
 * conversation lacks; a variable with no value blocks sending until fixed), the "Waiting on you"
 * view worked to empty, and a private note left and found again by search. Also each new view in
 * the light and the dark theme, photographed (docs/screenshots/workbench-*.png with
 * PARLEY_DOCS_SCREENSHOTS=1) and free of serious or critical axe-core violations.
 */
import type { Page } from '@playwright/test';
import { chatTitle } from '../../renderer/lib/chat-presentation.ts';
import { chooseTheme, photograph, seriousViolations } from './support/look.ts';
import { escapeRegExp, expect, openInbox, test, type Parley } from './support/parley.ts';
import { png } from './support/files.ts';
import {
  bubble,
  composer,
  conversation,
  expectHighlighted,
  goTo,
  openChat,
  recordHighlights,
  timeline,
} from './support/screen.ts';

/** A one-to-one conversation near the top whose customer is not a contact (no first name, no company). */
async function strangerChat(parley: Parley) {
  return parley.pickChat((c) => !c.isGroup && c.handles.every((h) => h.isMe || h.contactName === null));
}

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function openWaiting(page: Page): Promise<void> {
  await sidebar(page)
    .getByRole('button', { name: /^Waiting on you/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Waiting on you', level: 1 })).toBeVisible();
}

test('a canned reply goes in with its variables filled, and a missing one blocks sending until fixed', async ({
  page,
  parley,
}) => {
  // Given the agent's name is set and two canned replies exist
  await parley.call('workbench.updateSettings', { agentName: 'Sam' });
  // (the shipping reply carries a photo of the parcel, staged the way a picked file is)
  const staged = await parley.host.core.session.staging.stageBytes(png(40, 30, [200, 120, 40]), 'parcel.png');
  await parley.call('canned.save', {
    title: 'Shipping update',
    group: 'Orders',
    body: 'Hi {first_name|there}, {agent_name} here: your order ships today.',
    stagedIds: [staged.id],
  });
  await parley.call('canned.save', {
    title: 'Billing name',
    group: 'Billing',
    body: 'Is {company} still the name on your invoices?',
  });
  const { chat, title } = await strangerChat(parley);
  await openInbox(page, parley);
  await openChat(page, title);
  const box = composer(page, title);

  // When the agent types "/" and a few letters of the reply, then Enter
  await box.pressSequentially('/shp');
  const picker = page.getByRole('listbox', { name: 'Canned replies' });
  await expect(picker.getByRole('option').first()).toContainText('Shipping update');
  await expect(picker.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');

  // Then the composer shows the reply, not the template: the fallback stands in for the unknown name
  const shipping = 'Hi there, Sam here: your order ships today.';
  await expect(picker).toHaveCount(0);
  await expect(box).toHaveValue(shipping);
  // and its photo is attached to the draft
  await expect(page.getByRole('group', { name: 'Attachments' })).toContainText('parcel.png');
  await box.press('Enter');
  await expect(bubble(page, shipping)).toBeVisible();
  await expect.poll(() => parley.copiesOnService(chat.id, shipping)).toBe(1);
  const sent = (await parley.messagesOnService(chat.id)).find((m) => m.text === shipping);
  expect(sent?.attachments.map((a) => a.filename)).toEqual(['parcel.png']);

  // When they insert a reply whose variable has no value and no fallback (arrows pick it)
  await box.pressSequentially('/');
  await expect(picker.getByRole('option')).toHaveCount(2);
  const billingOption = picker.getByRole('option', { name: /Billing name/ });
  while ((await billingOption.getAttribute('aria-selected')) !== 'true') await box.press('ArrowDown');
  await box.press('Enter');

  // Then the placeholder is highlighted and sending is blocked, with why
  await expect(box).toHaveValue('Is {company} still the name on your invoices?');
  const warning = page.getByRole('status').filter({ hasText: 'never sent as written' });
  await expect(warning.locator('mark')).toHaveText('{company}');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await box.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Fill in or remove {company}' })).toBeVisible();
  await expect(box).toHaveValue('Is {company} still the name on your invoices?');

  // When they fill it in, it sends
  const billing = 'Is Acme Dental still the name on your invoices?';
  await box.fill(billing);
  await expect(warning).toHaveCount(0);
  await box.press('Enter');
  await expect(bubble(page, billing)).toBeVisible();
  await expect.poll(() => parley.copiesOnService(chat.id, billing)).toBe(1);
  // And nothing with a raw placeholder ever reached the service
  expect((await parley.messagesOnService(chat.id)).filter((m) => m.text.includes('{company}'))).toEqual([]);
});

test('Waiting on you lists who spoke last, oldest first, and empties as the agent replies and archives', async ({
  page,
  parley,
}) => {
  // Given two conversations wait on the agent (the rest of the demo's are archived to keep it short)
  const waiting = await parley.call('waiting.list', {});
  const [older, newer] = waiting.slice(0, 2);
  for (const w of waiting.slice(2))
    await parley.call('chats.setFlags', { chatId: w.chat.id, archived: true });
  // The customer we answer takes their time to write back (the sandbox's customers answer sends)
  for (const h of older!.chat.handles.filter((x) => !x.isMe))
    await parley.control('PUT', `/customers/${encodeURIComponent(h.identifier)}`, { auto_reply: false });
  const olderTitle = chatTitle(older!.chat);
  const newerTitle = chatTitle(newer!.chat);
  await openInbox(page, parley);

  // When the agent opens the view
  await expect(sidebar(page).getByRole('button', { name: /^Waiting on you/ })).toContainText('2');
  await openWaiting(page);
  const list = page.getByRole('list', { name: 'Conversations waiting on you' });
  // Then the longest wait is first, each with how long it has waited
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toHaveAccessibleName(olderTitle);
  await expect(list.getByRole('listitem').first()).toContainText(/waiting \d/);

  // When they reply to one
  await list.getByRole('button', { name: `Reply to ${olderTitle}` }).click();
  await expect(conversation(page, olderTitle)).toBeVisible();
  await composer(page, olderTitle).fill('Thanks for waiting, on it now.');
  await composer(page, olderTitle).press('Enter');
  await expect(bubble(page, 'Thanks for waiting, on it now.')).toBeVisible();

  // Then it leaves the view; archiving the other empties it
  await openWaiting(page);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await list.getByRole('button', { name: `Archive ${newerTitle}` }).click();
  await expect(page.getByText('All caught up')).toBeVisible();
  await expect(sidebar(page).getByRole('button', { name: /^Waiting on you/ })).not.toContainText(/\d/);

  // And a customer writing again brings their conversation back, live
  await parley.control('POST', '/inbound/message', { chat_id: older!.chat.id, text: 'One more question' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toHaveAccessibleName(olderTitle);
});

test('a private note stays private, looks unlike a message, and search opens the chat at it', async ({
  page,
  parley,
}) => {
  const { chat, title } = await strangerChat(parley);
  await recordHighlights(page);
  await openInbox(page, parley);
  await openChat(page, title);
  const before = (await parley.messagesOnService(chat.id)).length;

  // When the agent leaves a note
  await page.getByRole('button', { name: 'Add a private note' }).click();
  await page.getByRole('textbox', { name: 'Private note' }).fill('Prefers the Quokka plan; call after 5pm');
  await page.getByRole('button', { name: 'Save note' }).click();

  // Then it shows in the timeline as a note, labelled private, and nothing was sent
  const note = timeline(page).getByRole('article', { name: /^Private note/ });
  await expect(note).toContainText('Prefers the Quokka plan; call after 5pm');
  await expect(note).toContainText('Only you can see this');
  await expect(timeline(page).getByTestId('message').filter({ hasText: 'Quokka' })).toHaveCount(0);
  expect((await parley.messagesOnService(chat.id)).length).toBe(before);

  // When they edit it
  await note.getByRole('button', { name: 'Edit' }).click();
  await note.getByRole('textbox', { name: 'Edit note' }).fill('Prefers the Quokka plan; call after 6pm');
  await note.getByRole('button', { name: 'Save note' }).click();
  await expect(note).toContainText('call after 6pm');

  // And, from another conversation, search for it
  await page.getByRole('button', { name: /^Inbox/ }).click();
  const search = page.getByRole('searchbox', { name: 'Search conversations, contacts and messages' });
  await search.fill('quokka');
  const found = page
    .getByRole('region', { name: 'Notes found' })
    .getByRole('button', { name: new RegExp(escapeRegExp(title)) });
  await expect(found).toHaveCount(1);
  await expect(found.locator('mark')).toHaveText(/^quokka$/i);
  await found.click();

  // Then the conversation opens at the note, highlighted
  await expect(conversation(page, title)).toBeVisible();
  await expect(note).toBeVisible();
  await expectHighlighted(note);

  // And deleting it removes it from the timeline and from search
  await note.getByRole('button', { name: 'Delete' }).click();
  await expect(note).toHaveCount(0);
  expect((await parley.call('chats.search', { query: 'quokka' })).notes).toEqual([]);
});

test('a note on a contact shows in the details panel of their conversations, and search finds it', async ({
  page,
  parley,
}) => {
  const { title } = await parley.pickChat(
    (c) => !c.isGroup && c.handles.some((h) => !h.isMe && h.contactName),
  );
  await openInbox(page, parley);
  await openChat(page, title);

  // When the agent writes a note on the customer's contact, in the details panel
  await page.getByRole('button', { name: 'Conversation details' }).click();
  const notes = page.getByRole('region', { name: 'Notes on this contact' });
  await notes.getByRole('button', { name: 'Add a note on this contact' }).click();
  await notes.getByRole('textbox', { name: 'Note on this contact' }).fill('Owns the Wombat Street rentals');
  await notes.getByRole('button', { name: 'Save note' }).click();

  // Then it is there, private
  await expect(notes.getByRole('article', { name: /^Private note/ })).toContainText(
    'Owns the Wombat Street rentals',
  );
  await expect(notes).toContainText('Only you can see this');

  // And search finds it, and opens their conversation with the details panel showing it
  await page.getByRole('button', { name: 'Close details' }).click();
  await page.getByRole('searchbox', { name: 'Search conversations, contacts and messages' }).fill('wombat');
  const found = page.getByRole('region', { name: 'Notes found' }).getByRole('button');
  await expect(found).toContainText('Note on the contact');
  await found.click();
  await expect(conversation(page, title)).toBeVisible();
  await expect(notes).toContainText('Owns the Wombat Street rentals');
});

/** Each theme's workbench views in two tests (each with its own host), so neither is long on a slow machine. */
for (const theme of ['light', 'dark'] as const) {
  test.describe(`the workbench's views in the ${theme} theme are accessible (and photographed)`, () => {
    // Several axe runs and pictures: on a loaded machine axe on a conversation alone took 15 s.
    test.describe.configure({ timeout: 120_000 });
    let problems: Record<string, string[]>;
    let check: (view: string) => Promise<void>;
    test.beforeEach(async ({ page, parley }, testInfo) => {
      problems = {};
      check = async (view) => {
        await photograph(page, testInfo, `workbench-${view}-${theme}`);
        const found = await seriousViolations(page);
        if (found.length) problems[view] = found;
      };
      await parley.call('canned.save', {
        title: 'Shipping update',
        group: 'Orders',
        body: 'Hi {first_name|there}, your order ships today.',
      });
      await parley.call('canned.save', {
        title: 'Opening hours',
        group: 'General',
        body: 'We are open 8am–6pm.',
      });
      await parley.call('canned.save', {
        title: 'Billing name',
        group: 'Billing',
        body: 'Is {company} right?',
      });
    });
    test.afterEach(() => {
      expect(problems).toEqual({});
    });

    test('waiting on you and canned replies', async ({ page, parley }) => {
      await openInbox(page, parley);
      await chooseTheme(page, theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

      await openWaiting(page);
      await expect(page.getByRole('list', { name: 'Conversations waiting on you' })).toBeVisible();
      await check('waiting');

      await sidebar(page).getByRole('button', { name: 'Canned replies' }).click();
      await page.getByRole('button', { name: /Shipping update/ }).click();
      await expect(page.getByRole('textbox', { name: 'Reply' })).toHaveValue(/ships today/);
      await check('canned-replies');
    });

    test('a conversation with a note, the canned reply picker and an unfilled variable', async ({
      page,
      parley,
    }) => {
      const { chat, title } = await strangerChat(parley);
      await parley.call('notes.add', { chatId: chat.id, text: 'Asked for a callback about the quote' });
      await openInbox(page, parley);
      await chooseTheme(page, theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

      await goTo(page, 'Inbox');
      await openChat(page, title);
      await expect(timeline(page).getByRole('article', { name: /^Private note/ })).toBeVisible();
      await composer(page, title).pressSequentially('/');
      await expect(page.getByRole('listbox', { name: 'Canned replies' })).toBeVisible();
      await check('conversation');

      await composer(page, title).press('Escape');
      await composer(page, title).fill('Is {company} right?');
      await expect(page.getByRole('status').filter({ hasText: 'never sent as written' })).toBeVisible();
      await check('unfilled-variable');
    });
  });
}
