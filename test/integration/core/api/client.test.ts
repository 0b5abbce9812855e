/**
 * Every PartnerApiClient method once against the real sandbox, over HTTP. Reads like a session of an
 * agent: look at the lines, open chats, write, react, edit, manage contacts and webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApiClient } from '../../../../electron/core/api/client.ts';
import { isPartnerApiError } from '../../../../electron/core/api/errors.ts';
import { freshCustomer, firstLine, startTestSandbox, testClient, type TestSandbox } from './helpers.ts';

let sandbox: TestSandbox;
let client: PartnerApiClient;
let line: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = testClient(sandbox).client;
  line = await firstLine(client);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('lines', () => {
  it('lists lines and updates the forwarding number (E.164 from formatted input), then clears it', async () => {
    const lines = await client.lines.list();
    expect(lines.length).toBeGreaterThan(0);
    const target = lines[1] ?? lines[0]!;
    const updated = await client.lines.updateForwarding(target.id, '(408) 555-0142');
    expect(updated).toMatchObject({ id: target.id, forwarding_number: '+14085550142' });
    const cleared = await client.lines.updateForwarding(target.id, null);
    expect(cleared.forwarding_number).toBeNull();
  });
});

describe('chats', () => {
  it('lists one page and walks all pages of a line', async () => {
    const first = await client.chats.list(line, { perPage: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.perPage).toBe(5);
    const ids: number[] = [];
    for await (const page of client.chats.pages(line, { perPage: 7 }, { priority: 'background' })) {
      ids.push(...page.items.map((chat) => chat.id));
    }
    expect(ids).toHaveLength(first.totalCount);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('creates a chat (find-or-create), gets and finds it', async () => {
    const customer = await freshCustomer(sandbox);
    const national = customer.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3');
    expect(await client.chats.find({ line, participants: [customer] })).toBeNull();

    const created = await client.chats.create({ line, participants: [national], text: 'Hello from Parley' });
    expect(created.created).toBe(true);
    expect(created.chat.message_count).toBe(1);
    expect(created.message).toMatchObject({ text: 'Hello from Parley', delivery_status: 'pending' });
    expect(created.chat.chat_handles.map((h) => h.phone_number)).toContain(customer);

    const again = await client.chats.create({ line, participants: [customer], text: 'Second' });
    expect(again).toMatchObject({ created: false, chat: { id: created.chat.id, message_count: 2 } });

    expect((await client.chats.get(created.chat.id)).id).toBe(created.chat.id);
    expect((await client.chats.find({ line, participants: [customer] }))?.id).toBe(created.chat.id);
  });

  it('migrates to V3, and reports an SMS group that cannot migrate as migrated:false', async () => {
    const { chat } = await client.chats.create({
      line,
      participants: [await freshCustomer(sandbox)],
      text: 'hi',
    });
    const migrated = await client.chats.migrateToV3(chat.id);
    expect(migrated).toMatchObject({ v2_chat_id: chat.id, migrated: true });
    expect(migrated.v3_chat_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.chats.migrateToV3(chat.id)).toEqual(migrated);

    const smsOnly = [
      await freshCustomer(sandbox, { imessage: false, rcs: false }),
      await freshCustomer(sandbox, { imessage: false, rcs: false }),
    ];
    const group = await client.chats.create({
      line,
      participants: smsOnly,
      text: 'group',
      displayName: 'Crew',
    });
    expect(group.chat).toMatchObject({ group: true, service: 'SMS' });
    expect(await client.chats.migrateToV3(group.chat.id)).toEqual({
      v3_chat_id: null,
      v2_chat_id: group.chat.id,
      migrated: false,
    });
  });

  it('marks read, starts and stops typing', async () => {
    const { chat } = await client.chats.create({
      line,
      participants: [await freshCustomer(sandbox)],
      text: 'hi',
    });
    await expect(client.chats.markAsRead(chat.id)).resolves.toBeUndefined();
    await expect(client.chats.startTyping(chat.id)).resolves.toBeUndefined();
    await expect(client.chats.stopTyping(chat.id)).resolves.toBeUndefined();
  });

  it('shares the contact card, and explains a 403 when the feature is off', async () => {
    const { chat } = await client.chats.create({
      line,
      participants: [await freshCustomer(sandbox)],
      text: 'hi',
    });
    await sandbox.control.setOrg({ share_contact: true });
    await expect(client.chats.shareContact(chat.id)).resolves.toBeUndefined();
    await sandbox.control.setOrg({ share_contact: false });
    await expect(client.chats.shareContact(chat.id)).rejects.toMatchObject({
      kind: 'forbidden',
      status: 403,
      message: 'Sharing your contact card is not enabled for your organization',
    });
  });

  it('checks iMessage availability', async () => {
    const number = await freshCustomer(sandbox, { imessage: true });
    expect(await client.checkIMessageAvailability(number)).toEqual({ available: true, phone_number: number });
  });
});

describe('messages and reactions', () => {
  it('sends (JSON), replays an idempotency key, gets, lists, edits, reacts, deletes', async () => {
    const customer = await freshCustomer(sandbox, { imessage: true });
    const { chat } = await client.chats.create({ line, participants: [customer], text: 'first' });

    const sent = await client.messages.send(chat.id, { text: 'second', idempotencyKey: `k-${chat.id}` });
    expect(sent).toMatchObject({ replayed: false, message: { text: 'second' } });
    const replay = await client.messages.send(chat.id, { text: 'second', idempotencyKey: `k-${chat.id}` });
    expect(replay).toMatchObject({ replayed: true, message: { id: sent.message.id } });

    expect((await client.messages.get(chat.id, sent.message.id)).text).toBe('second');

    const asc = await client.messages.list(chat.id, { perPage: 10 });
    expect(asc.items.map((m) => m.text)).toEqual(['first', 'second']);
    const desc = await client.messages.list(chat.id, { sort: 'desc' });
    expect(desc.items.map((m) => m.text)).toEqual(['second', 'first']);
    const firstSentAt = asc.items[0]!.sent_at;
    const after = await client.messages.list(chat.id, { after: firstSentAt });
    expect(after.items.map((m) => m.id)).not.toContain(asc.items[0]!.id);
    const before = await client.messages.list(chat.id, {
      before: new Date(Date.parse(asc.items[1]!.sent_at)),
    });
    expect(before.items.map((m) => m.id)).not.toContain(sent.message.id);
    const walked: string[] = [];
    for await (const page of client.messages.pages(chat.id, { perPage: 1 }))
      walked.push(...page.items.map((m) => m.text));
    expect(walked).toEqual(['first', 'second']);

    expect(await client.messages.edit(chat.id, sent.message.id, 'second (edited)')).toEqual({
      id: sent.message.id,
      text: 'second (edited)',
    });
    expect((await client.messages.get(chat.id, sent.message.id)).edited_at).not.toBeNull();

    const reaction = await client.reactions.add(sent.message.id, 'love');
    expect(reaction).toMatchObject({ chat_message_id: sent.message.id, reaction: 'love', is_from_me: true });
    expect((await client.messages.get(chat.id, sent.message.id)).reactions.map((r) => r.reaction)).toEqual([
      'love',
    ]);
    expect((await client.reactions.remove(sent.message.id, 'love'))?.id).toBe(reaction.id);

    await client.messages.delete(chat.id, sent.message.id);
    const error = await client.messages.get(chat.id, sent.message.id).catch((e: unknown) => e);
    expect(isPartnerApiError(error) && error.kind).toBe('not_found');
  });
});

describe('contacts', () => {
  it('creates, gets, finds (email and formatted phone), updates, lists, deletes', async () => {
    const created = await client.contacts.create({
      firstName: 'Rosa',
      lastName: 'Parker',
      email: 'rosa.parker@example.com',
      phoneNumber: '(628) 555-7788',
      company: 'Harbor',
    });
    expect(created).toMatchObject({ first_name: 'Rosa', phone_number: '+16285557788', company: 'Harbor' });
    expect((await client.contacts.get(created.id)).email).toBe('rosa.parker@example.com');
    expect((await client.contacts.find({ email: 'rosa.parker@example.com' }))?.id).toBe(created.id);
    expect((await client.contacts.find({ phoneNumber: '628-555-7788' }))?.id).toBe(created.id);
    expect(await client.contacts.find({ email: 'nobody@example.com' })).toBeNull();

    const updated = await client.contacts.update(created.id, { firstName: 'Rosalind', title: 'Owner' });
    expect(updated).toMatchObject({
      id: created.id,
      first_name: 'Rosalind',
      last_name: 'Parker',
      title: 'Owner',
    });

    const page = await client.contacts.list({ perPage: 10 });
    expect(page.items).toHaveLength(10);
    let count = 0;
    for await (const contactsPage of client.contacts.pages({ perPage: 20 }))
      count += contactsPage.items.length;
    expect(count).toBe(page.totalCount);

    await client.contacts.delete(created.id);
    await expect(client.contacts.get(created.id)).rejects.toMatchObject({
      kind: 'not_found',
      code: 'CONTACT_NOT_FOUND',
    });
  });
});

describe('webhook subscriptions', () => {
  it('creates, lists, updates and deletes; a second delete is tolerated', async () => {
    const created = await client.webhooks.create({
      url: 'https://hooks.example.com/parley',
      events: ['message.received', 'message.sent'],
      secret: 'whsec_test_123456',
    });
    expect(created).toMatchObject({ version: 2, active: true, secret_configured: true });
    expect((await client.webhooks.list()).map((s) => s.id)).toContain(created.id);
    const paused = await client.webhooks.update(created.id, { active: false });
    expect(paused).toMatchObject({
      id: created.id,
      active: false,
      events: ['message.received', 'message.sent'],
    });
    expect(await client.webhooks.delete(created.id)).toEqual({ deleted: true });
    expect(await client.webhooks.delete(created.id)).toEqual({ deleted: false });
  });
});
