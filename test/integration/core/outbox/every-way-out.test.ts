/**
 * Every way a message leaves passes the outbox's one door (issues #17 and #20): the composer's send,
 * a canned reply sent from the composer, send later's release, undo send's release, the quick-reply
 * window, a notification's inline reply and Send again. Through the contract methods the renderer
 * and the hosts call, on real sessions against the sandbox over HTTP with real SQLite, each refuses
 * an opted-out chat, an empty message and V3-only options on a V2 workspace with the same code and
 * words, and a refused message reaches neither the service nor the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { ParleyApi } from '../../../../shared/contract/client.ts';
import type { BridgeErrorShape } from '../../../../shared/contract/errors.ts';
import type { Chat } from '../../../../shared/domain.ts';
import { control, eventually, sandboxFor, tempDir } from '../helpers.ts';
import { sessionOn, type TimedAttempt } from '../sync/v3-helpers.ts';
import { contractOver, footprint, inlineReplier, refusalOf } from './send-paths.ts';

const OPTED_OUT: BridgeErrorShape = {
  code: 'opted_out',
  message: 'The recipient asked you to stop messaging them',
  retryable: false,
  field: 'chatId',
};
const EMPTY: BridgeErrorShape = {
  code: 'invalid_input',
  message: 'Type a message or add an attachment',
  retryable: false,
  field: 'text',
};
const V3_ONLY: BridgeErrorShape = {
  code: 'unsupported',
  message: 'Replies, effects and a chosen service need a V3 workspace',
  retryable: false,
  field: 'effect',
};
const CONFETTI = { type: 'screen', name: 'confetti' } as const;
const AN_HOUR = 3_600_000;

/** One workspace as the app runs it: a session, the contract over it, the notification reply. */
interface Workspace {
  session: WorkspaceSession;
  attempts: TimedAttempt[];
  parley: ParleyApi;
  inlineReply: ReturnType<typeof inlineReplier>;
  chat: Chat;
  dir: ReturnType<typeof tempDir>;
}

async function openWorkspace(sandbox: RunningSandbox, apiVersion: 'v2' | 'v3'): Promise<Workspace> {
  const dir = tempDir(`parley-way-out-${apiVersion}-`);
  const attempts: TimedAttempt[] = [];
  const session = sessionOn(sandbox, dir.path, apiVersion, attempts);
  await session.start();
  const chat = session.store.chats.list().find((c) => !c.isGroup && c.id > 0);
  if (!chat) throw new Error('the sandbox has no one-to-one chat');
  const { parley, dispatch } = contractOver(session);
  return { session, attempts, parley, inlineReply: inlineReplier(dispatch), chat, dir };
}

/** A message held back as an earlier Parley could have stored it (not through today's door). */
function storedHeld(
  w: Workspace,
  kind: 'scheduled' | 'grace',
  content: { text: string; options?: { effect: typeof CONFETTI } },
): number {
  return w.session.store.scheduled.add({
    chatId: w.chat.id,
    kind,
    text: content.text,
    stagedIds: [],
    attachmentUrls: [],
    options: content.options ?? null,
    dueAt: Date.now() + AN_HOUR,
  }).id;
}

/** A send the service refused for good, queued past the door: the message Send again is offered on. */
async function failedSend(w: Workspace, content: { text: string; options?: { effect: typeof CONFETTI } }) {
  const key = w.session.outbox.send({ chatId: w.chat.id, ...content });
  await eventually(() => w.session.store.outbox.byMessageKey(key)?.state === 'failed', 'the send to fail');
  return key;
}

/** A canned reply sent the way the composer sends one: its text, its files staged, undo send off. */
async function sendCanned(
  w: Workspace,
  id: number,
  change: { text?: string; dropFiles?: boolean; effect?: typeof CONFETTI } = {},
) {
  const reply = (await w.parley.canned.list()).find((r) => r.id === id);
  const staged = await w.parley.canned.stageAttachments({ id });
  if (change.dropFiles) await w.parley.attachments.unstage({ ids: staged.map((s) => s.id) });
  return w.parley.scheduled.send({
    chatId: w.chat.id,
    text: change.text ?? reply?.body ?? '',
    stagedIds: change.dropFiles ? [] : staged.map((s) => s.id),
    ...(change.effect ? { effect: change.effect } : {}),
  });
}

/**
 * Each way out, tried; each must be refused with `expected`, leaving the service, the outbox and
 * the agent's messages as they were, and a held message still held.
 */
async function expectEveryWayRefused(
  w: Workspace,
  expected: BridgeErrorShape,
  ways: Record<string, () => Promise<unknown>>,
  held: number[],
): Promise<void> {
  const before = footprint(w.session, w.attempts, w.chat.id);
  const refusals: Record<string, BridgeErrorShape> = {};
  for (const [way, attempt] of Object.entries(ways)) refusals[way] = await refusalOf(attempt);
  expect(refusals).toEqual(Object.fromEntries(Object.keys(ways).map((way) => [way, expected])));
  expect(footprint(w.session, w.attempts, w.chat.id)).toEqual(before);
  const stillHeld = (await w.parley.scheduled.list({ chatId: w.chat.id })).map((s) => s.id);
  expect(stillHeld).toEqual(expect.arrayContaining(held));
}

/** The inline reply as a way out: it rejects with what the contract refused. */
const inline = (w: Workspace, text: string) => async () => {
  const refusal = await w.inlineReply(w.chat.id, text);
  if (refusal) throw refusal;
};

let sandbox: RunningSandbox;
let v2: Workspace;
let v3: Workspace;

beforeAll(async () => {
  sandbox = await sandboxFor();
  v2 = await openWorkspace(sandbox, 'v2');
  v3 = await openWorkspace(sandbox, 'v3');
});

afterAll(async () => {
  for (const w of [v2, v3]) {
    await w?.session.close();
    w?.dir.remove();
  }
  await sandbox?.stop();
});

describe('every way a message leaves, to a customer who opted out (V3)', () => {
  it('is refused with opted_out in the same words, and nothing reaches the service or the outbox', async () => {
    // Given messages held for later and for undo, and a canned reply, from before the opt-out
    const w = v3;
    const later = await w.parley.scheduled.create({
      chatId: w.chat.id,
      text: 'See you Thursday',
      at: Date.now() + AN_HOUR,
    });
    const timed = await w.parley.scheduled.create({
      chatId: w.chat.id,
      text: 'Reminder: 9am',
      at: Date.now() + AN_HOUR,
    });
    await w.parley.workbench.updateSettings({ undoSeconds: 10 });
    const { waiting: undo } = await w.parley.scheduled.send({ chatId: w.chat.id, text: 'On my way' });
    // (its grace period stretched, so it is still held whenever the opt-out is learnt)
    await w.parley.scheduled.update({ id: undo!.id, at: Date.now() + AN_HOUR });
    await w.parley.workbench.updateSettings({ undoSeconds: 0 });
    const canned = await w.parley.canned.save({ title: 'Directions', body: 'We are at 12 Main St.' });

    // When the customer opts out, a send already queued is refused by the service, and the app learns it
    const v3ChatId = w.session.store.remoteIds.remoteId('chat', w.chat.id) as string;
    await control(sandbox, 'PUT', `/chats/${v3ChatId}/health`, { status: 'OPTED_OUT' });
    const failed = await failedSend(w, { text: 'Are you still there?' });
    w.session.sync.syncNow();
    await eventually(
      () => w.session.store.chats.get(w.chat.id)?.health?.status === 'OPTED_OUT',
      'the opt-out to sync',
    );

    // Then every way out refuses, alike
    await expectEveryWayRefused(
      w,
      OPTED_OUT,
      {
        composer: () => w.parley.messages.send({ chatId: w.chat.id, text: 'One more thing' }),
        'canned reply': () => sendCanned(w, canned.id),
        'send later release': () => w.parley.scheduled.sendNow({ id: later.id }),
        'undo-held release': () => w.parley.scheduled.sendNow({ id: undo!.id }),
        'quick-reply window': () => w.parley.workbench.quickReply({ chatId: w.chat.id, text: 'Yes' }),
        'inline notification reply': inline(w, 'Yes, 10 to 4'),
        'send again': () => w.parley.messages.retry({ key: failed }),
      },
      [later.id, undo!.id],
    );
    expect(w.session.store.outbox.byMessageKey(failed)?.state).toBe('failed');

    // And a message that falls due on its own is not sent: it waits for the agent, refused as above
    const before = footprint(w.session, w.attempts, w.chat.id);
    await w.parley.scheduled.update({ id: timed.id, at: Date.now() + 200 });
    await eventually(
      async () =>
        (await w.parley.scheduled.list({ chatId: w.chat.id })).find((s) => s.id === timed.id)
          ?.needsConfirmation,
      'the due message to wait for the agent',
    );
    expect(footprint(w.session, w.attempts, w.chat.id)).toEqual(before);
    expect(await refusalOf(() => w.parley.scheduled.sendNow({ id: timed.id }))).toEqual(OPTED_OUT);
  });
});

describe('every way a message leaves, with nothing in it (V2)', () => {
  it('is refused with invalid_input in the same words, and nothing reaches the service or the outbox', async () => {
    // Given held messages stored empty, a canned reply that is only a file, and an empty send refused by the service
    const w = v2;
    const later = storedHeld(w, 'scheduled', { text: ' ' });
    const undo = storedHeld(w, 'grace', { text: '' });
    const file = await w.session.staging.stageBytes(new TextEncoder().encode('Price list'), 'prices.txt');
    const canned = await w.parley.canned.save({ title: 'Prices', body: '', stagedIds: [file.id] });
    const failed = await failedSend(w, { text: '  ' });

    // Then every way out refuses, alike
    await expectEveryWayRefused(
      w,
      EMPTY,
      {
        composer: () => w.parley.messages.send({ chatId: w.chat.id, text: '  \n ' }),
        'canned reply (its file taken off)': () => sendCanned(w, canned.id, { dropFiles: true }),
        'send later release': () => w.parley.scheduled.sendNow({ id: later }),
        'undo-held release': () => w.parley.scheduled.sendNow({ id: undo }),
        'quick-reply window': () => w.parley.workbench.quickReply({ chatId: w.chat.id, text: '   ' }),
        'inline notification reply': inline(w, ' '),
        'send again': () => w.parley.messages.retry({ key: failed }),
      },
      [later, undo],
    );
  });
});

describe('every way a message leaves, asking for a V3-only option on a V2 workspace', () => {
  it('is refused with unsupported in the same words, and nothing reaches the service or the outbox', async () => {
    // Given held messages stored with an effect (as while the workspace was on V3), a canned reply,
    // and a send with an effect the V2 service path refused
    const w = v2;
    const options = { effect: CONFETTI };
    const later = storedHeld(w, 'scheduled', { text: 'Happy birthday!', options });
    const undo = storedHeld(w, 'grace', { text: 'Congratulations!', options });
    const canned = await w.parley.canned.save({ title: 'Thanks', body: 'Thank you for your order' });
    const failed = await failedSend(w, { text: 'Welcome aboard', options });

    // Then every way out that can carry options refuses, alike
    await expectEveryWayRefused(
      w,
      V3_ONLY,
      {
        composer: () => w.parley.messages.send({ chatId: w.chat.id, text: 'Hooray', effect: CONFETTI }),
        'canned reply': () => sendCanned(w, canned.id, { effect: CONFETTI }),
        'send later release': () => w.parley.scheduled.sendNow({ id: later }),
        'undo-held release': () => w.parley.scheduled.sendNow({ id: undo }),
        'send again': () => w.parley.messages.retry({ key: failed }),
      },
      [later, undo],
    );
  });

  it('a reply from a notification cannot ask for one at all: the contract has no such field', async () => {
    const before = footprint(v2.session, v2.attempts, v2.chat.id);
    const asked = { chatId: v2.chat.id, text: 'Hooray', effect: CONFETTI } as never;
    expect(await refusalOf(() => v2.parley.workbench.quickReply(asked))).toMatchObject({
      code: 'invalid_input',
      field: 'effect',
    });
    expect(footprint(v2.session, v2.attempts, v2.chat.id)).toEqual(before);
  });
});
