/**
 * Assignment on a real nats-server, through the relay: two agents claiming one conversation at
 * once — also through two relays — leave one owner, and the other is told who; a hand-off carries
 * its note; the team's settings reopen a done conversation on the customer's message and hand new
 * conversations round in turn among available agents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countViews } from '../../../electron/core/team/assignment-rules.ts';
import { PresencePublisher } from '../../../electron/core/team/presence.ts';
import type { TeamClient } from '../../../electron/core/team/team-client.ts';
import type { Assignment } from '../../../electron/core/team/wire.ts';
import type { WatchedEntry } from '../../../electron/core/team/bucket-watch.ts';
import { eventually } from '../core/helpers.ts';
import { startTestTeam, type TestTeam } from './helpers.ts';

let team: TestTeam;
let dana: TeamClient;
let eli: TeamClient;

beforeAll(async () => {
  team = await startTestTeam(['Dana', 'Eli', 'Fay'], { presenceStaleAfterMs: 5_000 });
  [dana, eli] = await Promise.all([team.agents.Dana!.client(), team.agents.Eli!.client()]);
});
afterAll(async () => {
  await team?.close();
});

describe('claiming a conversation', () => {
  it('gives it to one of two agents claiming at once, and tells the other who has it', async () => {
    const [a, b] = await Promise.all([
      dana.assign({ action: 'claim', chatId: 1 }),
      eli.assign({ action: 'claim', chatId: 1 }),
    ]);
    const winner = a.ok ? dana : eli;
    const loser = a.ok ? b : a;
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect(loser).toMatchObject({ ok: false, error: { code: 'already_assigned' }, owner: winner.agentId });
    expect(!loser.ok && loser.error.message).toMatch(
      new RegExp(`^${winner === dana ? 'Dana' : 'Eli'} already has`),
    );
  });

  it('still leaves one owner when the claims reach two relays of the organization', async () => {
    await team.startAnotherRelay();
    for (let chatId = 100; chatId < 110; chatId++) {
      const replies = await Promise.all([
        dana.assign({ action: 'claim', chatId }),
        eli.assign({ action: 'claim', chatId }),
      ]);
      expect(replies.filter((reply) => reply.ok)).toHaveLength(1);
    }
  });

  it("shows every desktop the new owner live, and the Mine view's count follows", async () => {
    let seen: ReadonlyMap<number, WatchedEntry<Assignment>> = new Map();
    const watch = await eli.watchAssignments((assignments) => (seen = assignments));
    await dana.assign({ action: 'assign', chatId: 2, to: eli.agentId });
    const entry = await eventually(() => seen.get(2), 'the assignment on the watcher');
    expect(entry.value).toMatchObject({ assignee: eli.agentId, by: dana.agentId, status: 'open' });
    const byChat = new Map([...seen].map(([chatId, watched]) => [chatId, watched.value]));
    expect(countViews([2, 9_999], byChat, eli.agentId)).toEqual({ mine: 1, unassigned: 1, all: 2 });
    await watch.stop();
  });
});

describe('handing off and taking over', () => {
  it('hands a conversation off with a note, and refuses a hand-off by someone else', async () => {
    await dana.assign({ action: 'claim', chatId: 3 });
    expect(await eli.assign({ action: 'hand_off', chatId: 3, to: eli.agentId })).toMatchObject({
      ok: false,
      error: { code: 'not_assignee' },
    });
    const handed = await dana.assign({
      action: 'hand_off',
      chatId: 3,
      to: eli.agentId,
      note: 'Wants the invoice re-sent',
    });
    expect(handed).toMatchObject({
      ok: true,
      assignment: { assignee: eli.agentId, note: 'Wants the invoice re-sent' },
    });
  });

  it('takes over, and refuses a change made from a stale view', async () => {
    const first = await dana.assign({ action: 'claim', chatId: 4 });
    expect(await eli.assign({ action: 'take_over', chatId: 4 })).toMatchObject({
      ok: true,
      assignment: { assignee: eli.agentId },
    });
    const stale = await dana.assign({
      action: 'unassign',
      chatId: 4,
      expectedRevision: first.ok ? (first.revision as number) : 0,
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'assignment_changed' }, owner: eli.agentId });
  });

  it('answers a malformed or unknown request with an error in words and changes nothing', async () => {
    expect(await dana.assign({ action: 'claim', chatId: -1 } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'chatId' },
    });
    expect(await dana.assign({ action: 'assign', chatId: 5, to: 'nobody-000000' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_agent' },
    });
  });
});

describe("the team's settings", () => {
  it('reopens a done conversation to its assignee when the customer writes again', async () => {
    await team.relay.updateSettings({ customerMessageReopens: true });
    await dana.assign({ action: 'claim', chatId: 6 });
    await dana.assign({ action: 'close', chatId: 6 });
    const watch = await dana.watchAssignments(() => undefined);
    await team.customerWrites(6, 'One more question');
    const reopened = await eventually(
      () => [watch.entries.get('chat.6')].find((entry) => entry?.value.status === 'open'),
      'chat 6 reopened',
    );
    expect(reopened.value).toMatchObject({ assignee: dana.agentId, by: 'relay' });
    await watch.stop();
  });

  it('hands new conversations in turn to the agents who are available, skipping the others', async () => {
    await team.relay.updateSettings({ roundRobin: true });
    const here = await Promise.all(
      (['Dana', 'Eli', 'Fay'] as const).map(async (name) =>
        PresencePublisher.start(await team.agents[name]!.connect(), { agentId: team.agents[name]!.id }),
      ),
    );
    await here[2]!.setAvailability('busy');
    const owners: string[] = [];
    const watch = await dana.watchAssignments(() => undefined);
    for (const chatId of [201, 202, 203]) {
      await team.customerWrites(chatId, 'Hi, new here');
      owners.push(
        await eventually(
          () => watch.entries.get(`chat.${chatId}`)?.value.assignee,
          `chat ${chatId} assigned`,
        ),
      );
    }
    await watch.stop();
    const [d, e] = [team.agents.Dana!.id, team.agents.Eli!.id];
    expect(new Set(owners.slice(0, 2))).toEqual(new Set([d, e]));
    expect(owners[2]).toBe(owners[0]);
    for (const presence of here) await presence.stop();
    await team.relay.updateSettings({ roundRobin: false });
  });
});
