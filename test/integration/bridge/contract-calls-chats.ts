/** contract-calls.ts's chat, message and attachment calls. */
import { expect } from 'vitest';
import type { MethodName } from '../../../shared/contract/methods.ts';
import { eventually } from '../core/helpers.ts';
import { attachmentServer, PNG } from './support.ts';
import { type Call, type CallState, outbox } from './contract-call-kit.ts';

/** Chats, messages and attachments. */
export function chatAndMessageCalls(s: CallState) {
  return {
    // ── chats
    'chats.list': async (t) => {
      const chats = await t.parley.chats.list();
      expect(chats).toHaveLength(60);
      expect(chats.map((chat) => chat.id)).toContain(s.f.chatId);
    },
    'chats.details': async (t) => {
      const details = await t.parley.chats.details({ chatId: s.f.chatId });
      expect(details?.chat.id).toBe(s.f.chatId);
      expect(details?.line?.id).toBe(s.f.lineId);
      expect(await t.parley.chats.details({ chatId: 999_999_999 })).toBeNull();
    },
    'chats.open': async (t) => {
      expect(await t.parley.chats.open({ chatId: s.f.chatId, focused: false })).toBeNull();
    },
    'chats.setFlags': async (t) => {
      await t.parley.chats.setFlags({ chatId: s.f.chatId, pinned: true });
      const [first] = await t.parley.chats.list({ limit: 1 });
      expect(first).toMatchObject({ id: s.f.chatId, pinned: true });
      await expect(t.parley.chats.setFlags({ chatId: 999_999_999, pinned: true })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'chats.search': async (t) => {
      const results = await t.parley.chats.search({ query: s.f.inbound.word });
      expect(results.messages.map((hit) => hit.message.key)).toContain(s.f.inbound.key);
    },
    'chats.saveDraft': async (t) => {
      expect(
        await t.parley.chats.saveDraft({ chatId: s.f.chatId, text: 'Draft kept across restarts' }),
      ).toBeNull();
    },
    'chats.getDraft': async (t) => {
      expect(await t.parley.chats.getDraft({ chatId: s.f.chatId })).toEqual({
        text: 'Draft kept across restarts',
        attachments: [],
      });
    },
    'chats.refresh': async (t) => {
      expect(await t.parley.chats.refresh({ chatId: s.f.chatId })).toBeNull();
    },
    'chats.migrationId': async (t) => {
      const result = await t.parley.chats.migrationId({ chatId: s.f.chatId });
      expect(result.migrated).toBe(true);
      expect(result.v3ChatId).toMatch(/^[0-9a-f-]{36}$/);
    },
    'chats.shareContact': async (t) => {
      expect(await t.parley.chats.shareContact({ chatId: s.f.chatId })).toBeNull();
    },
    'chats.typing': async (t) => {
      expect(await t.parley.chats.typing({ chatId: s.f.chatId, typing: true })).toBeNull();
    },
    'chats.start': async (t) => {
      const started = await t.parley.chats.start({
        lineId: s.f.lineId,
        recipients: ['+1 (415) 555-0188'],
        text: 'Hello from a new conversation',
      });
      expect(started.chatId).toBeLessThan(0); // provisional until the service answers
      const [message] = await t.parley.messages.get({ keys: [started.messageKey] });
      expect(message).toMatchObject({ text: 'Hello from a new conversation', fromMe: true });
      await expect(
        t.parley.chats.start({ lineId: s.f.lineId, recipients: ['not a number'], text: 'x' }),
      ).rejects.toMatchObject({ code: 'invalid_input', field: 'recipients.0' });
    },

    // ── messages
    'messages.page': async (t) => {
      const page = await t.parley.messages.page({ chatId: s.f.chatId, limit: 3 });
      expect(page.messages).toHaveLength(3);
      expect(page.messages.every((m) => m.chatId === s.f.chatId)).toBe(true);
      const times = page.messages.map((m) => m.sentAt);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // `until`: everything from that message to the newest, with `limit` older ones above it
      const all = (await t.parley.messages.page({ chatId: s.f.chatId, limit: 1000 })).messages;
      const target = all[1];
      if (!target) throw new Error('the fixture chat has fewer than two messages');
      const through = await t.parley.messages.page({ chatId: s.f.chatId, until: target.key, limit: 1 });
      expect(through.messages.map((m) => m.key)).toEqual(all.map((m) => m.key));
      expect(through.hasMoreLocal).toBe(false);
      await expect(
        t.parley.messages.page({ chatId: s.f.chatId, until: 'no-such-message', limit: 5 }),
      ).rejects.toMatchObject({ code: 'not_found' });
      await expect(
        t.parley.messages.page({ chatId: s.f.chatId, until: target.key, before: { sentAt: 1, key: 'x' } }),
      ).rejects.toMatchObject({ code: 'invalid_input' });
    },
    'messages.loadOlder': async (t) => {
      const result = await t.parley.messages.loadOlder({ chatId: s.f.chatId });
      expect(result.complete).toBe(true);
      expect(result.added).toBeGreaterThanOrEqual(0);
    },
    'messages.get': async (t) => {
      const [message] = await t.parley.messages.get({ keys: [s.f.inbound.key] });
      expect(message).toMatchObject({ key: s.f.inbound.key, chatId: s.f.chatId, fromMe: false });
    },
    'messages.send': async (t) => {
      const { key } = await t.parley.messages.send({ chatId: s.f.chatId, text: 'Sent through the bridge' });
      // The optimistic message exists as soon as the call returns…
      const [message] = await t.parley.messages.get({ keys: [key] });
      expect(message).toMatchObject({ key, text: 'Sent through the bridge', fromMe: true });
      // …and the outbox delivers it: the message gets the service's id.
      const id = await eventually(
        async () => (await t.parley.messages.get({ keys: [key] }))[0]?.id,
        'the send',
      );
      expect(id).toBeGreaterThan(0);
      // V3-only options on this V2 workspace: refused with a clear code, and nothing is queued.
      const before = (await t.parley.messages.page({ chatId: s.f.chatId, limit: 1000 })).messages.length;
      for (const option of [
        { replyTo: { messageKey: s.f.inbound.key } },
        { effect: { type: 'screen', name: 'confetti' } as const },
        { preferredService: 'SMS' as const },
      ]) {
        await expect(
          t.parley.messages.send({ chatId: s.f.chatId, text: 'With a V3 option', ...option }),
        ).rejects.toMatchObject({ code: 'unsupported', field: Object.keys(option)[0] });
      }
      const after = (await t.parley.messages.page({ chatId: s.f.chatId, limit: 1000 })).messages.length;
      expect(after).toBe(before);
    },
    'messages.thread': async (t) => {
      // A V2 message belongs to no thread: the thread is the message alone.
      const thread = await t.parley.messages.thread({ key: s.f.inbound.key });
      expect(thread.map((m) => m.key)).toEqual([s.f.inbound.key]);
      await expect(t.parley.messages.thread({ key: 'no-such-message' })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'messages.retry': async (t) => {
      const files = await attachmentServer(PNG);
      try {
        const { key } = await t.parley.messages.send({
          chatId: s.f.chatId,
          text: 'Fails until retried',
          attachmentUrls: [files.url('flaky.png')],
        });
        await eventually(() => outbox(t, key)?.state === 'failed', 'the send to fail');
        files.heal();
        expect(await t.parley.messages.retry({ key })).toBeNull();
        const sent = await eventually(
          async () => (await t.parley.messages.get({ keys: [key] }))[0]?.id,
          'the retry',
        );
        expect(sent).toBeGreaterThan(0);
      } finally {
        await files.close();
      }
    },
    'messages.discard': async (t) => {
      const files = await attachmentServer(PNG);
      try {
        const { key } = await t.parley.messages.send({
          chatId: s.f.chatId,
          text: 'Never sent',
          attachmentUrls: [files.url('missing.png')],
        });
        await eventually(() => outbox(t, key)?.state === 'failed', 'the send to fail');
        expect(await t.parley.messages.discard({ key })).toBeNull();
        expect(await t.parley.messages.get({ keys: [key] })).toEqual([]);
        expect(outbox(t, key)).toBeUndefined();
      } finally {
        await files.close();
      }
    },
    'messages.edit': async (t) => {
      const [mine] = s.f.mine;
      expect(await t.parley.messages.edit({ key: mine!.key, text: 'Edited through the bridge' })).toBeNull();
      const [message] = await t.parley.messages.get({ keys: [mine!.key] });
      expect(message?.text).toBe('Edited through the bridge');
      expect(message?.editedAt).not.toBeNull();
      await expect(t.parley.messages.edit({ key: s.f.inbound.key, text: 'not mine' })).rejects.toMatchObject({
        code: 'forbidden',
      });
    },
    'messages.react': async (t) => {
      const [mine] = s.f.mine;
      expect(
        await t.parley.messages.react({ messageId: mine!.id, kind: 'love', operation: 'add' }),
      ).toBeNull();
      // Eventually rather than at once: a poll of this (open) chat that was already in flight can
      // replace the optimistic reaction until the next poll brings the service's (see docs/bridge.md).
      await eventually(async () => {
        const [message] = await t.parley.messages.get({ keys: [mine!.key] });
        return message?.reactions.some((r) => r.kind === 'love' && r.fromMe);
      }, 'the reaction');
      // A custom emoji needs a V3 workspace; one that is not an emoji is bad input.
      await expect(
        t.parley.messages.react({ messageId: mine!.id, kind: 'custom', customEmoji: '🦄', operation: 'add' }),
      ).rejects.toMatchObject({ code: 'unsupported' });
      await expect(
        t.parley.messages.react({
          messageId: mine!.id,
          kind: 'custom',
          customEmoji: 'abc',
          operation: 'add',
        }),
      ).rejects.toMatchObject({ code: 'invalid_input', field: 'customEmoji' });
      const [message] = await t.parley.messages.get({ keys: [mine!.key] });
      expect(message?.reactions.some((r) => r.kind === 'custom')).toBe(false);
    },
    'messages.delete': async (t) => {
      const mine = s.f.mine[1]!;
      expect(await t.parley.messages.delete({ key: mine.key })).toBeNull();
      expect(await t.parley.messages.get({ keys: [mine.key] })).toEqual([]);
    },

    // ── attachments
    'attachments.unstage': async (t) => {
      // Staged as the host stages what the user hands over (the hosts' own tests cover how).
      const stagedId = (await t.core.session.staging.stageBytes(PNG, 'dropped photo.png')).id;
      expect(t.core.session.staging.get(stagedId)).toBeDefined();
      expect(await t.parley.attachments.unstage({ ids: [stagedId] })).toBeNull();
      expect(t.core.session.staging.get(stagedId)).toBeUndefined();
    },
    'attachments.open': async (t) => {
      const opening = t.parley.attachments.open({ attachmentId: s.f.attachment.id });
      if (t.opened) {
        expect(await opening).toBeNull();
        expect(t.opened.files).toHaveLength(1);
        expect(t.opened.files[0]?.endsWith(s.f.attachment.filename)).toBe(true);
      } else {
        // The browser downloads from /attachments/<id> itself; the core has nothing to open.
        await expect(opening).rejects.toMatchObject({ code: 'unsupported' });
      }
    },
  } satisfies Partial<Record<MethodName, Call>>;
}
