/**
 * The team inbox on two joined desktops: the real desktop core (AppCore, real SQLite) of Dana and
 * of Lee, each joined with its join code to a real relay (the sandbox over HTTP, a real
 * nats-server), driven through the bridge's `team.*` methods and heard through its events, as the
 * renderer would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../../electron/core/app/app-core.ts';
import { JoinedSession } from '../../../electron/core/team/joined-session.ts';
import { SENDS_STREAM } from '../../../electron/core/relay/subjects.ts';
import { readToEnd } from '../../../electron/core/team/stream-read.ts';
import { memorySettingsPersistence, PersistedSettingsStore } from '../../../electron/core/settings/index.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import type { RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { EventName, Events } from '../../../shared/contract/events.ts';
import { SEND_HELD_CODE, type TeamState } from '../../../shared/contract/team-views.ts';
import type { Chat, Message } from '../../../shared/domain.ts';
import { quietDemo } from '../bridge/support.ts';
import { control, eventually, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';
import { startSandboxRelay } from '../relay/helpers.ts';

interface Desktop {
  core: AppCore;
  machine: Machine;
  agentId: string;
  events: Array<{ event: EventName; payload: unknown }>;
  call<T>(method: string, input?: unknown): Promise<T>;
  /** The bridge's refusal of a call (its error shape). */
  refusal(method: string, input?: unknown): Promise<{ code: string; message: string }>;
  heard<E extends EventName>(event: E, matching: (payload: Events[E]) => boolean): Events[E] | undefined;
  stop(): Promise<void>;
}

let sandbox: RunningSandbox;
let relay: RunningRelay;
let team: Awaited<ReturnType<typeof startSandboxRelay>>;
let chat: Chat;
let customer: string;
let dana: Desktop;
let lee: Desktop;
const dirs: Array<{ remove(): void }> = [];

/** What stays on a machine between two launches of Parley: its data folder, keychain and settings. */
interface Machine {
  dir: string;
  vault: InMemoryVault;
  settings: ReturnType<typeof memorySettingsPersistence>;
}

function newMachine(): Machine {
  const dir = tempDir('parley-team-desktop-');
  dirs.push(dir);
  return { dir: dir.path, vault: new InMemoryVault(), settings: memorySettingsPersistence() };
}

async function openDesktop(
  machine = newMachine(),
  team?: { idleAwayMs: number; heartbeatMs: number },
): Promise<Desktop> {
  const events: Desktop['events'] = [];
  const core = await AppCore.start({
    dataDir: machine.dir,
    host: 'browser',
    version: '0.0.0-test',
    platform: process.platform,
    vault: machine.vault,
    settings: new PersistedSettingsStore({ persistence: machine.settings }),
    ports: { openExternal: async () => undefined },
    emit: (event, payload) => void events.push({ event, payload }),
    demo: quietDemo(),
    sync: SLOW_POLLING,
    relayRetryMs: 500,
    ...(team ? { team } : {}),
  });
  const dispatch = async (method: string, input: unknown = {}) => core.dispatch(method, input);
  const desktop: Desktop = {
    core,
    machine,
    agentId: '',
    events,
    async call<T>(method: string, input: unknown = {}) {
      const result = await dispatch(method, input);
      if (!result.ok) throw Object.assign(new Error(`${method}: ${result.error.message}`), result.error);
      return result.value as T;
    },
    async refusal(method, input = {}) {
      const result = await dispatch(method, input);
      if (result.ok) throw new Error(`${method} was not refused`);
      return result.error;
    },
    heard(event, matching) {
      return events
        .filter((e) => e.event === event)
        .map((e) => e.payload as Events[typeof event])
        .find(matching);
    },
    stop: () => core.stop(),
  };
  return desktop;
}

async function join(desktop: Desktop, name: string): Promise<void> {
  const { agent, joinCode } = await relay.agents.add(name);
  await desktop.call('workspaces.join', { joinCode, name: 'Harbor team' });
  desktop.agentId = agent.id;
  await eventually(() => desktop.core.session.store.chats.exists(chat.id), `${name}'s inbox`, 60_000);
}

function teamOf(desktop: Desktop) {
  return (desktop.core.session as JoinedSession).team;
}

/** The typing indicator calls an agent's desktop made through the relay (its sends stream). */
async function typingSentBy(desktop: Desktop): Promise<unknown[]> {
  const sends = await readToEnd(relay.connection, SENDS_STREAM, {
    subject: `parley.sends.${desktop.agentId}.*`,
  });
  return sends
    .map((send) => JSON.parse(new TextDecoder().decode(send.data)) as { kind?: string })
    .filter((change) => change.kind === 'typing');
}

function messagesOf(desktop: Desktop): Message[] {
  return desktop.core.session.store.messages.page(chat.id, { limit: 100 });
}

beforeAll(async () => {
  team = await startSandboxRelay();
  ({ sandbox, relay } = team);
  chat = relay.session.store.chats.list().find((c) => c.service === 'iMessage' && !c.isGroup) as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
  await control(sandbox, 'PUT', `/customers/${encodeURIComponent(customer)}`, { auto_reply: false });
  dana = await openDesktop();
  lee = await openDesktop();
}, 120_000);

afterAll(async () => {
  await dana?.stop().catch(() => undefined);
  await lee?.stop().catch(() => undefined);
  await team?.stop();
  for (const dir of dirs) dir.remove();
});

describe('the team inbox on two joined desktops', () => {
  it('is not available on a workspace that is not joined to a relay', async () => {
    const refused = await lee.refusal('team.state');
    expect(refused.code).toBe('not_available');
    expect(refused.message).toMatch(/joined to your team's relay/);
  });

  it('shows Lee what Dana does in a conversation, as she does it', async () => {
    await join(dana, 'Dana');
    await join(lee, 'Lee');
    await dana.call('team.activity', { chatId: chat.id, activity: 'viewing' });
    await eventually(
      () =>
        lee.heard('team.changed', (change) =>
          (change.presence ?? []).some(
            (p) =>
              p.chatId === chat.id && p.agents.some((a) => a.name === 'Dana' && a.activity === 'viewing'),
          ),
        ),
      "Dana viewing, on Lee's desktop",
    );
    // Writing a team note shows on Lee's desktop, never on the customer's phone.
    await dana.call('team.activity', { chatId: chat.id, activity: 'noting' });
    await eventually(
      () =>
        lee.heard('team.changed', (change) =>
          (change.presence ?? []).some((p) =>
            p.agents.some((a) => a.agentId === dana.agentId && a.activity === 'noting'),
          ),
        ),
      "Dana noting, on Lee's desktop",
    );
    expect(await typingSentBy(dana)).toEqual([]);
    await dana.call('team.activity', { chatId: chat.id, activity: 'typing' });
    expect(await typingSentBy(dana)).toEqual([{ kind: 'typing', chatId: chat.id, typing: true }]);
    await eventually(
      () =>
        lee.heard('team.changed', (change) =>
          (change.presence ?? []).some(
            (p) =>
              p.chatId === chat.id &&
              p.agents.some((a) => a.agentId === dana.agentId && a.activity === 'typing'),
          ),
        ),
      "Dana typing, on Lee's desktop",
    );
    // Names come from the relay's roster, which follows its directory (agents added while it runs).
    const state = await eventually(async () => {
      const now = await lee.call<TeamState>('team.state');
      return now.me.name === 'Lee' && now.agents.some((a) => a.name === 'Dana') ? now : undefined;
    }, "the team named on Lee's desktop");
    expect(state.me).toEqual({ id: lee.agentId, name: 'Lee' });
    expect(state.agents.find((a) => a.id === dana.agentId)).toMatchObject({
      name: 'Dana',
      availability: 'available',
    });
    await dana.call('team.activity', { chatId: chat.id, activity: null });
  }, 120_000);

  it('settles two claims at once: one owner, and the other is told who', async () => {
    const [byDana, byLee] = await Promise.allSettled([
      dana.call('team.assign', { chatId: chat.id, to: dana.agentId }),
      lee.call('team.assign', { chatId: chat.id, to: lee.agentId }),
    ]);
    const won = [byDana, byLee].filter((r) => r.status === 'fulfilled');
    const lost = [byDana, byLee].filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = byDana.status === 'fulfilled' ? 'Dana' : 'Lee';
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({
      code: 'already_assigned',
      message: `${winner} already has this conversation`,
    });
    for (const desktop of [dana, lee])
      await eventually(
        async () =>
          (await desktop.call<TeamState>('team.state')).assignments.find(
            (a) => a.chatId === chat.id && a.assigneeName === winner,
          ),
        'the one owner on both desktops',
      );
    await dana.call('team.assign', { chatId: chat.id, to: null });
  }, 60_000);

  it("counts a customer's new conversation in Unassigned and All at once", async () => {
    const before = (await lee.call<TeamState>('team.state')).counts;
    await control(sandbox, 'POST', '/inbound/message', {
      from: '+14155550177',
      text: 'Hello, first time here',
    });
    await eventually(
      () =>
        lee.heard('team.changed', (change) => change.counts?.all === before.all + 1)?.counts?.unassigned ===
        before.unassigned + 1,
      "the new conversation counted on Lee's desktop",
      60_000,
    );
  }, 90_000);

  it("holds the second of two replies sent within a second, with the teammate's reply; Send anyway sends it once", async () => {
    await control(sandbox, 'POST', '/inbound/message', {
      chat_id: chat.id,
      from: customer,
      text: 'Is 3 ok?',
    });
    for (const desktop of [dana, lee]) {
      await eventually(() => teamOf(desktop).latestActivity(chat.id) > 0, "the customer's message seen");
      await eventually(() => messagesOf(desktop).some((m) => m.text === 'Is 3 ok?'), 'and in the timeline');
    }
    const [fromDana, fromLee] = await Promise.all([
      dana.call<{ key: string }>('messages.send', { chatId: chat.id, text: 'Yes, 3 works for us' }),
      lee.call<{ key: string }>('messages.send', { chatId: chat.id, text: 'We can do 3 pm, see you then' }),
    ]);
    const outcome = (desktop: Desktop, key: string) =>
      messagesOf(desktop).find((m) => m.key === key && (m.id !== null || m.state === 'failed'));
    const [danas, lees] = await Promise.all([
      eventually(() => outcome(dana, fromDana.key), "Dana's reply settled", 60_000),
      eventually(() => outcome(lee, fromLee.key), "Lee's reply settled", 60_000),
    ]);
    const held = [danas, lees].filter((m) => m.state === 'failed');
    expect(held).toHaveLength(1);
    expect([danas, lees].filter((m) => m.id !== null)).toHaveLength(1);
    const [sentText, heldBy] = danas.state === 'failed' ? ['We can do 3 pm', dana] : ['Yes, 3 works', lee];
    expect(held[0]?.error).toMatchObject({ code: SEND_HELD_CODE });
    expect(held[0]?.error?.message).toMatch(
      new RegExp(`^(Dana|Lee) replied (just now|\\d+ s ago): ${sentText}`),
    );

    // Not lost, not sent, and not tried again by the outbox on its own: it waits for an answer.
    const heldKey = held[0]?.key as string;
    expect(heldBy.core.session.store.outbox.byMessageKey(heldKey)?.state).toBe('failed');
    // Answered twice (a double click): it goes once.
    const answers = await Promise.allSettled([
      heldBy.call('team.answerHeld', { key: heldKey, answer: 'sendAnyway' }),
      heldBy.call('team.answerHeld', { key: heldKey, answer: 'sendAnyway' }),
    ]);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const sent = await eventually(
      () => messagesOf(heldBy).find((m) => m.key === heldKey && m.id !== null),
      'the held reply sent anyway',
      60_000,
    );
    const onService = (await relay.session.messaging.newestMessages(chat.id, 50, {})).messages;
    expect(onService.filter((m) => m.text === sent.text)).toHaveLength(1);
  }, 120_000);

  it("makes a private note on a joined workspace a team note in every agent's timeline", async () => {
    const written = await lee.call<{ id: number; text: string }>('notes.add', {
      chatId: chat.id,
      text: 'Customer prefers texts after 5 pm',
    });
    expect(written.id).toBeLessThan(0); // the team's, not a local note
    const onDanas = await dana.call<Array<{ text: string }>>('notes.list', { chatId: chat.id });
    expect(onDanas.map((n) => n.text)).toContain('Customer prefers texts after 5 pm');
    const refused = await dana.refusal('notes.delete', { id: written.id });
    expect(refused.code).toBe('invalid_input');
  }, 60_000);

  it('tells Lee when a note names him, and shows the note to both', async () => {
    const note = await dana.call<{ seq: number; mentions: string[] }>('team.addNote', {
      chatId: chat.id,
      text: '@Lee can you call them back? I am out at 4',
    });
    expect(note.mentions).toEqual([lee.agentId]);
    const mention = await eventually(
      () => lee.heard('team.mention', (m) => m.noteSeq === note.seq),
      "the mention on Lee's desktop",
    );
    expect(mention).toMatchObject({ chatId: chat.id, fromName: 'Dana', title: 'Dana mentioned you' });
    expect(mention.body).toContain('can you call them back?');
    expect(dana.heard('team.mention', () => true)).toBeUndefined();
    const notes = await lee.call<Array<{ seq: number; authorName: string; mine: boolean }>>(
      'team.listNotes',
      {
        chatId: chat.id,
      },
    );
    expect(notes.find((n) => n.seq === note.seq)).toMatchObject({ authorName: 'Dana', mine: false });
  }, 60_000);

  it('tells Lee, back in Parley, of a mention made while it was closed; idle, he shows as away', async () => {
    await lee.stop();
    const note = await dana.call<{ seq: number }>('team.addNote', {
      chatId: chat.id,
      text: '@Lee the customer called while you were out',
    });
    const agentId = lee.agentId;
    lee = await openDesktop(lee.machine, { idleAwayMs: 1_500, heartbeatMs: 250 });
    lee.agentId = agentId;
    const mention = await eventually(
      () => lee.heard('team.mention', (m) => m.noteSeq === note.seq),
      'the mention made while Lee was away',
    );
    expect(mention.body).toContain('the customer called while you were out');
    // Away after idling, available again at the keyboard (the renderer reports input).
    const leeOnDanas = async () =>
      (await dana.call<TeamState>('team.state')).agents.find((a) => a.id === lee.agentId)?.availability;
    await eventually(async () => (await leeOnDanas()) === 'away', "Lee away on Dana's desktop");
    await lee.call('team.activity', {});
    await eventually(async () => (await leeOnDanas()) === 'available', "Lee back on Dana's desktop");
  }, 60_000);

  it('clears Dana from the team when she quits', async () => {
    await dana.call('team.activity', { chatId: chat.id, activity: 'viewing' });
    await eventually(
      async () =>
        (await lee.call<TeamState>('team.state')).presence.some((p) =>
          p.agents.some((a) => a.agentId === dana.agentId),
        ),
      'Dana in the conversation',
    );
    await dana.stop();
    const state = await eventually(async () => {
      const now = await lee.call<TeamState>('team.state');
      const inChats = now.presence.some((p) => p.agents.some((a) => a.agentId === dana.agentId));
      const offline = now.agents.find((a) => a.id === dana.agentId)?.availability === 'offline';
      return offline && !inChats ? now : undefined;
    }, "Dana gone from Lee's desktop");
    expect(state.agents.find((a) => a.id === dana.agentId)).toMatchObject({
      name: 'Dana',
      availability: 'offline',
    });
    // Told as a change too: the conversation with nobody in it any more.
    expect(
      lee.heard('team.changed', (c) =>
        (c.presence ?? []).some((p) => p.chatId === chat.id && p.agents.length === 0),
      ),
    ).toBeDefined();
  }, 60_000);
});
