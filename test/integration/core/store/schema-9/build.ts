/**
 * Builds the two workspaces `schema-migration.test.ts` carries forward: a V2 and a V3 workspace at
 * schema 9 (V3 facts in the `v3_facts` and `v3_ids` side tables), each filled by a real first sync
 * against the sandbox and then the things only an agent's use leaves behind (a threaded reply with an
 * effect, a custom emoji reaction, a chat's health, a line's reputation, a failed send, a send still
 * queued with its reply target). Beside each database: what the store read from it at schema 9 (lines,
 * chats, every timeline), which the test expects the migrated store to read the same.
 *
 * Run on the code of schema 9 (the commit before migration 10):
 *   node test/integration/core/store/schema-9/build.ts
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalStore } from '../../../../../electron/core/store/local-store.ts';
import type { ApiVersion, Chat, Message } from '../../../../../shared/domain.ts';
import { control, eventually, sandboxFor, tempDir } from '../../helpers.ts';
import { sessionOn } from '../../sync/v3-helpers.ts';

const here = import.meta.dirname;

async function build(apiVersion: ApiVersion): Promise<void> {
  const sandbox = await sandboxFor();
  const dir = tempDir();
  const session = sessionOn(sandbox, dir.path, apiVersion);
  await session.start();
  const chats = session.store.chats.list().filter((c) => c.service === 'iMessage' && !c.isGroup);
  const [first, second, third] = chats as [Chat, Chat, Chat];
  const customerOf = (chat: Chat): string => chat.handles.find((h) => !h.isMe)?.identifier as string;
  const inbound = async (chat: Chat, text: string): Promise<Message> => {
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: apiVersion === 'v3' ? session.store.v3Ids.v3Id('chat', chat.id) : chat.id,
      from: customerOf(chat),
      text,
    });
    session.sync.setOpenChat(chat.id, true);
    return eventually(
      () => session.store.messages.page(chat.id, { limit: 50 }).find((m) => m.text === text && m.id !== null),
      `"${text}" stored`,
    );
  };
  const question = await inbound(first, 'Do you have the blue one in a medium?');
  const options =
    apiVersion === 'v3'
      ? {
          replyTo: { messageId: question.v3Id as string, partIndex: 0 },
          effect: { type: 'screen' as const, name: 'confetti' },
        }
      : undefined;
  const answer = session.outbox.send({
    chatId: first.id,
    text: 'We do, one is set aside',
    ...(options ? { options } : {}),
  });
  await eventually(() => session.store.messages.get(answer)?.id, 'the answer accepted');
  session.outbox.react(
    question.id as number,
    apiVersion === 'v3' ? { kind: 'custom', customEmoji: '🦄' } : { kind: 'love' },
    'add',
  );
  await eventually(() => session.outbox.idle, 'the reaction sent');
  if (apiVersion === 'v3') {
    const v3ChatId = session.store.v3Ids.v3Id('chat', second.id);
    const line = session.store.lines.get(second.lineId);
    const { id: lineOnService } = await control<{ id: number }>(sandbox, 'GET', `/v3-ids/${line?.v3Id}`);
    await control(sandbox, 'PUT', `/chats/${v3ChatId}/health`, { status: 'AT_RISK' });
    await control(sandbox, 'PUT', `/lines/${lineOnService}/reputation`, { reputation: 'AT_RISK' });
    await session.sync.refreshChat(second.id);
    await eventually(
      () => session.store.lines.get(second.lineId)?.reputation?.status === 'AT_RISK',
      'reputation',
    );
    await control(sandbox, 'POST', '/send-failures', { code: 4001, times: 1 });
    const failing = session.outbox.send({ chatId: second.id, text: 'This one will not arrive' });
    await eventually(
      () => session.store.messages.get(failing)?.state === 'failed',
      'the failed send',
      30_000,
    );
    // A failure the service reported before the message it names was stored.
    session.store.transaction(() =>
      session.store.v3Facts.setFailure(2 ** 41, { code: 3007, reason: 'Recipient unreachable' }),
    );
  }
  await eventually(() => session.outbox.idle, 'outbox idle');
  // Still queued when the app closed: its reply target lives only in its send job at schema 9.
  const queuedQuestion = await inbound(third, 'Can I pick it up today?');
  const queuedOptions =
    apiVersion === 'v3' ? { replyTo: { messageId: queuedQuestion.v3Id as string, partIndex: 0 } } : undefined;
  session.outbox.send({
    chatId: third.id,
    text: 'Yes, until six',
    ...(queuedOptions ? { options: queuedOptions } : {}),
  });
  await session.close();
  await sandbox.stop();

  const file = join(here, `${apiVersion}.db`);
  copyFileSync(join(dir.path, 'workspace.db'), file);
  dir.remove();
  const store = new LocalStore(file, { apiVersion });
  const read = {
    schemaVersion: store.schemaVersion,
    lines: store.lines.list(),
    chats: store.chats.list(),
    timelines: Object.fromEntries(
      store.chats.list().map((chat) => [chat.id, store.messages.page(chat.id, { limit: 10_000 })]),
    ),
  };
  store.close();
  writeFileSync(join(here, `${apiVersion}.json`), `${JSON.stringify(read)}\n`);
}

await build('v2');
await build('v3');
