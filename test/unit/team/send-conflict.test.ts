/** The send-time conflict check: a send is held only for what its agent has not seen and did not write. */
import { describe, expect, it } from 'vitest';
import {
  ago,
  decideSend,
  previewOf,
  type SequencedActivity,
} from '../../../electron/core/team/send-conflict.ts';

const NOW = 1_700_000_000_000;
const names: Record<string, string> = { dana: 'Dana', eli: 'Eli' };
const nameOf = (id: string) => names[id] ?? id;

function reply(seq: number, agentId: string, text: string, secondsAgo: number): SequencedActivity {
  return { seq, entry: { kind: 'reply', chatId: 7, agentId, preview: text, at: NOW - secondsAgo * 1000 } };
}
function customer(seq: number, text: string, secondsAgo: number): SequencedActivity {
  return { seq, entry: { kind: 'customer_message', chatId: 7, preview: text, at: NOW - secondsAgo * 1000 } };
}

describe('decideSend', () => {
  it('lets a send go when nothing landed after what the agent saw', () => {
    expect(decideSend({ sender: 'eli', seenSeq: 4, newer: [], now: NOW, nameOf })).toEqual({
      decision: 'go',
    });
  });

  it('holds a send when a teammate replied since, saying who, when and what', () => {
    const decision = decideSend({
      sender: 'eli',
      seenSeq: 4,
      newer: [reply(5, 'dana', 'Your order ships today', 20)],
      now: NOW,
      nameOf,
    });
    expect(decision).toMatchObject({
      decision: 'hold',
      message: 'Dana replied 20 s ago: Your order ships today',
      latestSeq: 5,
    });
  });

  it('holds a send when the customer wrote again since', () => {
    const decision = decideSend({
      sender: 'eli',
      seenSeq: 4,
      newer: [customer(6, 'Never mind, found it', 3)],
      now: NOW,
      nameOf,
    });
    expect(decision).toMatchObject({
      decision: 'hold',
      message: 'The customer wrote 3 s ago: Never mind, found it',
    });
  });

  it("does not hold a send for the agent's own earlier reply", () => {
    expect(
      decideSend({ sender: 'eli', seenSeq: 4, newer: [reply(5, 'eli', 'One moment', 2)], now: NOW, nameOf }),
    ).toEqual({ decision: 'go' });
  });

  it('ignores activity the agent had already seen', () => {
    expect(
      decideSend({ sender: 'eli', seenSeq: 5, newer: [reply(5, 'dana', 'Hi', 9)], now: NOW, nameOf }),
    ).toEqual({ decision: 'go' });
  });

  it('names the newest unseen activity and counts the rest', () => {
    const decision = decideSend({
      sender: 'eli',
      seenSeq: 1,
      newer: [customer(3, 'Hello?', 90), reply(2, 'eli', 'mine', 100), reply(4, 'dana', 'On it', 61)],
      now: NOW,
      nameOf,
    });
    expect(decision).toMatchObject({
      decision: 'hold',
      message: 'Dana replied 1 min ago: On it (and 1 more)',
      latestSeq: 4,
    });
    expect(decision.decision === 'hold' && decision.unseen.map((a) => a.seq)).toEqual([3, 4]);
  });
});

describe('words for the composer', () => {
  it('says how long ago in the largest whole unit', () => {
    expect([ago(400), ago(20_000), ago(185_000), ago(7_300_000)]).toEqual([
      'just now',
      '20 s ago',
      '3 min ago',
      '2 h ago',
    ]);
  });

  it('previews a message on one line, cut with an ellipsis', () => {
    expect(previewOf('Hello\n\n  there')).toBe('Hello there');
    expect(previewOf('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
