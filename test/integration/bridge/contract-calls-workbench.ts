/** contract-calls.ts's calls of the agent's workbench: canned replies, notes, send later, undo send, snooze. */
import { expect } from 'vitest';
import type { MethodName } from '../../../shared/contract/methods.ts';
import { control, eventually } from '../core/helpers.ts';
import { PNG } from './support.ts';
import { type Call, type CallState, outbox } from './contract-call-kit.ts';

/** The agent's workbench: settings, canned replies, notes, send later, undo send, snooze, waiting. */
export function workbenchCalls(s: CallState) {
  let cannedId = 0;
  let exported = '';
  let noteId = 0;
  let scheduledId = 0;
  let graceId = 0;
  return {
    // ── the agent's workbench
    'workbench.settings': async (t) => {
      expect(await t.parley.workbench.settings()).toEqual({
        agentName: '',
        overdueMinutes: 15,
        undoSeconds: 0,
        quietHours: null,
        mutedLineIds: [],
      });
    },
    'workbench.updateSettings': async (t) => {
      const updated = await t.parley.workbench.updateSettings({
        agentName: '  Sam Rivera ',
        overdueMinutes: 10,
        quietHours: { start: '22:00', end: '07:00' },
        mutedLineIds: [s.f.lineId],
      });
      expect(updated).toEqual({
        agentName: 'Sam Rivera',
        overdueMinutes: 10,
        undoSeconds: 0,
        quietHours: { start: '22:00', end: '07:00' },
        mutedLineIds: [s.f.lineId],
      });
      // Back to notifying, for the calls after this one
      expect(await t.parley.workbench.settings()).toEqual(updated);
      await t.parley.workbench.updateSettings({ quietHours: null, mutedLineIds: [] });
      expect(await t.parley.workbench.settings()).toMatchObject({ quietHours: null, mutedLineIds: [] });
    },
    'canned.save': async (t) => {
      // Staged as the host stages what the user hands over (the hosts' own tests cover how).
      const staged = await t.core.session.staging.stageBytes(PNG, 'price list.png');
      const created = await t.parley.canned.save({
        title: 'Greeting',
        body: 'Hi {first_name|there}, this is {agent_name}.',
        group: 'Openers',
        stagedIds: [staged.id],
      });
      expect(created).toMatchObject({
        title: 'Greeting',
        group: 'Openers',
        body: 'Hi {first_name|there}, this is {agent_name}.',
      });
      expect(created.attachments).toEqual([
        { id: expect.any(Number), filename: 'price list.png', mimeType: 'image/png', size: PNG.length },
      ]);
      // The file moved into the reply: the staged copy is gone.
      expect(t.core.session.staging.get(staged.id)).toBeUndefined();
      cannedId = created.id;
      const edited = await t.parley.canned.save({
        id: cannedId,
        title: 'Greeting',
        body: 'Hello {first_name|there}!',
        group: 'Openers',
        keepAttachmentIds: created.attachments.map((a) => a.id),
      });
      expect(edited).toMatchObject({ id: cannedId, body: 'Hello {first_name|there}!' });
      expect(edited.attachments).toEqual(created.attachments);
      await expect(t.parley.canned.save({ title: 'Empty', body: '  ' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'body',
      });
      await expect(t.parley.canned.save({ id: 999_999, title: 'Gone', body: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'canned.list': async (t) => {
      const replies = await t.parley.canned.list();
      expect(replies.map((r) => [r.id, r.title, r.group])).toEqual([[cannedId, 'Greeting', 'Openers']]);
    },
    'canned.stageAttachments': async (t) => {
      const staged = await t.parley.canned.stageAttachments({ id: cannedId });
      expect(staged).toMatchObject([{ filename: 'price list.png', mimeType: 'image/png', size: PNG.length }]);
      expect(t.core.session.staging.get(staged[0]!.id)).toBeDefined();
      await t.parley.attachments.unstage({ ids: staged.map((a) => a.id) });
      await expect(t.parley.canned.stageAttachments({ id: 999_999 })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'canned.export': async (t) => {
      const file = await t.parley.canned.export();
      expect(file.filename).toMatch(/^parley-canned-replies-\d{4}-\d{2}-\d{2}\.json$/);
      exported = file.json;
      const parsed = JSON.parse(file.json) as {
        format: string;
        replies: Array<{ attachments: Array<{ data: string }> }>;
      };
      expect(parsed.format).toBe('parley.canned-replies');
      expect(Buffer.from(parsed.replies[0]!.attachments[0]!.data, 'base64')).toEqual(PNG);
    },
    'canned.import': async (t) => {
      const before = await t.parley.canned.list();
      for (const bad of [
        'not json',
        '{"format":"parley.canned-replies","version":1,"replies":[{"title":""}]}',
      ]) {
        await expect(t.parley.canned.import({ json: bad, replace: true })).rejects.toMatchObject({
          code: 'invalid_input',
          field: 'json',
        });
      }
      expect(await t.parley.canned.list()).toEqual(before);
      const result = await t.parley.canned.import({ json: exported });
      expect(result.imported).toBe(1);
      expect(result.replies.map((r) => r.title)).toEqual(['Greeting', 'Greeting']);
      expect(result.replies[1]!.attachments).toMatchObject([
        { filename: 'price list.png', size: PNG.length },
      ]);
    },
    'canned.delete': async (t) => {
      expect(await t.parley.canned.delete({ id: cannedId })).toBeNull();
      expect((await t.parley.canned.list()).map((r) => r.id)).not.toContain(cannedId);
      await expect(t.parley.canned.delete({ id: cannedId })).rejects.toMatchObject({ code: 'not_found' });
    },
    'notes.add': async (t) => {
      const note = await t.parley.notes.add({
        chatId: s.f.chatId,
        text: 'Asked about the zebracorn warranty',
      });
      expect(note).toMatchObject({
        chatId: s.f.chatId,
        contactId: null,
        text: 'Asked about the zebracorn warranty',
      });
      noteId = note.id;
      const onContact = await t.parley.notes.add({ contactId: s.f.contactWithChats, text: 'VIP since 2021' });
      expect(onContact).toMatchObject({ contactId: s.f.contactWithChats, chatId: null });
      // The app's search finds notes, with the chat to open them in (a contact's: their latest).
      const found = await t.parley.chats.search({ query: 'zebracorn' });
      expect(found.notes.map((hit) => [hit.note.id, hit.chat?.id])).toEqual([[note.id, s.f.chatId]]);
      const [latest] = await t.parley.contacts.chats({ id: s.f.contactWithChats });
      const vip = await t.parley.chats.search({ query: 'VIP since' });
      expect(vip.notes.map((hit) => [hit.note.id, hit.chat?.id])).toEqual([[onContact.id, latest!.id]]);
      await expect(t.parley.notes.add({ chatId: 999_999_999, text: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(t.parley.notes.add({ text: 'on nothing' })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    },
    'notes.list': async (t) => {
      expect((await t.parley.notes.list({ chatId: s.f.chatId })).map((n) => n.id)).toEqual([noteId]);
      expect((await t.parley.notes.list({ contactId: s.f.contactWithChats })).map((n) => n.text)).toEqual([
        'VIP since 2021',
      ]);
    },
    'workbench.chatContext': async (t) => {
      const context = await t.parley.workbench.chatContext({ chatId: s.f.chatId });
      expect(context.line?.id).toBe(s.f.lineId);
      expect(context.notes.map((n) => n.id)).toEqual([noteId]);
      const contactChat = (await t.parley.contacts.chats({ id: s.f.contactWithChats })).find(
        (c) => !c.isGroup,
      )!;
      const ofContact = await t.parley.workbench.chatContext({ chatId: contactChat.id });
      expect(ofContact.contact?.id).toBe(s.f.contactWithChats);
      expect(ofContact.contactNotes.map((n) => n.text)).toEqual(['VIP since 2021']);
      await expect(t.parley.workbench.chatContext({ chatId: 999_999_999 })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'notes.edit': async (t) => {
      const edited = await t.parley.notes.edit({ id: noteId, text: 'Asked about the unicorn warranty' });
      expect(edited).toMatchObject({ id: noteId, text: 'Asked about the unicorn warranty' });
      expect((await t.parley.chats.search({ query: 'zebracorn' })).notes).toEqual([]);
      expect((await t.parley.chats.search({ query: 'unicorn' })).notes.map((h) => h.note.id)).toEqual([
        noteId,
      ]);
    },
    'notes.delete': async (t) => {
      expect(await t.parley.notes.delete({ id: noteId })).toBeNull();
      expect(await t.parley.notes.list({ chatId: s.f.chatId })).toEqual([]);
      expect((await t.parley.chats.search({ query: 'unicorn' })).notes).toEqual([]);
      await expect(t.parley.notes.delete({ id: noteId })).rejects.toMatchObject({ code: 'not_found' });
    },
    // ── send later, undo send, snooze
    'scheduled.create': async (t) => {
      const at = Date.now() + 3_600_000;
      const held = await t.parley.scheduled.create({ chatId: s.f.chatId, text: 'See you at nine', at });
      expect(held).toMatchObject({
        chatId: s.f.chatId,
        kind: 'scheduled',
        dueAt: at,
        needsConfirmation: false,
      });
      scheduledId = held.id;
      expect(t.core.session.store.outbox.count()).toBe(0);
      await expect(
        t.parley.scheduled.create({ chatId: s.f.chatId, text: 'Too late', at: Date.now() - 1 }),
      ).rejects.toMatchObject({ code: 'invalid_input', field: 'at' });
    },
    'scheduled.list': async (t) => {
      expect((await t.parley.scheduled.list({ chatId: s.f.chatId })).map((s) => s.id)).toEqual([scheduledId]);
    },
    'scheduled.update': async (t) => {
      const at = Date.now() + 7_200_000;
      const moved = await t.parley.scheduled.update({ id: scheduledId, text: 'See you at ten', at });
      expect(moved).toMatchObject({ text: 'See you at ten', dueAt: at });
      expect((await t.parley.scheduled.list({ chatId: s.f.chatId }))[0]?.text).toBe('See you at ten');
    },
    'scheduled.sendNow': async (t) => {
      const { key } = await t.parley.scheduled.sendNow({ id: scheduledId });
      expect(await t.parley.scheduled.list({ chatId: s.f.chatId })).toEqual([]);
      await eventually(() => outbox(t, key) === undefined, 'the message to leave the outbox');
      expect((await t.parley.messages.get({ keys: [key] }))[0]?.text).toBe('See you at ten');
      await expect(t.parley.scheduled.sendNow({ id: scheduledId })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'scheduled.send': async (t) => {
      await t.parley.workbench.updateSettings({ undoSeconds: 10 });
      const { key, waiting } = await t.parley.scheduled.send({
        chatId: s.f.chatId,
        text: 'Oops, wrong chat',
      });
      expect(key).toBeNull();
      expect(waiting).toMatchObject({ kind: 'grace', text: 'Oops, wrong chat' });
      graceId = waiting!.id;
      // V3-only options are refused on this V2 workspace, as messages.send refuses them: nothing waits.
      await expect(
        t.parley.scheduled.send({
          chatId: s.f.chatId,
          text: 'With confetti',
          effect: { type: 'screen', name: 'confetti' },
        }),
      ).rejects.toMatchObject({ code: 'unsupported', field: 'effect' });
      expect((await t.parley.scheduled.list({ chatId: s.f.chatId })).map((s) => s.id)).toEqual([graceId]);
    },
    'scheduled.withdraw': async (t) => {
      const draft = await t.parley.scheduled.withdraw({ id: graceId, toComposer: true });
      expect(draft).toEqual({ text: 'Oops, wrong chat', attachments: [] });
      expect((await t.parley.chats.getDraft({ chatId: s.f.chatId })).text).toBe('Oops, wrong chat');
      expect(await t.parley.scheduled.list({ chatId: s.f.chatId })).toEqual([]);
      await t.parley.chats.saveDraft({ chatId: s.f.chatId, text: '', stagedIds: [] });
      await t.parley.workbench.updateSettings({ undoSeconds: 0 });
      await expect(t.parley.scheduled.withdraw({ id: graceId })).rejects.toMatchObject({ code: 'not_found' });
    },
    'snooze.set': async (t) => {
      const until = Date.now() + 86_400_000;
      expect(await t.parley.snooze.set({ chatId: s.f.chatId, until })).toMatchObject({
        chatId: s.f.chatId,
        until,
        wokeAt: null,
      });
      expect((await t.parley.chats.list({})).map((c) => c.id)).not.toContain(s.f.chatId);
    },
    'snooze.list': async (t) => {
      const { snoozed, woken } = await t.parley.snooze.list();
      expect(snoozed.map((s) => s.chat.id)).toEqual([s.f.chatId]);
      expect(woken).toEqual([]);
    },
    'snooze.clear': async (t) => {
      expect(await t.parley.snooze.clear({ chatId: s.f.chatId })).toBeNull();
      expect((await t.parley.snooze.list()).snoozed).toEqual([]);
      expect((await t.parley.chats.list({})).map((c) => c.id)).toContain(s.f.chatId);
    },
    'workbench.quickReply': async (t) => {
      // Given the customer wrote and the chat is unread
      await control(t.demo, 'POST', '/inbound/message', { chat_id: s.f.chatId, text: 'Ping?' });
      await t.parley.app.syncNow();
      await eventually(
        async () => ((await t.parley.chats.details({ chatId: s.f.chatId }))?.chat.unreadCount ?? 0) > 0,
        'the customer message to arrive',
      );
      // When the agent answers from the notification, the reply goes out once and the chat is read
      const { key } = await t.parley.workbench.quickReply({
        chatId: s.f.chatId,
        text: 'Answered from the toast',
      });
      await eventually(() => outbox(t, key) === undefined, 'the message to leave the outbox');
      expect((await t.parley.messages.get({ keys: [key] }))[0]?.text).toBe('Answered from the toast');
      expect((await t.parley.chats.details({ chatId: s.f.chatId }))?.chat.unreadCount).toBe(0);
      await expect(t.parley.workbench.quickReply({ chatId: 999_999_999, text: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'waiting.list': async (t) => {
      const waiting = await t.parley.waiting.list();
      expect(waiting.length).toBeGreaterThan(0);
      expect(waiting.every((w) => w.chat.lastMessage?.fromMe === false && !w.chat.archived)).toBe(true);
      const since = waiting.map((w) => w.since);
      expect(since).toEqual([...since].sort((a, b) => a - b));
      // Archiving takes a conversation out; unarchiving brings it back.
      const first = waiting[0]!.chat.id;
      await t.parley.chats.setFlags({ chatId: first, archived: true });
      expect((await t.parley.waiting.list()).map((w) => w.chat.id)).not.toContain(first);
      await t.parley.chats.setFlags({ chatId: first, archived: false });
      expect((await t.parley.waiting.list()).map((w) => w.chat.id)).toContain(first);
    },
  } satisfies Partial<Record<MethodName, Call>>;
}
