import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PartnerApiClient } from '../../../../electron/core/api/client.ts';
import { PartnerApiError } from '../../../../electron/core/api/errors.ts';
import { Outbox } from '../../../../electron/core/outbox/outbox.ts';
import { Staging } from '../../../../electron/core/outbox/staging.ts';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import { Reconciler } from '../../../../electron/core/sync/reconciler.ts';
import { V2Messaging } from '../../../../electron/core/sync/messaging-v2.ts';

const LINE = '+14155550100';

/** A client whose send fails `failures` times with a retryable 503, then succeeds. */
function flakyClient(failures: number) {
  const calls: string[] = [];
  const client = {
    messages: {
      async send(chatId: number, message: { text: string; idempotencyKey?: string }) {
        calls.push(message.idempotencyKey ?? '');
        if (calls.length <= failures) {
          throw new PartnerApiError({
            kind: 'server',
            status: 503,
            code: 'internal_error',
            message: 'down',
            retryable: true,
          });
        }
        return {
          replayed: false,
          message: {
            id: 9000 + calls.length,
            text: message.text,
            sent_at: new Date().toISOString(),
            delivered_at: null,
            delivery_status: 'pending',
            edited_at: null,
            is_read: false,
            sent_from: LINE,
            chat_handle_id: 1,
            attachments: [],
            reactions: [],
            chatId,
          },
        };
      },
    },
  };
  return { client: client as unknown as PartnerApiClient, calls };
}

describe('the outbox scheduler', () => {
  let dir: string;
  let store: LocalStore;
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('retries a transient failure on its own, with the same key, until it is accepted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-outbox-'));
    store = new LocalStore(join(dir, 'db.sqlite'));
    store.lines.replaceAll([
      {
        id: 1,
        phoneNumber: LINE,
        forwardingNumber: null,
        responseRate: null,
        userName: null,
        userEmail: null,
      },
    ]);
    store.chats.upsert([
      {
        id: 5,
        lineId: 1,
        displayName: 'x',
        handles: [{ id: 1, identifier: LINE, service: 'SMS', joinedAt: null, isMe: true }],
      },
    ]);
    const { client, calls } = flakyClient(2);
    const outbox = new Outbox(
      store,
      new V2Messaging(client, store),
      new Reconciler(store),
      new Staging(store, join(dir, 'staged')),
    );
    outbox.start();
    const key = outbox.send({ chatId: 5, text: 'hello' });
    const deadline = Date.now() + 10_000;
    while (store.messages.get(key)?.id === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(store.messages.get(key)?.id).toBe(9003);
    expect(new Set(calls)).toEqual(new Set([key]));
    expect(calls).toHaveLength(3);
    await outbox.stop();
  });
});
