/**
 * The relay's send-time conflict check on a real nats-server: two agents answering one chat from
 * the same view — the first goes out, the second is held with the teammate's reply in words; a
 * customer's new message holds a send too; "Send anyway" (the newest activity seen) goes; an
 * agent's own reply never holds its next one. And what a desktop says it had seen (`seenSeq`, from
 * its follow of the activity and its real store): a teammate's reply whose activity arrived before
 * the reply itself was in the timeline had not been seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { SeenActivity } from '../../../electron/core/team/seen-activity.ts';
import type { TeamClient } from '../../../electron/core/team/team-client.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import { startTestTeam, type TestTeam } from './helpers.ts';

const CHAT = 9;

let team: TestTeam;
let dana: TeamClient;
let eli: TeamClient;

beforeAll(async () => {
  team = await startTestTeam(['Dana', 'Eli']);
  [dana, eli] = await Promise.all([team.agents.Dana!.client(), team.agents.Eli!.client()]);
});
afterAll(async () => {
  await team?.close();
});

/** What the relay's sends consumer does with one reply: check, then (if it goes) record it. */
async function relaySends(client: TeamClient, seenSeq: number, text: string, messageId: string) {
  const decision = await team.relay.checkSend({ agentId: client.agentId, chatId: CHAT, seenSeq });
  if (decision.decision === 'go')
    await team.relay.recordReply({ agentId: client.agentId, chatId: CHAT, messageId, text });
  return decision;
}

describe('the send-time conflict check', () => {
  it('sends the first of two replies from the same view and holds the second, saying who replied', async () => {
    await team.customerWrites(CHAT, 'Where is my order?');
    const seen = await eventually(
      async () => dana.latestActivitySeq(CHAT),
      "the customer's message as activity",
    );
    expect(await eli.latestActivitySeq(CHAT)).toBe(seen);

    expect(await relaySends(dana, seen, 'It ships today.', 'm-1')).toEqual({ decision: 'go' });
    const held = await relaySends(eli, seen, 'Let me check.', 'm-2');
    expect(held).toMatchObject({
      decision: 'hold',
      unseen: [{ entry: { kind: 'reply', agentId: dana.agentId } }],
    });
    expect(held.decision === 'hold' && held.message).toMatch(
      /^Dana replied (just now|\d+ s ago): It ships today\.$/,
    );

    const anyway = held.decision === 'hold' ? held.latestSeq : 0;
    expect(await relaySends(eli, anyway, 'Let me check.', 'm-2')).toEqual({ decision: 'go' });
  });

  it("never holds an agent's reply for its own previous one", async () => {
    const seen = await dana.latestActivitySeq(CHAT);
    expect(await relaySends(dana, seen, 'One more thing:', 'm-3')).toEqual({ decision: 'go' });
    expect(await relaySends(dana, seen, 'the tracking number is 123.', 'm-4')).toEqual({ decision: 'go' });
  });

  it('holds a send when the customer wrote since the agent last looked', async () => {
    const seen = await eli.latestActivitySeq(CHAT);
    await team.customerWrites(CHAT, 'Actually, cancel it');
    await eventually(async () => (await eli.latestActivitySeq(CHAT)) > seen, 'the new message as activity');
    const held = await relaySends(eli, seen, 'Sure!', 'm-5');
    expect(held.decision === 'hold' && held.message).toMatch(
      /^The customer wrote (just now|\d+ s ago): Actually, cancel it$/,
    );
  });

  it('records a reply delivered twice (a redelivered send) once', async () => {
    const before = await dana.latestActivitySeq(CHAT);
    await team.relay.recordReply({ agentId: dana.agentId, chatId: CHAT, messageId: 'm-6', text: 'Done.' });
    await team.relay.recordReply({ agentId: dana.agentId, chatId: CHAT, messageId: 'm-6', text: 'Done.' });
    const decision = await team.relay.checkSend({ agentId: eli.agentId, chatId: CHAT, seenSeq: before });
    expect(decision.decision === 'hold' && decision.unseen).toHaveLength(1);
  });
});

describe('what a desktop says it had seen', () => {
  it("counts a teammate's reply seen only once it is in the desktop's timeline, not when its activity arrives", async () => {
    // Given Eli's desktop: its store (one conversation) and its follow of the chats' activity
    const chatId = 31;
    const dir = tempDir('parley-team-seen-');
    const store = new LocalStore(`${dir.path}/eli.db`);
    store.lines.replaceAll([
      {
        id: 1,
        phoneNumber: '+14155550100',
        forwardingNumber: null,
        responseRate: null,
        userName: null,
        userEmail: null,
      },
    ]);
    store.chats.upsert([
      {
        id: chatId,
        lineId: 1,
        displayName: 'Customer',
        service: 'SMS',
        isGroup: false,
        handles: [{ id: 1, identifier: '+14155550123', service: 'SMS', joinedAt: 1, isMe: false }],
      },
    ]);
    const seen = await SeenActivity.start(await team.agents.Eli!.connect(), {
      agentId: eli.agentId,
      isShown: (chat, messageId) => store.messages.byId(messageId)?.chatId === chat,
    });
    const unlisten = store.events.on('messages.changed', ({ chatId: chat }) => seen.messagesArrived(chat));
    const before = seen.seenSeqAt(chatId, Date.now());

    // When Dana's reply is accepted (the relay records it as activity at once) and its activity
    // reaches Eli's desktop, but the reply itself is not in his timeline yet
    await team.relay.recordReply({ agentId: dana.agentId, chatId, messageId: '7001', text: 'On its way!' });
    const danas = await eventually(() => seen.latest(chatId) || undefined, "Dana's reply as activity");

    // Then a message Eli writes now had not seen it, and the relay holds it naming Dana
    const writtenBlind = seen.seenSeqAt(chatId, Date.now());
    expect(writtenBlind).toBe(danas - 1);
    expect(writtenBlind).toBeGreaterThanOrEqual(before);
    const held = await team.relay.checkSend({ agentId: eli.agentId, chatId, seenSeq: writtenBlind });
    expect(held.decision === 'hold' && held.message).toMatch(
      /^Dana replied (just now|\d+ s ago): On its way!$/,
    );

    // When the reply reaches his timeline, what he writes after has seen it, and goes
    store.messages.upsert([
      { id: 7001, chatId, text: 'On its way!', sentAt: Date.now(), fromMe: true, sender: '+14155550100' },
    ]);
    const writtenAfter = seen.seenSeqAt(chatId, Date.now());
    expect(writtenAfter).toBe(danas);
    expect(await team.relay.checkSend({ agentId: eli.agentId, chatId, seenSeq: writtenAfter })).toEqual({
      decision: 'go',
    });

    unlisten();
    await seen.stop();
    store.close();
    dir.remove();
  });
});
