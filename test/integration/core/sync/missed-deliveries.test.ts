/**
 * A customer message the app missed is filled in within seconds of the cause clearing (issue #20),
 * on V2 and V3, with live events against the sandbox over HTTP and the store on a real small disk:
 * a delivery refused while the disk was full, one refused at the listener (a bad signature), and one
 * posted while the app restarted, before its subscription delivered again. The service is told not
 * to retry (V3 never retries a 4xx anyway) and polling is a minute apart, so only the app's own
 * catch-up explains the message arriving; a later message is stored first, timestamped seconds
 * after the missed one, so asking "what is newer than the newest stored" would not find it.
 */
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import { arrangeStore } from '../../store-inspector.ts';
import { control, eventually, sandboxFor } from '../helpers.ts';
import { deliveries, type LiveWorkspace, openLiveWorkspace, webhooksIdle } from '../realtime/helpers.ts';
import { mountSmallDisk, type SmallDisk } from '../small-disk.ts';

interface Inbound {
  data: { id: number };
  v3_message_id: string;
}

describe.each(['v2', 'v3'] as const)('%s: a missed customer message is filled in', (version) => {
  let sandbox: RunningSandbox;
  let disk: SmallDisk;
  let ws: LiveWorkspace;
  let chat: Chat;
  const vault = new KeyringVault({ service: `ParleyTest-${randomBytes(6).toString('hex')}` });
  const workspaceId = randomBytes(9).toString('base64url');
  const escaped: unknown[] = [];
  const escape = (error: unknown) => escaped.push(error);

  const dataDir = () => join(disk.path, version);
  const open = (startRealtime = true) =>
    openLiveWorkspace(sandbox, {
      apiVersion: version,
      dataDir: dataDir(),
      vault,
      workspaceId,
      startRealtime,
    });

  beforeAll(async () => {
    sandbox = await sandboxFor();
    disk = mountSmallDisk(64);
    process.on('uncaughtException', escape);
    process.on('unhandledRejection', escape);
    // A refused delivery is never tried again: only the app can bring its message in.
    await control(sandbox, 'PUT', '/config', { webhook_max_retries: 0 });
    ws = await open();
    await ws.firstPollDone;
    expect(ws.realtime.status.state).toBe('live');
    chat = ws.session.store.chats
      .list()
      .find((c) => !c.isGroup && c.service === 'iMessage' && (version === 'v2' || c.v3ChatId)) as Chat;
    const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
    await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  });
  afterEach(async () => {
    disk.free();
    await control(sandbox, 'DELETE', '/faults');
  });
  afterAll(async () => {
    await ws?.close();
    await vault.deleteAll('workspace/').catch(() => 0);
    process.off('uncaughtException', escape);
    process.off('unhandledRejection', escape);
    await sandbox?.stop();
    disk?.remove();
  });

  const store = () => ws.session.store;

  async function customerSays(text: string): Promise<Inbound> {
    const chatRef = version === 'v3' ? chat.v3ChatId : chat.id;
    return control<Inbound>(sandbox, 'POST', '/inbound/message', { chat_id: chatRef, text });
  }

  /** The message as this workspace stores it (V3 names it by its UUID). */
  function stored(message: Inbound) {
    const id = version === 'v3' ? store().remoteIds.find('message', message.v3_message_id) : message.data.id;
    return id === undefined ? undefined : store().messages.byId(id);
  }

  /** Waits until the service has given up on the delivery of this customer message, refused with `status`. */
  async function refusedWith(status: number, text: string): Promise<void> {
    await webhooksIdle(sandbox);
    const received = await deliveries(sandbox, 'message.received');
    const attempts = received.filter((d) => d.status_code === status);
    expect(attempts.length, `a delivery of "${text}" answered ${status}`).toBeGreaterThan(0);
    expect(received.filter((d) => d.ok)).toEqual([]);
  }

  /** Seconds pass on the service, so the next message is clearly newer than the missed one. */
  const secondsPass = () => control(sandbox, 'POST', '/time', { advance_ms: 5_000 });

  /** The agent answers: stored here once the service has it. */
  async function agentSends(text: string): Promise<void> {
    const key = ws.session.outbox.send({ chatId: chat.id, text });
    await eventually(() => store().messages.get(key)?.id != null, `"${text}" sent`);
  }

  it('given a message refused while the disk was full, it is stored within seconds of space returning, behind the agent’s later send', async () => {
    await control(sandbox, 'DELETE', '/deliveries');
    // An emptied journal must grow to take the next write (pages it has would take it without room).
    arrangeStore(store(), (db) => db.run('PRAGMA wal_checkpoint(TRUNCATE)'));
    disk.fill();
    const missed = await customerSays('sent while the disk was full');
    await refusedWith(500, 'sent while the disk was full');
    expect(stored(missed)).toBeUndefined();

    disk.free();
    await secondsPass();
    await agentSends('answered after space came back');
    const message = await eventually(() => stored(missed), 'the refused message filled in');
    expect(message).toMatchObject({ chatId: chat.id, text: 'sent while the disk was full', fromMe: false });
    expect(escaped).toEqual([]);
  });

  it('given a message refused at the listener (bad signature), it is stored within seconds, behind a later one', async () => {
    await control(sandbox, 'DELETE', '/deliveries');
    // The app cannot read the chat's messages for a while: its catch-up comes after the later message.
    await control(sandbox, 'POST', '/faults', {
      method: 'GET',
      path: '/chat_messages$|/messages$',
      kind: 'error',
      status: 503,
    });
    await control(sandbox, 'POST', '/webhook-faults', {
      kind: 'bad_signature',
      event_type: 'message.received',
      times: 1,
    });
    const missed = await customerSays('refused at the listener');
    await refusedWith(401, 'refused at the listener');
    await secondsPass();
    const later = await customerSays('delivered after it');
    await eventually(() => stored(later), 'the later message delivered');
    expect(stored(missed)).toBeUndefined();

    await control(sandbox, 'DELETE', '/faults');
    const message = await eventually(() => stored(missed), 'the refused message filled in');
    expect(message).toMatchObject({ chatId: chat.id, text: 'refused at the listener', fromMe: false });
    expect(
      store()
        .messages.page(chat.id, { limit: 50 })
        .filter((m) => m.text === 'refused at the listener'),
    ).toHaveLength(1);
  });

  it('given a message posted while the app restarted, before its subscription delivered again, it is stored once live events are back', async () => {
    await ws.close();
    ws = await open(false);
    await ws.firstPollDone;
    // Posted after the start-up poll, while the subscription is still off: never delivered.
    const missed = await customerSays('posted during the restart');
    await secondsPass();
    await agentSends('sent right after the restart');
    expect(stored(missed)).toBeUndefined();

    await ws.realtime.start();
    expect(ws.realtime.status.state).toBe('live');
    const message = await eventually(() => stored(missed), 'the message posted during the restart');
    expect(message).toMatchObject({ chatId: chat.id, text: 'posted during the restart' });
    expect(escaped).toEqual([]);
  });
});
