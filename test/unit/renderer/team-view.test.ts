/**
 * The team inbox's view logic: the Mine / Unassigned / All counts and lists, who is in a
 * conversation (grouped per teammate, busiest first, never oneself), a held send's words as the
 * teammate's reply ages, and the `@name` being typed in a note.
 */
import { describe, expect, it } from 'vitest';
import {
  agoText,
  completeMention,
  heldWords,
  mentionAt,
  mentionCandidates,
} from '../../../renderer/lib/team-compose.ts';
import { countViews, presenceSummary, presentTeammates } from '../../../renderer/lib/team-view.ts';
import { chatsInView } from '../../../renderer/store/team-slice.ts';

const assignees: Record<number, string> = { 1: 'dana', 2: 'sam', 4: 'dana' };
const assigneeOf = (chatId: number) => assignees[chatId] ?? null;
const names: Record<string, string> = { dana: 'Dana Lee', sam: 'Sam Ortiz', kim: 'Kim Park' };
const nameOf = (id: string) => names[id] ?? id;

describe('the assignment views', () => {
  const chatIds = [1, 2, 3, 4, 5];

  it('given five chats, two of them mine and one a teammate’s, counts Mine 2, Unassigned 2, All 5', () => {
    expect(countViews(chatIds, assigneeOf, 'dana')).toEqual({ all: 5, mine: 2, unassigned: 2 });
    expect(countViews(chatIds, assigneeOf, 'sam')).toEqual({ all: 5, mine: 1, unassigned: 2 });
    expect(countViews([], assigneeOf, 'dana')).toEqual({ all: 0, mine: 0, unassigned: 0 });
  });

  it('lists each view’s chats in the inbox’s order, and All as it is', () => {
    expect(chatsInView(chatIds, 'mine', assigneeOf, 'dana')).toEqual([1, 4]);
    expect(chatsInView(chatIds, 'unassigned', assigneeOf, 'dana')).toEqual([3, 5]);
    expect(chatsInView(chatIds, 'all', assigneeOf, 'dana')).toBe(chatIds);
  });
});

describe('who is in a conversation', () => {
  it('shows each teammate once at their busiest, typing before noting before viewing, never me', () => {
    const present = presentTeammates(
      [
        { agentId: 'sam', activity: 'viewing' },
        { agentId: 'kim', activity: 'noting' },
        { agentId: 'dana', activity: 'typing' },
        { agentId: 'sam', activity: 'typing' },
        { agentId: 'me', activity: 'typing' },
      ],
      'me',
      nameOf,
    );
    expect(present.map((p) => [p.agentId, p.activity])).toEqual([
      ['dana', 'typing'],
      ['sam', 'typing'],
      ['kim', 'noting'],
    ]);
    expect(presenceSummary(present)).toBe(
      'Dana Lee is typing a reply, Sam Ortiz is typing a reply, Kim Park is writing a note',
    );
  });

  it('shows nobody when only I am there', () => {
    expect(presentTeammates([{ agentId: 'me', activity: 'viewing' }], 'me', nameOf)).toEqual([]);
  });
});

describe('a held send as time passes', () => {
  const heldAt = 100_000;

  it('counts the teammate’s reply’s age again from when it was held, in seconds, minutes, then hours', () => {
    const words = 'Dana replied 20 s ago: On its way!';
    expect(heldWords(words, heldAt, heldAt)).toBe('Dana replied 20 s ago: On its way!');
    expect(heldWords(words, heldAt, heldAt + 15_000)).toBe('Dana replied 35 s ago: On its way!');
    expect(heldWords(words, heldAt, heldAt + 3 * 60_000)).toBe('Dana replied 3 min ago: On its way!');
    expect(heldWords('Dana replied just now: Hi', heldAt, heldAt + 2 * 3_600_000)).toBe(
      'Dana replied 2 h ago: Hi',
    );
  });

  it('ages the customer’s message too, and keeps what follows the age as it came', () => {
    expect(heldWords('The customer wrote 2 min ago: Hello? (and 2 more)', heldAt, heldAt + 60_000)).toBe(
      'The customer wrote 3 min ago: Hello? (and 2 more)',
    );
  });

  it('shows words of another form as they came, and never an age from the future', () => {
    expect(heldWords('A teammate answered first', heldAt, heldAt + 60_000)).toBe('A teammate answered first');
    expect(agoText(-5_000)).toBe('just now');
  });
});

describe('@name in a note', () => {
  const agents = [
    { id: 'dana', name: 'Dana Lee' },
    { id: 'sam', name: 'Sam Ortiz' },
    { id: 'me', name: 'Me Myself' },
  ];

  it('finds the mention the caret is in, not an email address', () => {
    expect(mentionAt('Ask @Da', 7)).toEqual({ start: 4, query: 'da' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('Ask @Dana L', 11)).toEqual({ start: 4, query: 'dana l' });
    expect(mentionAt('mail dana@example.com', 21)).toBeNull();
    expect(mentionAt('Ask @Dana Lee now', 17)).toBeNull();
  });

  it('offers teammates whose name or id starts with it, never me', () => {
    expect(mentionCandidates(agents, 'o', 'me').map((a) => a.id)).toEqual(['sam']);
    expect(mentionCandidates(agents, '', 'me').map((a) => a.id)).toEqual(['dana', 'sam']);
    expect(mentionCandidates(agents, 'dana l', 'me').map((a) => a.id)).toEqual(['dana']);
    expect(mentionCandidates(agents, 'zz', 'me')).toEqual([]);
  });

  it('completes the mention to the full name and puts the caret after it', () => {
    const text = 'Ask @da about it';
    const query = mentionAt(text, 7) as NonNullable<ReturnType<typeof mentionAt>>;
    expect(completeMention(text, 7, query, 'Dana Lee')).toEqual({
      text: 'Ask @Dana Lee about it',
      caret: 14,
    });
  });
});
