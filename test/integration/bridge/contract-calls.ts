/**
 * One real call of every bridge method, with what it must do, run in this order through a transport
 * under test: reads first, then changes, then workspace changes (which reopen the session). Each call
 * is checked by its answer and, where it changes something, by reading the change back through the
 * bridge (or from the service). Typed by the contract: a new method needs an entry here.
 */
import { expect } from 'vitest';
import type { AppCore } from '../../../electron/core/app/app-core.ts';
import type { ParleyApi } from '../../../shared/contract/client.ts';
import type { MethodName } from '../../../shared/contract/methods.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { control, eventually } from '../core/helpers.ts';
import { inspectStore, type StoreInspector } from '../store-inspector.ts';
import { attachmentServer, PNG } from './support.ts';
import { VALID_INPUTS } from './malformed.ts';
import { teamMethods } from '../../../shared/contract/team-methods.ts';

export interface BridgeUnderTest {
  host: 'electron' | 'browser';
  /** The renderer's client over the transport under test. */
  parley: ParleyApi;
  /** The core behind it: fixtures are looked up in its store (arrange), never the answers (assert). */
  core: AppCore;
  /** The demo workspace's service. */
  demo: RunningSandbox;
  /** Another service with two organizations, to connect as more workspaces. */
  second: { url: string; tokens: readonly [string, string] };
  /** A folder for files the test creates. */
  dir: string;
  /** What the Electron host did through the OS (links, files opened); null in the browser host. */
  opened: { links: string[]; files: string[] } | null;
}

interface Fixtures {
  chatId: number;
  lineId: number;
  inbound: { key: string; word: string };
  /** Two messages we sent in that chat (one is edited and reacted to, the other deleted). */
  mine: Array<{ key: string; id: number }>;
  attachment: { id: string; filename: string };
  contactWithChats: number;
}

/** Picks, in the store, what the calls act on: an iMessage chat with two of our sent messages, etc. */
function fixtures(core: AppCore): Fixtures {
  return inspectStore(core.session.store, (db) => fixturesIn(db));
}

function fixturesIn(db: StoreInspector): Fixtures {
  const chat = db.get<{ id: number; line_id: number }>(
    `SELECT c.id, c.line_id FROM chats c WHERE c.service = 'iMessage' AND c.is_group = 0
       AND (SELECT COUNT(*) FROM messages m WHERE m.chat_id = c.id AND m.from_me = 1 AND m.id IS NOT NULL) >= 2
       AND EXISTS (SELECT 1 FROM messages m WHERE m.chat_id = c.id AND m.from_me = 0)
     ORDER BY c.id LIMIT 1`,
  );
  if (!chat) throw new Error('the demo has no iMessage chat with two sent messages');
  const mine = db.all<{ key: string; id: number }>(
    'SELECT key, id FROM messages WHERE chat_id = ? AND from_me = 1 AND id IS NOT NULL ORDER BY sent_at LIMIT 2',
    chat.id,
  );
  const inbound = db.get<{ key: string; text: string }>(
    "SELECT key, text FROM messages WHERE chat_id = ? AND from_me = 0 AND text <> '' ORDER BY sent_at LIMIT 1",
    chat.id,
  );
  const word = /[A-Za-z]{5,}/.exec(inbound?.text ?? '')?.[0];
  const attachment = db.get<{ id: string; filename: string }>(
    "SELECT id, filename FROM attachments WHERE url LIKE 'http%' AND mime_type LIKE 'image/%' ORDER BY id LIMIT 1",
  );
  const contact = db.get<{ id: number }>(
    `SELECT c.id FROM contacts c JOIN handles h ON h.identifier = c.phone_number AND h.is_me = 0
     ORDER BY c.id LIMIT 1`,
  );
  if (!inbound || !word || mine.length < 2 || !attachment || !contact)
    throw new Error('the demo data lacks a fixture the bridge calls need');
  return {
    chatId: chat.id,
    lineId: chat.line_id,
    inbound: { key: inbound.key, word },
    mine: mine.map((m) => ({ key: m.key, id: m.id })),
    attachment,
    contactWithChats: contact.id,
  };
}

type Call = (t: BridgeUnderTest) => Promise<void>;

export function contractCalls(): Record<MethodName, Call> {
  let f: Fixtures;
  let demoWorkspaceId = '';
  let secondWorkspaceId = '';
  let thirdWorkspaceId = '';
  let createdContactId = 0;
  let cannedId = 0;
  let exported = '';
  let noteId = 0;
  let scheduledId = 0;
  let graceId = 0;
  const outbox = (t: BridgeUnderTest, key: string) => t.core.session.store.outbox.byMessageKey(key);

  return {
    // ── app (read-only first)
    'app.info': async (t) => {
      f = fixtures(t.core);
      expect(await t.parley.app.info()).toMatchObject({ name: 'Parley', host: t.host, demo: true });
    },
    'app.syncStatus': async (t) => {
      expect(await t.parley.app.syncStatus()).toMatchObject({ phase: 'incremental', chatsKnown: 60 });
    },
    'app.storageStatus': async (t) => {
      // The demo's store writes fine: no problem to show (the full-disk test shows the other case).
      expect(await t.parley.app.storageStatus()).toEqual({ problem: null });
    },
    'app.syncNow': async (t) => {
      expect(await t.parley.app.syncNow()).toBeNull();
    },
    'app.recentCalls': async (t) => {
      // Calls arrive by webhook only, so a polling session's list is exactly what the store holds.
      const calls = await t.parley.app.recentCalls({ limit: 20 });
      expect(calls).toEqual(t.core.session.store.calls.recent(20));
    },
    'app.openExternal': async (t) => {
      expect(await t.parley.app.openExternal({ url: 'https://example.com/help' })).toBeNull();
      await expect(t.parley.app.openExternal({ url: 'file:///etc/passwd' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'url',
      });
      if (t.opened) expect(t.opened.links).toEqual(['https://example.com/help']);
    },

    // ── workspaces (read)
    'workspaces.list': async (t) => {
      const list = await t.parley.workspaces.list();
      expect(list.workspaces).toHaveLength(1);
      expect(list.workspaces[0]).toMatchObject({ kind: 'demo', active: true });
      demoWorkspaceId = list.activeId as string;
    },
    'workspaces.probe': async (t) => {
      const [token] = t.second.tokens;
      const check = await t.parley.workspaces.probe({ baseUrl: t.second.url, token });
      // The sandbox takes the token both ways: V3, the service's current API, is recommended.
      const numbers = await fetch(`${t.second.url}/api/partner/v3/phone_numbers`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json() as Promise<{ phone_numbers: unknown[] }>);
      expect(check).toEqual({
        lines: numbers.phone_numbers.length,
        v2: { works: true },
        v3: { works: true },
        recommended: 'v3',
      });
      await expect(
        t.parley.workspaces.probe({ baseUrl: t.second.url, token: 'not-the-token' }),
      ).rejects.toMatchObject({ code: 'unauthorized' });
      // Checking connects nothing.
      expect((await t.parley.workspaces.list()).workspaces.map((w) => w.kind)).toEqual(['demo']);
    },

    // ── chats
    'chats.list': async (t) => {
      const chats = await t.parley.chats.list();
      expect(chats).toHaveLength(60);
      expect(chats.map((chat) => chat.id)).toContain(f.chatId);
    },
    'chats.details': async (t) => {
      const details = await t.parley.chats.details({ chatId: f.chatId });
      expect(details?.chat.id).toBe(f.chatId);
      expect(details?.line?.id).toBe(f.lineId);
      expect(await t.parley.chats.details({ chatId: 999_999_999 })).toBeNull();
    },
    'chats.open': async (t) => {
      expect(await t.parley.chats.open({ chatId: f.chatId, focused: false })).toBeNull();
    },
    'chats.setFlags': async (t) => {
      await t.parley.chats.setFlags({ chatId: f.chatId, pinned: true });
      const [first] = await t.parley.chats.list({ limit: 1 });
      expect(first).toMatchObject({ id: f.chatId, pinned: true });
      await expect(t.parley.chats.setFlags({ chatId: 999_999_999, pinned: true })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'chats.search': async (t) => {
      const results = await t.parley.chats.search({ query: f.inbound.word });
      expect(results.messages.map((hit) => hit.message.key)).toContain(f.inbound.key);
    },
    'chats.saveDraft': async (t) => {
      expect(
        await t.parley.chats.saveDraft({ chatId: f.chatId, text: 'Draft kept across restarts' }),
      ).toBeNull();
    },
    'chats.getDraft': async (t) => {
      expect(await t.parley.chats.getDraft({ chatId: f.chatId })).toEqual({
        text: 'Draft kept across restarts',
        attachments: [],
      });
    },
    'chats.refresh': async (t) => {
      expect(await t.parley.chats.refresh({ chatId: f.chatId })).toBeNull();
    },
    'chats.migrationId': async (t) => {
      const result = await t.parley.chats.migrationId({ chatId: f.chatId });
      expect(result.migrated).toBe(true);
      expect(result.v3ChatId).toMatch(/^[0-9a-f-]{36}$/);
    },
    'chats.shareContact': async (t) => {
      expect(await t.parley.chats.shareContact({ chatId: f.chatId })).toBeNull();
    },
    'chats.typing': async (t) => {
      expect(await t.parley.chats.typing({ chatId: f.chatId, typing: true })).toBeNull();
    },
    'chats.start': async (t) => {
      const started = await t.parley.chats.start({
        lineId: f.lineId,
        recipients: ['+1 (415) 555-0188'],
        text: 'Hello from a new conversation',
      });
      expect(started.chatId).toBeLessThan(0); // provisional until the service answers
      const [message] = await t.parley.messages.get({ keys: [started.messageKey] });
      expect(message).toMatchObject({ text: 'Hello from a new conversation', fromMe: true });
      await expect(
        t.parley.chats.start({ lineId: f.lineId, recipients: ['not a number'], text: 'x' }),
      ).rejects.toMatchObject({ code: 'invalid_input', field: 'recipients.0' });
    },

    // ── messages
    'messages.page': async (t) => {
      const page = await t.parley.messages.page({ chatId: f.chatId, limit: 3 });
      expect(page.messages).toHaveLength(3);
      expect(page.messages.every((m) => m.chatId === f.chatId)).toBe(true);
      const times = page.messages.map((m) => m.sentAt);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // `until`: everything from that message to the newest, with `limit` older ones above it
      const all = (await t.parley.messages.page({ chatId: f.chatId, limit: 1000 })).messages;
      const target = all[1];
      if (!target) throw new Error('the fixture chat has fewer than two messages');
      const through = await t.parley.messages.page({ chatId: f.chatId, until: target.key, limit: 1 });
      expect(through.messages.map((m) => m.key)).toEqual(all.map((m) => m.key));
      expect(through.hasMoreLocal).toBe(false);
      await expect(
        t.parley.messages.page({ chatId: f.chatId, until: 'no-such-message', limit: 5 }),
      ).rejects.toMatchObject({ code: 'not_found' });
      await expect(
        t.parley.messages.page({ chatId: f.chatId, until: target.key, before: { sentAt: 1, key: 'x' } }),
      ).rejects.toMatchObject({ code: 'invalid_input' });
    },
    'messages.loadOlder': async (t) => {
      const result = await t.parley.messages.loadOlder({ chatId: f.chatId });
      expect(result.complete).toBe(true);
      expect(result.added).toBeGreaterThanOrEqual(0);
    },
    'messages.get': async (t) => {
      const [message] = await t.parley.messages.get({ keys: [f.inbound.key] });
      expect(message).toMatchObject({ key: f.inbound.key, chatId: f.chatId, fromMe: false });
    },
    'messages.send': async (t) => {
      const { key } = await t.parley.messages.send({ chatId: f.chatId, text: 'Sent through the bridge' });
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
      const before = (await t.parley.messages.page({ chatId: f.chatId, limit: 1000 })).messages.length;
      for (const option of [
        { replyTo: { messageKey: f.inbound.key } },
        { effect: { type: 'screen', name: 'confetti' } as const },
        { preferredService: 'SMS' as const },
      ]) {
        await expect(
          t.parley.messages.send({ chatId: f.chatId, text: 'With a V3 option', ...option }),
        ).rejects.toMatchObject({ code: 'unsupported', field: Object.keys(option)[0] });
      }
      const after = (await t.parley.messages.page({ chatId: f.chatId, limit: 1000 })).messages.length;
      expect(after).toBe(before);
    },
    'messages.thread': async (t) => {
      // A V2 message belongs to no thread: the thread is the message alone.
      const thread = await t.parley.messages.thread({ key: f.inbound.key });
      expect(thread.map((m) => m.key)).toEqual([f.inbound.key]);
      await expect(t.parley.messages.thread({ key: 'no-such-message' })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'messages.retry': async (t) => {
      const files = await attachmentServer(PNG);
      try {
        const { key } = await t.parley.messages.send({
          chatId: f.chatId,
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
          chatId: f.chatId,
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
      const [mine] = f.mine;
      expect(await t.parley.messages.edit({ key: mine!.key, text: 'Edited through the bridge' })).toBeNull();
      const [message] = await t.parley.messages.get({ keys: [mine!.key] });
      expect(message?.text).toBe('Edited through the bridge');
      expect(message?.editedAt).not.toBeNull();
      await expect(t.parley.messages.edit({ key: f.inbound.key, text: 'not mine' })).rejects.toMatchObject({
        code: 'forbidden',
      });
    },
    'messages.react': async (t) => {
      const [mine] = f.mine;
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
      const mine = f.mine[1]!;
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
      const opening = t.parley.attachments.open({ attachmentId: f.attachment.id });
      if (t.opened) {
        expect(await opening).toBeNull();
        expect(t.opened.files).toHaveLength(1);
        expect(t.opened.files[0]?.endsWith(f.attachment.filename)).toBe(true);
      } else {
        // The browser downloads from /attachments/<id> itself; the core has nothing to open.
        await expect(opening).rejects.toMatchObject({ code: 'unsupported' });
      }
    },

    // ── contacts
    'contacts.list': async (t) => {
      const { contacts, total } = await t.parley.contacts.list({ limit: 5 });
      expect(contacts).toHaveLength(5);
      expect(total).toBeGreaterThan(5);
    },
    'contacts.create': async (t) => {
      const contact = await t.parley.contacts.create({
        firstName: 'Bridget',
        lastName: 'Bridge',
        phoneNumber: '+14155550177',
      });
      expect(contact).toMatchObject({
        firstName: 'Bridget',
        lastName: 'Bridge',
        phoneNumber: '+14155550177',
      });
      createdContactId = contact.id;
      const found = await t.parley.contacts.list({ query: 'Bridget' });
      expect(found.contacts.map((c) => c.id)).toContain(contact.id);
    },
    'contacts.update': async (t) => {
      // The service wants one identifying field in every update, even when it does not change.
      const contact = await t.parley.contacts.update({
        id: createdContactId,
        fields: { firstName: 'Bridget', company: 'Bridge & Co' },
      });
      expect(contact).toMatchObject({ id: createdContactId, company: 'Bridge & Co' });
    },
    'contacts.chats': async (t) => {
      const chats = await t.parley.contacts.chats({ id: f.contactWithChats });
      expect(chats.length).toBeGreaterThan(0);
    },
    'contacts.delete': async (t) => {
      expect(await t.parley.contacts.delete({ id: createdContactId })).toBeNull();
      const found = await t.parley.contacts.list({ query: 'Bridget' });
      expect(found.contacts.map((c) => c.id)).not.toContain(createdContactId);
    },

    // ── lines
    'lines.list': async (t) => {
      const lines = await t.parley.lines.list();
      expect(lines).toHaveLength(3);
      expect(lines.map((line) => line.id)).toContain(f.lineId);
    },
    'lines.setForwarding': async (t) => {
      const line = await t.parley.lines.setForwarding({
        lineId: f.lineId,
        forwardingNumber: '(408) 555-0123',
      });
      expect(line).toMatchObject({ id: f.lineId, forwardingNumber: '+14085550123' });
    },
    'lines.checkImessage': async (t) => {
      const result = await t.parley.lines.checkImessage({ handle: '+1 415 555 0123' });
      expect(result.handle).toBe('+14155550123');
      expect([true, false, null]).toContain(result.available);
    },

    // ── webhooks
    'webhooks.status': async (t) => {
      expect(await t.parley.webhooks.status()).toMatchObject({
        provider: 'direct',
        sync: { phase: 'incremental' },
      });
      // The demo's service posts its webhooks straight to this machine: live once the subscription points here.
      const live = await eventually(async () => {
        const status = await t.parley.webhooks.status();
        return status.state === 'live' ? status : undefined;
      }, 'live events');
      expect(live.subscription?.active).toBe(true);
      expect(live.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    },
    'webhooks.configure': async (t) => {
      await expect(t.parley.webhooks.configure({ enabled: true, provider: 'custom' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'customPublicUrl',
      });
      // The change is announced with the whole status: the renderer applies it without asking again.
      const announced: Array<{ state: string; provider: string; reason: string | null }> = [];
      const off = t.parley.on('live.status', (live) => announced.push(live));
      try {
        const status = await t.parley.webhooks.configure({ enabled: false, provider: 'cloudflare' });
        expect(status.provider).toBe('cloudflare');
        await eventually(
          () => announced.some((s) => s.state === 'polling' && s.provider === 'cloudflare'),
          'the live.status event',
        );
        expect(announced.at(-1)).toMatchObject({ state: 'polling', reason: expect.stringMatching(/off/) });
      } finally {
        off();
      }
    },

    // ── settings
    'settings.get': async (t) => {
      const settings = await t.parley.settings.get();
      expect(settings).toEqual(t.core.publicSettings());
      expect(settings.theme).toBe('system');
    },
    'settings.update': async (t) => {
      const updated = await t.parley.settings.update({ theme: 'dark', notifications: { sound: false } });
      expect(updated).toMatchObject({ theme: 'dark', notifications: { enabled: true, sound: false } });
      expect(await t.parley.settings.get()).toEqual(updated);
    },

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
        mutedLineIds: [f.lineId],
      });
      expect(updated).toEqual({
        agentName: 'Sam Rivera',
        overdueMinutes: 10,
        undoSeconds: 0,
        quietHours: { start: '22:00', end: '07:00' },
        mutedLineIds: [f.lineId],
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
      const note = await t.parley.notes.add({ chatId: f.chatId, text: 'Asked about the zebracorn warranty' });
      expect(note).toMatchObject({
        chatId: f.chatId,
        contactId: null,
        text: 'Asked about the zebracorn warranty',
      });
      noteId = note.id;
      const onContact = await t.parley.notes.add({ contactId: f.contactWithChats, text: 'VIP since 2021' });
      expect(onContact).toMatchObject({ contactId: f.contactWithChats, chatId: null });
      // The app's search finds notes, with the chat to open them in (a contact's: their latest).
      const found = await t.parley.chats.search({ query: 'zebracorn' });
      expect(found.notes.map((hit) => [hit.note.id, hit.chat?.id])).toEqual([[note.id, f.chatId]]);
      const [latest] = await t.parley.contacts.chats({ id: f.contactWithChats });
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
      expect((await t.parley.notes.list({ chatId: f.chatId })).map((n) => n.id)).toEqual([noteId]);
      expect((await t.parley.notes.list({ contactId: f.contactWithChats })).map((n) => n.text)).toEqual([
        'VIP since 2021',
      ]);
    },
    'workbench.chatContext': async (t) => {
      const context = await t.parley.workbench.chatContext({ chatId: f.chatId });
      expect(context.line?.id).toBe(f.lineId);
      expect(context.notes.map((n) => n.id)).toEqual([noteId]);
      const contactChat = (await t.parley.contacts.chats({ id: f.contactWithChats })).find(
        (c) => !c.isGroup,
      )!;
      const ofContact = await t.parley.workbench.chatContext({ chatId: contactChat.id });
      expect(ofContact.contact?.id).toBe(f.contactWithChats);
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
      expect(await t.parley.notes.list({ chatId: f.chatId })).toEqual([]);
      expect((await t.parley.chats.search({ query: 'unicorn' })).notes).toEqual([]);
      await expect(t.parley.notes.delete({ id: noteId })).rejects.toMatchObject({ code: 'not_found' });
    },
    // ── send later, undo send, snooze
    'scheduled.create': async (t) => {
      const at = Date.now() + 3_600_000;
      const held = await t.parley.scheduled.create({ chatId: f.chatId, text: 'See you at nine', at });
      expect(held).toMatchObject({
        chatId: f.chatId,
        kind: 'scheduled',
        dueAt: at,
        needsConfirmation: false,
      });
      scheduledId = held.id;
      expect(t.core.session.store.outbox.count()).toBe(0);
      await expect(
        t.parley.scheduled.create({ chatId: f.chatId, text: 'Too late', at: Date.now() - 1 }),
      ).rejects.toMatchObject({ code: 'invalid_input', field: 'at' });
    },
    'scheduled.list': async (t) => {
      expect((await t.parley.scheduled.list({ chatId: f.chatId })).map((s) => s.id)).toEqual([scheduledId]);
    },
    'scheduled.update': async (t) => {
      const at = Date.now() + 7_200_000;
      const moved = await t.parley.scheduled.update({ id: scheduledId, text: 'See you at ten', at });
      expect(moved).toMatchObject({ text: 'See you at ten', dueAt: at });
      expect((await t.parley.scheduled.list({ chatId: f.chatId }))[0]?.text).toBe('See you at ten');
    },
    'scheduled.sendNow': async (t) => {
      const { key } = await t.parley.scheduled.sendNow({ id: scheduledId });
      expect(await t.parley.scheduled.list({ chatId: f.chatId })).toEqual([]);
      await eventually(() => outbox(t, key) === undefined, 'the message to leave the outbox');
      expect((await t.parley.messages.get({ keys: [key] }))[0]?.text).toBe('See you at ten');
      await expect(t.parley.scheduled.sendNow({ id: scheduledId })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'scheduled.send': async (t) => {
      await t.parley.workbench.updateSettings({ undoSeconds: 10 });
      const { key, held } = await t.parley.scheduled.send({ chatId: f.chatId, text: 'Oops, wrong chat' });
      expect(key).toBeNull();
      expect(held).toMatchObject({ kind: 'grace', text: 'Oops, wrong chat' });
      graceId = held!.id;
      // V3-only options are refused on this V2 workspace, as messages.send refuses them: nothing held.
      await expect(
        t.parley.scheduled.send({
          chatId: f.chatId,
          text: 'With confetti',
          effect: { type: 'screen', name: 'confetti' },
        }),
      ).rejects.toMatchObject({ code: 'unsupported', field: 'effect' });
      expect((await t.parley.scheduled.list({ chatId: f.chatId })).map((s) => s.id)).toEqual([graceId]);
    },
    'scheduled.withdraw': async (t) => {
      const draft = await t.parley.scheduled.withdraw({ id: graceId, toComposer: true });
      expect(draft).toEqual({ text: 'Oops, wrong chat', attachments: [] });
      expect((await t.parley.chats.getDraft({ chatId: f.chatId })).text).toBe('Oops, wrong chat');
      expect(await t.parley.scheduled.list({ chatId: f.chatId })).toEqual([]);
      await t.parley.chats.saveDraft({ chatId: f.chatId, text: '', stagedIds: [] });
      await t.parley.workbench.updateSettings({ undoSeconds: 0 });
      await expect(t.parley.scheduled.withdraw({ id: graceId })).rejects.toMatchObject({ code: 'not_found' });
    },
    'snooze.set': async (t) => {
      const until = Date.now() + 86_400_000;
      expect(await t.parley.snooze.set({ chatId: f.chatId, until })).toMatchObject({
        chatId: f.chatId,
        until,
        wokeAt: null,
      });
      expect((await t.parley.chats.list({})).map((c) => c.id)).not.toContain(f.chatId);
    },
    'snooze.list': async (t) => {
      const { snoozed, woken } = await t.parley.snooze.list();
      expect(snoozed.map((s) => s.chat.id)).toEqual([f.chatId]);
      expect(woken).toEqual([]);
    },
    'snooze.clear': async (t) => {
      expect(await t.parley.snooze.clear({ chatId: f.chatId })).toBeNull();
      expect((await t.parley.snooze.list()).snoozed).toEqual([]);
      expect((await t.parley.chats.list({})).map((c) => c.id)).toContain(f.chatId);
    },
    'workbench.quickReply': async (t) => {
      // Given the customer wrote and the chat is unread
      await control(t.demo, 'POST', '/inbound/message', { chat_id: f.chatId, text: 'Ping?' });
      await t.parley.app.syncNow();
      await eventually(
        async () => ((await t.parley.chats.details({ chatId: f.chatId }))?.chat.unreadCount ?? 0) > 0,
        'the customer message to arrive',
      );
      // When the agent answers from the notification, the reply goes out once and the chat is read
      const { key } = await t.parley.workbench.quickReply({
        chatId: f.chatId,
        text: 'Answered from the toast',
      });
      await eventually(() => outbox(t, key) === undefined, 'the message to leave the outbox');
      expect((await t.parley.messages.get({ keys: [key] }))[0]?.text).toBe('Answered from the toast');
      expect((await t.parley.chats.details({ chatId: f.chatId }))?.chat.unreadCount).toBe(0);
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

    // ── workspaces (last: connecting a service retires the demo and reopens the session)
    'workspaces.add': async (t) => {
      const [tokenA, tokenB] = t.second.tokens;
      const added = await t.parley.workspaces.add({
        name: 'Second office',
        baseUrl: t.second.url,
        token: tokenA,
      });
      // The sandbox takes the token on both versions: V3 is preferred.
      expect(added).toMatchObject({ name: 'Second office', kind: 'remote', active: true, apiVersion: 'v3' });
      expect((await t.parley.app.info()).apiVersion).toBe('v3');
      secondWorkspaceId = added.id;
      // The demo exists only while no real workspace does.
      expect((await t.parley.workspaces.list()).workspaces.map((w) => w.kind)).toEqual(['remote']);
      await expect(
        t.parley.workspaces.add({ name: 'Wrong token', baseUrl: t.second.url, token: 'not-the-token' }),
      ).rejects.toMatchObject({ code: 'unauthorized' });
      const third = await t.parley.workspaces.add({
        name: 'Third office',
        baseUrl: t.second.url,
        token: tokenB,
        apiVersion: 'v2',
      });
      expect(third).toMatchObject({ active: true, apiVersion: 'v2' });
      thirdWorkspaceId = third.id;
    },
    'workspaces.rename': async (t) => {
      const renamed = await t.parley.workspaces.rename({ id: secondWorkspaceId, name: 'Branch office' });
      expect(renamed).toMatchObject({ id: secondWorkspaceId, name: 'Branch office' });
    },
    'workspaces.updateToken': async (t) => {
      const updated = await t.parley.workspaces.updateToken({
        id: secondWorkspaceId,
        token: t.second.tokens[0],
      });
      expect(updated.id).toBe(secondWorkspaceId);
      await expect(
        t.parley.workspaces.updateToken({ id: secondWorkspaceId, token: 'not-the-token' }),
      ).rejects.toMatchObject({ code: 'unauthorized' });
    },
    'workspaces.setApiVersion': async (t) => {
      const moved = await t.parley.workspaces.setApiVersion({ id: thirdWorkspaceId, apiVersion: 'v3' });
      expect(moved).toMatchObject({ id: thirdWorkspaceId, apiVersion: 'v3' });
      // The active workspace's session reopens on V3 and syncs its chats there.
      await eventually(async () => (await t.parley.app.info()).apiVersion === 'v3', 'app on V3');
      await eventually(async () => {
        const status = await t.parley.app.syncStatus();
        return status.phase === 'incremental' && status.error === null && status.lastSyncedAt !== null;
      }, 'a first sync under V3');
      const back = await t.parley.workspaces.setApiVersion({ id: thirdWorkspaceId, apiVersion: 'v2' });
      expect(back.apiVersion).toBe('v2');
      await expect(
        t.parley.workspaces.setApiVersion({ id: 'no-such-workspace', apiVersion: 'v3' }),
      ).rejects.toMatchObject({ code: 'not_found' });
    },
    'workspaces.switch': async (t) => {
      const list = await t.parley.workspaces.switch({ id: secondWorkspaceId });
      expect(list.activeId).toBe(secondWorkspaceId);
      await expect(t.parley.workspaces.switch({ id: demoWorkspaceId })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'workspaces.join': async (t) => {
      // Joining a relay for real: test/integration/relay/join.test.ts. Here: a code that is not one.
      await expect(t.parley.workspaces.join({ joinCode: 'not-a-join-code' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'joinCode',
        message: 'This is not a Parley join code',
      });
    },
    'workspaces.remove': async (t) => {
      const list = await t.parley.workspaces.remove({ id: thirdWorkspaceId });
      expect(list.workspaces.map((w) => w.id)).toEqual([secondWorkspaceId]);
    },

    // ── the team inbox: on a workspace joined to a relay in test/integration/team/desktops.test.ts;
    // here, on one that is not, each method is refused in words.
    ...teamCallsWhenNotJoined(),
  };
}

type TeamMethod = keyof typeof teamMethods;

function teamCallsWhenNotJoined(): Record<TeamMethod, Call> {
  const refused =
    (method: TeamMethod): Call =>
    async (t) => {
      const action = method.slice('team.'.length) as keyof ParleyApi['team'];
      const call = t.parley.team[action] as (input: unknown) => Promise<unknown>;
      await expect(call(VALID_INPUTS[method])).rejects.toMatchObject({
        code: 'not_available',
        message: expect.stringMatching(/joined to your team's relay/),
      });
    };
  return Object.fromEntries(
    (Object.keys(teamMethods) as TeamMethod[]).map((method) => [method, refused(method)]),
  ) as Record<TeamMethod, Call>;
}
