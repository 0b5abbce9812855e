/**
 * The relay messaging port conforms to the direct adapter of the same organization (V2 and V3): the
 * same calls give the same records — through an agent's credentials and the relay's store on one
 * side, straight to the service on the other — with the relay's local ids, and on V3 the same UUIDs
 * bound to them in the desktop's store. A send goes to the service once with its key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListedChat } from '../../../electron/core/sync/messaging.ts';
import type { MessagingService } from '../../../electron/core/sync/messaging.ts';
import { eventually } from '../core/helpers.ts';
import { take, startPortRelay, type PortDesktop, type PortRelay } from './port-helpers.ts';

const call = { priority: 'user' as const };
/**
 * A listed chat's revision is each port's own marker of change (service count or time; relay write
 * time); its preview only the relay's listing gives (checked on its own below).
 */
const withoutRevision = ({ revision: _revision, preview: _preview, ...chat }: ListedChat) => chat;

describe.each(['v2', 'v3'] as const)('the relay messaging port on %s', (version) => {
  let org: PortRelay;
  let desktop: PortDesktop;
  let direct: MessagingService;
  let line: { id: number; phoneNumber: string };
  let chatId: number;

  beforeAll(async () => {
    org = await startPortRelay(version);
    desktop = await org.desktop('Dana');
    direct = org.relay.session.messaging;
    const lines = await direct.lines(call);
    line = lines[0] as { id: number; phoneNumber: string };
    // A chat with more history than a page, so paging is exercised.
    const chats = org.relay.session.store.chats.list({ lineId: line.id });
    chatId = (chats.find((c) => (c.messageCount ?? 0) > 12) ?? chats[0])?.id as number;
  }, 120_000);
  afterAll(async () => {
    await org?.stop();
  });

  it('lists the same lines', async () => {
    expect(await desktop.port.lines(call)).toEqual(await direct.lines(call));
  });

  it("lists the same chats of a line, page by page, each with the relay's revision", async () => {
    const viaRelay = (await take(desktop.port.chatPages(line, call))).flat();
    const directly = (await take(direct.chatPages(line, call))).flat();
    expect(viaRelay.map(withoutRevision).sort(byId)).toEqual(directly.map(withoutRevision).sort(byId));
    expect(viaRelay.every((c) => typeof c.revision === 'number')).toBe(true);
  });

  it("lists each chat with its newest message as its preview: the service's newest message of the chat", async () => {
    // Given the relay's listing of the line's first page
    const [page] = await take(desktop.port.chatPages(line, call), 1);
    const listed = (page ?? []).slice(0, 5);
    expect(listed.length).toBeGreaterThan(0);
    // Then each preview is the message the service lists first for that chat, as a record
    for (const chat of listed) {
      const newest = await direct.newestMessages(chat.id, 1, call);
      expect(chat.preview).toEqual(newest.messages[0]);
    }
  });

  it('gives the same chat', async () => {
    const viaRelay = await desktop.port.chat(chatId, call);
    const directly = await direct.chat(chatId, call);
    expect(viaRelay && withoutRevision(viaRelay)).toEqual(directly && withoutRevision(directly));
  });

  it('gives the same newest messages, pages, older messages and single message', async () => {
    expect(await desktop.port.newestMessages(chatId, 5, call)).toEqual(
      await direct.newestMessages(chatId, 5, call),
    );
    const viaRelay = await take(desktop.port.messagePages(chatId, 4, call), 3);
    const directly = await take(direct.messagePages(chatId, 4, call), 3);
    expect(viaRelay).toEqual(directly);
    const fifth = viaRelay.flatMap((p) => p.messages)[4];
    if (!fifth) throw new Error('the chat has fewer than 5 messages');
    expect(await desktop.port.olderMessages(chatId, fifth.sentAt, 3, call)).toEqual(
      await direct.olderMessages(chatId, fifth.sentAt, 3, call),
    );
    expect(await desktop.port.message(chatId, fifth.id, call)).toEqual(
      await direct.message(chatId, fifth.id, call),
    );
  });

  it('gives the newest messages of many chats asked at once as the direct adapter gives each, and a chat it does not have as not found', async () => {
    const chats = org.relay.session.store.chats.list({ lineId: line.id, limit: 8 }).map((c) => c.id);
    // Asked in one turn, as a first sync's workers ask: one read answers them all (newest-pages.ts).
    const viaRelay = await Promise.allSettled([
      ...chats.map((id) => desktop.port.newestMessages(id, 3, call)),
      desktop.port.newestMessages(987_654, 3, call),
    ]);
    const directly = await Promise.all(chats.map((id) => direct.newestMessages(id, 3, call)));
    expect(viaRelay.slice(0, -1)).toEqual(directly.map((page) => ({ status: 'fulfilled', value: page })));
    expect(viaRelay.at(-1)).toMatchObject({ status: 'rejected', reason: { kind: 'not_found', status: 404 } });
  });

  it('pages back to the first message of the chat, the last page complete', async () => {
    const viaRelay = await take(desktop.port.messagePages(chatId, 50, call));
    const directly = await take(direct.messagePages(chatId, 50, call));
    expect(viaRelay.flatMap((p) => p.messages)).toEqual(directly.flatMap((p) => p.messages));
    expect(viaRelay.at(-1)?.complete).toBe(true);
  });

  it("binds the V3 ids of what it read to the relay's local ids (V2 ids are the service's own)", async () => {
    const relayIds = org.relay.session.store.remoteIds;
    const [message] = (await desktop.port.newestMessages(chatId, 1, call)).messages;
    if (!message) throw new Error('the chat has no message');
    if (version === 'v2') {
      // Nothing to bind: the ids the relay gives are the service's.
      expect(relayIds.remoteId('message', message.id)).toBeUndefined();
      expect(desktop.store.remoteIds.remoteId('message', message.id)).toBeUndefined();
      expect(desktop.store.remoteIds.remoteId('chat', chatId)).toBeUndefined();
      return;
    }
    const v3MessageId = relayIds.remoteId('message', message.id) as string;
    expect(v3MessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(desktop.store.remoteIds.find('message', v3MessageId)).toBe(message.id);
    const v3ChatId = relayIds.remoteId('chat', chatId) as string;
    expect(desktop.store.remoteIds.find('chat', v3ChatId)).toBe(chatId);
  });

  it("sends through the relay once with the outbox's key, and returns the service's message", async () => {
    const key = `relay-port-${version}-${Date.now()}`;
    const sent = await desktop.port.send(
      chatId,
      { text: 'through the relay', files: [], attachmentUrls: [], idempotencyKey: key },
      call,
    );
    expect(sent).toMatchObject({ chatId, text: 'through the relay', fromMe: true, idempotencyKey: key });
    // The outbox retrying the same send (or another desktop publishing it) gets the same message.
    const again = await desktop.port.send(
      chatId,
      { text: 'through the relay', files: [], attachmentUrls: [], idempotencyKey: key },
      call,
    );
    expect(again.id).toBe(sent.id);
    const newest = await direct.newestMessages(chatId, 10, call);
    expect(newest.messages.filter((m) => m.text === 'through the relay')).toHaveLength(1);
  });
});

describe.each(['v2', 'v3'] as const)('a chat’s newest page through the relay on %s', (version) => {
  let org: PortRelay;
  let desktop: PortDesktop;

  beforeAll(async () => {
    org = await startPortRelay(version);
    desktop = await org.desktop('Dana');
  }, 120_000);
  afterAll(async () => {
    await org?.stop();
  });

  it('is given anew once the relay has stored something new in the chat', async () => {
    const [chat] = org.relay.session.store.chats.list({ limit: 1 });
    if (!chat) throw new Error('the relay has no chat');
    const text = `newest after a send on ${version}`;
    // Read (and kept by the relay for every desktop that asks) before the chat changes.
    const before = await desktop.port.newestMessages(chat.id, 10, call);
    expect(before.messages.map((m) => m.text)).not.toContain(text);
    const key = `relay-port-newest-${version}-${Date.now()}`;
    await desktop.port.send(chat.id, { text, files: [], attachmentUrls: [], idempotencyKey: key }, call);
    const after = await eventually(async () => {
      const page = await desktop.port.newestMessages(chat.id, 10, call);
      return page.messages.some((m) => m.text === text) ? page : undefined;
    }, 'the sent message in the newest page through the relay');
    expect(after.messages.filter((m) => m.text === text)).toHaveLength(1);
  });
});

function byId(a: { id: number }, b: { id: number }): number {
  return a.id - b.id;
}
