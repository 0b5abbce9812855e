/**
 * Starting conversations: to one new number, to several (a named group), and to someone the agent
 * already talks to, which opens that conversation instead of a second one.
 */
import type { Page } from '@playwright/test';
import { formatHandle } from '../../shared/phone.ts';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { bubble, chatRow, conversation } from './support/screen.ts';

interface ServiceChat {
  id: number;
  display_name: string;
  group: boolean;
  chat_handles: Array<{ identifier: string; is_me?: boolean }>;
}

/** The chat on the service between a line and these customers, if any. */
async function chatOnService(parley: Parley, line: string, customers: string[]): Promise<ServiceChat | null> {
  const query = new URLSearchParams({ phone_number: line });
  for (const c of customers) query.append('phone_numbers[]', c);
  const found = await parley.service<{ data: { chat: ServiceChat | null } }>('GET', `/chats/find?${query}`);
  return found.data.chat;
}

async function chatCountOnService(parley: Parley): Promise<number> {
  const state = await parley.control<{ orgs: Array<{ chats: number }> }>('GET', '/state');
  return state.orgs[0]?.chats ?? 0;
}

function newConversation(page: Page) {
  return page.getByRole('dialog', { name: 'New conversation' });
}

async function addRecipient(page: Page, typed: string): Promise<void> {
  const to = newConversation(page).getByRole('combobox', { name: 'To' });
  await to.pressSequentially(typed);
  await to.press('Enter');
}

test('a new conversation with one number opens and its message is delivered', async ({ page, parley }) => {
  const [line] = await parley.call('lines.list', {});
  await openInbox(page, parley);
  const chatsBefore = await chatCountOnService(parley);

  // When the agent starts a conversation from the sidebar, typing the number as people write it
  await page.getByRole('button', { name: 'New conversation' }).click();
  const dialog = newConversation(page);
  await expect(dialog.getByRole('combobox', { name: 'To' })).toBeFocused();
  await addRecipient(page, '628 555 0142');
  await expect(dialog.getByRole('button', { name: 'Remove +16285550142' })).toBeVisible();
  const text = `Hi, this is Harborview Home Services about your quote (${Date.now()})`;
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  await dialog.getByRole('button', { name: 'Send' }).click();

  // Then the dialog closes on the new conversation, with the message in it…
  await expect(dialog).toHaveCount(0);
  const title = formatHandle('+16285550142');
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubble(page, text)).toBeVisible();
  // …which stays open when the service creates the chat, and is delivered there
  await expect(bubble(page, text)).toHaveAttribute('data-state', 'delivered');
  await expect(conversation(page, title)).toBeVisible();
  await expect(chatRow(page, title)).toHaveAttribute('aria-selected', 'true');

  // And the service has one new chat from the agent's line, holding the message once
  const created = await chatOnService(parley, line!.phoneNumber, ['+16285550142']);
  expect(created).not.toBeNull();
  expect(await parley.copiesOnService(created!.id, text)).toBe(1);
  expect(await chatCountOnService(parley)).toBe(chatsBefore + 1);
});

test('while the service is slow to create the chat, the new conversation shows at once', async ({
  page,
  parley,
}) => {
  await openInbox(page, parley);
  // Given the service takes a few seconds to create chats
  await parley.control('POST', '/faults', {
    method: 'POST',
    path: '/chats$',
    kind: 'latency',
    latencyMs: 4_000,
    times: 1,
  });

  // When the agent starts a conversation
  await page.getByRole('button', { name: 'New conversation' }).click();
  const dialog = newConversation(page);
  await addRecipient(page, '628 555 0160');
  const text = `Hello from Harborview (${Date.now()})`;
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  await dialog.getByRole('button', { name: 'Send' }).click();

  // Then, before the service has answered (the message is still queued or sending), the
  // conversation, its row and the message are there
  const title = formatHandle('+16285550160');
  await expect(bubble(page, text)).toHaveAttribute('data-state', /^(queued|sending)$/);
  await expect(conversation(page, title)).toBeVisible();
  await expect(chatRow(page, title)).toHaveAttribute('aria-selected', 'true');

  // And once it has, the same conversation shows the message delivered
  await expect(bubble(page, text)).toHaveAttribute('data-state', 'delivered');
  await expect(conversation(page, title)).toBeVisible();
});

test('several recipients and a name make a group conversation', async ({ page, parley }) => {
  const [line] = await parley.call('lines.list', {});
  await openInbox(page, parley);

  // When the agent presses C (new conversation: nothing is focused yet) and adds two numbers and a
  // group name
  await page.keyboard.press('c');
  const dialog = newConversation(page);
  await addRecipient(page, '+1 628 555 0150');
  await addRecipient(page, '(628) 555-0151');
  await dialog.getByRole('textbox', { name: 'Group name (optional)' }).fill('Maple St duplex');
  const text = `Welcome, both of you: this thread is for the duplex job (${Date.now()})`;
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  await dialog.getByRole('button', { name: 'Send' }).click();

  // Then the group conversation opens under its name with the message
  await expect(conversation(page, 'Maple St duplex')).toBeVisible();
  await expect(bubble(page, text)).toHaveAttribute('data-state', /^(pending|delivered)$/);

  // And the service has a named group with both customers
  await expect
    .poll(() => chatOnService(parley, line!.phoneNumber, ['+16285550150', '+16285550151']))
    .toMatchObject({ group: true, display_name: 'Maple St duplex' });
  const group = await chatOnService(parley, line!.phoneNumber, ['+16285550150', '+16285550151']);
  expect(await parley.copiesOnService(group!.id, text)).toBe(1);
});

test('a group name over its limit stays whole and is refused in words, not cut', async ({ page, parley }) => {
  await openInbox(page, parley);
  await page.keyboard.press('c');
  const dialog = newConversation(page);
  await addRecipient(page, '+1 628 555 0160');
  await addRecipient(page, '(628) 555-0161');

  // When the agent pastes a 130-character name
  const name = 'N'.repeat(130);
  const field = dialog.getByRole('textbox', { name: 'Group name (optional)' });
  await field.fill(name);
  await dialog.getByRole('textbox', { name: 'Message' }).fill('Hello both');
  await dialog.getByRole('button', { name: 'Send' }).click();

  // Then the name is all there, the dialog says what is wrong and the limit, and nothing was sent
  await expect(field).toHaveValue(name);
  await expect(
    dialog.getByText('The group name is too long: 130 characters, the limit is 100.').first(),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
  const line = (await parley.call('lines.list', {}))[0]!;
  expect(await chatOnService(parley, line.phoneNumber, ['+16285550160', '+16285550161'])).toBeNull();
});

test('a new conversation to someone already in the inbox opens the existing one', async ({
  page,
  parley,
}) => {
  // Given a conversation with a contact (found by name as the agent types)
  const { chat, title } = await parley.pickChat(
    (c) => !c.isGroup && c.handles.some((h) => !h.isMe && h.contactName),
  );
  const customer = chat.handles.find((h) => !h.isMe)!;
  const lines = await parley.call('lines.list', {});
  const line = lines.find((l) => l.id === chat.lineId)!;
  await openInbox(page, parley);
  const chatsBefore = await chatCountOnService(parley);

  // When the agent starts a new conversation to them from the same line
  await page.getByRole('button', { name: 'New conversation' }).click();
  const dialog = newConversation(page);
  await dialog
    .getByRole('combobox', { name: 'From' })
    .selectOption({ label: `${formatHandle(line.phoneNumber)} — ${line.userName}` });
  const to = dialog.getByRole('combobox', { name: 'To' });
  await to.pressSequentially(customer.contactName!.split(' ')[0]!);
  await dialog
    .getByRole('listbox', { name: 'Matching contacts' })
    .getByRole('option', { name: customer.contactName! })
    .click();
  await expect(dialog.getByRole('button', { name: `Remove ${customer.contactName}` })).toBeVisible();
  const text = `Following up on your visit (${Date.now()})`;
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  await dialog.getByRole('button', { name: 'Send' }).click();

  // Then the existing conversation opens, with the new message at its end
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubble(page, text)).toHaveAttribute('data-state', /^(pending|delivered)$/);
  await expect(chatRow(page, title)).toHaveAttribute('aria-selected', 'true');

  // And no second chat was created: the message went into the existing one
  await expect.poll(() => parley.copiesOnService(chat.id, text)).toBe(1);
  expect(await chatCountOnService(parley)).toBe(chatsBefore);
  await expect(chatRow(page, title)).toHaveCount(1);
});
