/**
 * The relay's send-time conflict check on a real nats-server: two agents answering one chat from
 * the same view — the first goes out, the second is held with the teammate's reply in words; a
 * customer's new message holds a send too; "Send anyway" (the newest activity seen) goes; an
 * agent's own reply never holds its next one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamClient } from '../../../electron/core/team/team-client.ts';
import { eventually } from '../core/helpers.ts';
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
