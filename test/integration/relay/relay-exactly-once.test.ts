/**
 * Every change a joined desktop makes goes through the relay exactly once, not only sends: a
 * reaction, an edit or a deletion queued in the outbox carries the job's own key (what the agent
 * did), so an attempt repeated after its answer was lost (a desktop that crashed, a connection that
 * dropped) is the same change; and a contact created, updated or deleted from a joined desktop goes
 * to the service through the relay, the same key twice being one change there. A real relay on the
 * sandbox, a real nats-server, the joined desktop's real session and outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { JoinedSession } from '../../../electron/core/team/joined-session.ts';
import { relayPorts } from '../../../electron/core/relay/relay-ports.ts';
import { SEND_OUTCOMES_BUCKET, SENDS_STREAM, sendOutcomeKey } from '../../../electron/core/relay/subjects.ts';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { eventually, service, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';
import { startPortRelay, type PortDesktop, type PortRelay } from './port-helpers.ts';

const call = { priority: 'user' as const };
const nothing = { files: [], attachmentUrls: [] };
const dir = tempDir('parley-relay-once-');

let org: PortRelay;
let dana: PortDesktop;
let leeCode: string;
let chatId: number;
let session: JoinedSession | undefined;

beforeAll(async () => {
  org = await startPortRelay('v2');
  dana = await org.desktop('Dana');
  leeCode = (await org.relay.agents.add('Lee')).joinCode;
  chatId = org.relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup)
    ?.id as number;
}, 120_000);

afterAll(async () => {
  await session?.close();
  await org?.stop();
  dir.remove();
});

function openLee(): Promise<JoinedSession> {
  return JoinedSession.open(parseJoinCode(leeCode), {
    dataDir: dir.path,
    apiVersion: 'v2',
    ports: relayPorts,
    sync: SLOW_POLLING,
  });
}

async function onService(text: string): Promise<number> {
  const { data } = await service<{ data: Array<{ text: string }> }>(
    org.sandbox,
    `/chats/${chatId}/chat_messages?sort=desc&per_page=50`,
  );
  return data.filter((m) => m.text === text).length;
}

/** The changes an agent has published through the relay: one subject (key) each, each made once. */
async function changesPublishedBy(agentId: string): Promise<number> {
  const jsm = await jetstreamManager(org.relay.connection);
  const info = await jsm.streams.info(SENDS_STREAM, { subjects_filter: `parley.sends.${agentId}.>` });
  return Object.keys(info.state.subjects ?? {}).length;
}

async function contactsOnService(): Promise<number> {
  const page = await service<{ pagination: { total_count: number } }>(org.sandbox, '/contacts?per_page=1');
  return page.pagination.total_count;
}

describe("changes queued in a joined desktop's outbox", () => {
  it('are one change each, also when an attempt is repeated after its answer was lost', async () => {
    await dana.port.send(chatId, { text: 'Lee will delete this', ...nothing }, call);
    // Lee's desktop syncs, then closes: its store has the message, as after any session.
    const first = await openLee();
    session = first;
    await first.start();
    const stored = await eventually(
      () =>
        first.store.messages
          .page(chatId, { limit: 50 })
          .find((m) => m.text === 'Lee will delete this' && m.id !== null),
      'the message on Lee’s desktop',
    );
    await first.close();

    // Opened again, the deletion is queued before the outbox runs: the job has its own key.
    const again = await openLee();
    session = again;
    const lee = parseJoinCode(leeCode).agentId;
    const publishedBefore = await changesPublishedBy(lee);
    again.outbox.delete(stored.key);
    const [job] = again.store.outbox.unfinished();
    expect(job).toMatchObject({ kind: 'delete' });
    const key = job?.idempotencyKey as string;
    expect(key).toMatch(/^p[0-9a-f]{32}$/);

    // Its first attempt went through, and its answer never came back (the desktop crashed).
    await again.messaging.delete(chatId, stored.id as number, { ...call, changeKey: key });
    expect(await onService('Lee will delete this')).toBe(0);

    // The outbox makes it again with the same key: the relay answers what it did, nothing fails,
    // and the relay was given one change to make, not two.
    await again.start();
    await eventually(() => again.store.outbox.count() === 0, 'the deletion done');
    expect(again.store.outbox.count('failed')).toBe(0);
    expect(await changesPublishedBy(lee)).toBe(publishedBefore + 1);
  }, 90_000);

  it('carry their job key to the relay: a reaction queued is made under it', async () => {
    const joined = session as JoinedSession;
    const sent = await dana.port.send(chatId, { text: 'Lee reacts to this', ...nothing }, call);
    await joined.sync.refreshChat(chatId);
    const message = await eventually(
      () => joined.store.messages.byId(sent.id),
      'the message on Lee’s desktop',
    );
    joined.outbox.react(sent.id, { kind: 'like' }, 'add');
    const key = joined.store.outbox.unfinished().find((job) => job.kind === 'react')?.idempotencyKey;
    expect(key).toMatch(/^p[0-9a-f]{32}$/);
    await eventually(() => joined.store.outbox.count() === 0, 'the reaction made');
    const outcomes = await new Kvm(org.relay.connection).open(SEND_OUTCOMES_BUCKET);
    const outcome = await outcomes.get(sendOutcomeKey(parseJoinCode(leeCode).agentId, key as string));
    expect(outcome?.json()).toMatchObject({ state: 'accepted', result: { messageId: message.id } });
  }, 60_000);
});

describe('contacts from a joined desktop', () => {
  it('are created, updated and deleted through the relay, the same key twice being one change', async () => {
    const before = await contactsOnService();
    const fields = { firstName: 'Robin', lastName: 'Okafor', email: `robin-${Date.now()}@example.com` };
    const created = await dana.port.contacts.create(fields, { ...call, changeKey: 'contact-robin' });
    const repeated = await dana.port.contacts.create(fields, { ...call, changeKey: 'contact-robin' });
    expect(repeated.id).toBe(created.id);
    expect(await contactsOnService()).toBe(before + 1);
    // The relay's store has it at once: desktops read contacts from there.
    expect(org.relay.session.store.contacts.get(created.id)).toMatchObject({ firstName: 'Robin' });

    const updated = await dana.port.contacts.update(
      created.id,
      { ...fields, company: 'Harbor Plumbing' },
      call,
    );
    expect(updated).toMatchObject({ id: created.id, company: 'Harbor Plumbing' });

    await dana.port.contacts.delete(created.id, { ...call, changeKey: 'contact-robin-gone' });
    await dana.port.contacts.delete(created.id, { ...call, changeKey: 'contact-robin-gone' });
    expect(await contactsOnService()).toBe(before);
    expect(org.relay.session.store.contacts.get(created.id)).toBeUndefined();
  }, 60_000);
});
