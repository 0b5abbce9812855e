/**
 * Changes through the relay messaging port: a send with a file reaches the service once with its
 * key (the file through the agent's own bucket); the same change from two desktops of one agent is
 * made once; reactions, edits, read marks and the other calls go through the same path; another
 * agent cannot read or write an agent's files.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentFiles } from '../../../electron/core/relay/files.ts';
import { RelayMessaging } from '../../../electron/core/relay/relay-messaging.ts';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { service, tempDir } from '../core/helpers.ts';
import { startPortRelay, type PortDesktop, type PortRelay } from './port-helpers.ts';
import { desktopPort } from './helpers.ts';

const call = { priority: 'user' as const };
const nothing = { files: [], attachmentUrls: [] };

let org: PortRelay;
let dana: PortDesktop;
let chatId: number;
const dir = tempDir('parley-relay-changes-');

beforeAll(async () => {
  org = await startPortRelay('v2');
  dana = await org.desktop('Dana');
  chatId = org.relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup)
    ?.id as number;
}, 120_000);
afterAll(async () => {
  await org?.stop();
  dir.remove();
});

/** The chat's messages on the service with this text (and their keys). */
async function onService(text: string) {
  const { data } = await service<{
    data: Array<{ id: number; text: string; attachments: Array<{ filename: string }> }>;
  }>(org.sandbox, `/chats/${chatId}/chat_messages?sort=desc&per_page=50`);
  return data.filter((m) => m.text === text);
}

describe('sends', () => {
  it('sends a file through the relay once, with the key the outbox gave it', async () => {
    const path = `${dir.path}/note.txt`;
    writeFileSync(path, 'hello from a file');
    const key = `file-${Date.now()}`;
    const content = {
      text: 'with a file',
      files: [{ path, filename: 'note.txt', mimeType: 'text/plain' }],
      attachmentUrls: [],
      idempotencyKey: key,
    };
    const sent = await dana.port.send(chatId, content, call);
    expect(sent).toMatchObject({ text: 'with a file', idempotencyKey: key });
    expect(sent.attachments?.map((a) => a.filename)).toEqual(['note.txt']);
    const [stored] = await onService('with a file');
    expect(await onService('with a file')).toHaveLength(1);
    expect(stored?.attachments.map((a) => a.filename)).toEqual(['note.txt']);
    // The relay took the file out of Dana's bucket once it was sent.
    const bucket = await openAgentFiles(dana.nc, dana.agentId);
    const left = await bucket.info(`${key}/0`);
    expect(left === null || left.deleted).toBe(true);
  });

  it('makes a change published by two desktops of one agent once, and both hear the same outcome', async () => {
    const joinCode = (await org.relay.agents.add('Dana at home')).joinCode;
    const first = await connectWithJoinCode(joinCode, { reconnect: false });
    const second = await connectWithJoinCode(joinCode, { reconnect: false });
    const stores = [new LocalStore(`${dir.path}/one.db`), new LocalStore(`${dir.path}/two.db`)];
    try {
      const [one, two] = [first, second].map(({ nc, agentId }, i) =>
        desktopPort({ nc, agentId, store: stores[i] as LocalStore, version: 'v2' }),
      ) as [RelayMessaging, RelayMessaging];
      const key = `twice-${Date.now()}`;
      const content = { text: 'from two desktops', ...nothing, idempotencyKey: key };
      const [a, b] = await Promise.all([one.send(chatId, content, call), two.send(chatId, content, call)]);
      expect(a.id).toBe(b.id);
      expect(await onService('from two desktops')).toHaveLength(1);
    } finally {
      await first.nc.close();
      await second.nc.close();
      for (const store of stores) store.close();
    }
  });

  it('says why a send was refused, in the error a direct adapter throws, and sends nothing', async () => {
    const error = await dana.port
      .send(chatId, { text: 'with an effect', ...nothing, effect: { type: 'bubble', name: 'slam' } }, call)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PartnerApiError', code: 'unsupported', retryable: false });
    expect(await onService('with an effect')).toHaveLength(0);
  });
});

describe('the other changes', () => {
  it('reacts, edits, marks read, types and shares the contact card through the relay', async () => {
    const sent = await dana.port.send(chatId, { text: 'to be edited', ...nothing }, call);
    const reaction = await dana.port.react(sent.id, { kind: 'love' }, 'add', call);
    expect(reaction).toMatchObject({ messageId: sent.id, kind: 'love', fromMe: true });
    const edited = await dana.port.edit(chatId, sent.id, 'edited through the relay', call);
    expect(edited).toMatchObject({ id: sent.id, text: 'edited through the relay' });
    await dana.port.markRead(chatId, call);
    await dana.port.typing(chatId, true, call);
    await dana.port.typing(chatId, false, call);
    await dana.port.shareContact(chatId, call);
    expect(await onService('edited through the relay')).toHaveLength(1);
    await dana.port.delete(chatId, sent.id, call);
    expect(await onService('edited through the relay')).toHaveLength(0);
  });

  it('answers the iMessage check and the contacts from the relay', async () => {
    const chat = org.relay.session.store.chats.get(chatId);
    const handle = chat?.handles.find((h) => !h.isMe)?.identifier as string;
    expect(typeof (await dana.port.checkImessage(handle, call))).toBe('boolean');
    const page = await dana.port.contacts.list({ page: 1, perPage: 5 }, call);
    expect(page.totalCount).toBe(org.relay.session.store.contacts.count());
    expect(page.items.map((c) => c.id)).toEqual(
      org.relay.session.store.contacts.list({ limit: 5 }).map((c) => c.id),
    );
  });
});

describe("an agent's files", () => {
  it("are out of another agent's reach", async () => {
    const path = `${dir.path}/private.txt`;
    writeFileSync(path, 'private');
    const key = `private-${Date.now()}`;
    await dana.port.send(
      chatId,
      {
        text: 'private file',
        files: [{ path, filename: 'private.txt', mimeType: 'text/plain' }],
        attachmentUrls: [],
        idempotencyKey: key,
      },
      call,
    );
    const eli = await org.desktop('Eli');
    // Dana's bucket is in Dana's account: from Eli's there is no such bucket to open.
    await expect(openAgentFiles(eli.nc, dana.agentId)).rejects.toThrow(/not found/i);
  });
});
