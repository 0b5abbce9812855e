/**
 * Hand-made requests against a live workspace's listener: forged, tampered, unsigned, replayed,
 * oversized, malformed, misaddressed. Each is refused (or, for a replay, acknowledged and ignored)
 * and nothing reaches the store. "Nothing" is checked after a legitimate sentinel delivery sent
 * behind the attack has been applied: the inbox is first-in first-out, so anything the attack had
 * queued would have been applied before it.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { signV2Delivery } from '../../../webhook-signing.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import { eventually, sandboxFor, tempDir } from '../helpers.ts';
import { type LiveWorkspace, openLiveWorkspace, post, signedDelivery } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let secret: string;
let url: string;
let chat: Chat;
let nextId = 9_100_000;
const dir = tempDir('parley-attacks-');
const vault = new KeyringVault({ service: `ParleyTest-${randomBytes(6).toString('hex')}` });
/** The same workspace folder, keychain and id: what a restarted app opens. */
const reopen = { dataDir: dir.path, vault, workspaceId: randomBytes(9).toString('base64url') };

beforeAll(async () => {
  sandbox = await sandboxFor();
  ws = await openLiveWorkspace(sandbox, reopen);
  // After the first poll no poll runs during these tests: only deliveries change the store.
  await ws.firstPollDone;
  secret = await ws.secret();
  url = ws.realtime.localWebhookUrl as string;
  chat = ws.session.store.chats.list().find((c) => !c.isGroup) as Chat;
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
  await vault.deleteAll('workspace/');
  dir.remove();
});

/** A customer message in `chat`, as message.received data. */
function incoming(id: number, text: string) {
  const customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  return {
    type: 'message.received',
    data: {
      id: String(id),
      chat_id: String(chat.id),
      text,
      sent_at: '2026-11-21 12:00:00 +0000',
      is_read: false,
      from_phone: customer,
      service: chat.service,
      reaction_id: null,
      chat_handles: chat.handles.map((h) => ({ identifier: h.identifier, display_name: '', is_me: h.isMe })),
      attachments: [],
    },
  };
}

/** Delivers a valid event and waits until the store has it: everything queued before it is applied too. */
async function sentinel(): Promise<void> {
  const id = nextId++;
  const { body, headers } = signedDelivery(secret, incoming(id, `sentinel ${id}`));
  expect(await post(url, body, headers)).toBe(200);
  await eventually(() => ws.session.store.messages.byId(id), 'the sentinel applied');
}

const stored = (id: number) => ws.session.store.messages.byId(id);

describe('the listener under attack', () => {
  it('refuses a forged signature, a body changed after signing, and an unsigned body (401); none is applied', async () => {
    const forgedId = nextId++;
    const forged = signedDelivery('whsec_attacker_guess', incoming(forgedId, 'forged'));
    expect(await post(url, forged.body, forged.headers)).toBe(401);

    const tamperedId = nextId++;
    const genuine = signedDelivery(secret, incoming(tamperedId, 'Pay invoice 100'));
    const tampered = genuine.body.replace('Pay invoice 100', 'Pay invoice 999');
    expect(await post(url, tampered, genuine.headers)).toBe(401);

    const unsignedId = nextId++;
    const unsigned = signedDelivery(secret, incoming(unsignedId, 'unsigned'));
    expect(await post(url, unsigned.body, { 'content-type': 'application/json' })).toBe(401);

    await sentinel();
    expect([stored(forgedId), stored(tamperedId), stored(unsignedId)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // A refused request leaves no trace: the genuine delivery with that event id is applied afterwards.
    expect(await post(url, genuine.body, genuine.headers)).toBe(200);
    await eventually(() => stored(tamperedId)?.text === 'Pay invoice 100', 'the genuine delivery');
  });

  it('acknowledges a replayed event (same event_id) without applying it again, also after a restart', async () => {
    const id = nextId++;
    const first = signedDelivery(secret, incoming(id, 'first version'));
    expect(await post(url, first.body, first.headers)).toBe(200);
    await eventually(() => stored(id), 'the first delivery applied');
    // A later event about the same message (new event id) changes it ...
    const later = signedDelivery(secret, incoming(id, 'second version'));
    expect(await post(url, later.body, later.headers)).toBe(200);
    await eventually(() => stored(id)?.text === 'second version', 'the later event applied');

    // ... and a replay of the first must not turn it back.
    expect(await post(url, first.body, first.headers)).toBe(200);
    await sentinel();
    expect(stored(id)?.text).toBe('second version');

    // The ids seen are on disk: a restarted app still recognises the replay.
    await ws.close();
    ws = await openLiveWorkspace(sandbox, reopen);
    await ws.firstPollDone;
    url = ws.realtime.localWebhookUrl as string;
    expect(await post(url, first.body, first.headers)).toBe(200);
    await sentinel();
    expect(stored(id)?.text).toBe('second version');
  });

  it('refuses bodies over 1 MiB with 413, declared or not, and applies nothing', async () => {
    const declared = await new Promise<number>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: { 'content-length': String(2 * 1024 * 1024), 'content-type': 'application/json' },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(declared).toBe(413);

    // Signed, valid JSON, just padded past the limit and sent without a length.
    const id = nextId++;
    const big = incoming(id, 'x'.repeat(1024 * 1024 + 10));
    const { body, headers } = signedDelivery(secret, big);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end(body);
    });
    expect(chunked).toBe(413);
    await sentinel();
    expect(stored(id)).toBeUndefined();
  });

  it('refuses malformed JSON and envelopes that fail validation with 400, even when signed', async () => {
    const id = nextId++;
    const valid = signedDelivery(secret, incoming(id, 'valid shape')).body;
    const bodies = [
      valid.slice(0, -5), // cut short
      JSON.stringify({ ...JSON.parse(valid), api_version: 'v1' }),
      JSON.stringify({ ...JSON.parse(valid), event_id: undefined }),
      JSON.stringify({ ...JSON.parse(valid), data: { ...JSON.parse(valid).data, chat_id: 'not-a-chat' } }),
    ];
    for (const body of bodies) {
      const headers = {
        'content-type': 'application/json',
        'x-webhook-signature': signV2Delivery(secret, body),
      };
      expect(await post(url, body, headers), body.slice(0, 60)).toBe(400);
    }
    await sentinel();
    expect(stored(id)).toBeUndefined();
  });

  it('answers 404 to a wrong path and 405 to a wrong method', async () => {
    const id = nextId++;
    const { body, headers } = signedDelivery(secret, incoming(id, 'misaddressed'));
    const { origin, pathname } = new URL(url);
    const wrongMarker = `${origin}${pathname.replace(/[^/]+$/, 'A'.repeat(43))}`;
    const otherWorkspace = `${origin}/hooks/someone-else/${pathname.split('/').at(-1)}`;
    expect(await post(wrongMarker, body, headers)).toBe(404);
    expect(await post(otherWorkspace, body, headers)).toBe(404);
    expect(await post(`${origin}/`, body, headers)).toBe(404);
    expect(await post(url, body, headers, 'PUT')).toBe(405);
    expect((await fetch(url)).status).toBe(405);
    await sentinel();
    expect(stored(id)).toBeUndefined();
  });
});
