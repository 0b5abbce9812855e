/**
 * What the team inbox shows, computed from the team state the core sends (pure, unit-tested in
 * test/unit/renderer/team-view.test.ts): the Mine / Unassigned / All views and their counts, who is
 * in a conversation (avatars, busiest activity first, never the agent itself), how old a
 * teammate's reply is in words as it ages, and the `@name` being typed in a note.
 */

export type TeamView = 'all' | 'mine' | 'unassigned';
export type PresenceActivity = 'viewing' | 'typing' | 'noting';

export interface ViewCounts {
  all: number;
  mine: number;
  unassigned: number;
}

/** Each chat of the list in the views; `assigneeOf` answers null for an unassigned one. */
export function countViews(
  chatIds: readonly number[],
  assigneeOf: (chatId: number) => string | null,
  me: string,
): ViewCounts {
  const counts: ViewCounts = { all: chatIds.length, mine: 0, unassigned: 0 };
  for (const chatId of chatIds) {
    const assignee = assigneeOf(chatId);
    if (assignee === null) counts.unassigned += 1;
    else if (assignee === me) counts.mine += 1;
  }
  return counts;
}

/** The list's chats in one view, in the list's order. */
export function chatsInView(
  chatIds: readonly number[],
  view: TeamView,
  assigneeOf: (chatId: number) => string | null,
  me: string,
): readonly number[] {
  if (view === 'all') return chatIds;
  const wanted = view === 'mine' ? me : null;
  return chatIds.filter((chatId) => assigneeOf(chatId) === wanted);
}

export interface PresentAgent {
  agentId: string;
  name: string;
  activity: PresenceActivity;
  /** "Dana is typing a reply". */
  label: string;
}

const ACTIVITY_ORDER: Record<PresenceActivity, number> = { typing: 0, noting: 1, viewing: 2 };
const ACTIVITY_WORDS: Record<PresenceActivity, string> = {
  typing: 'is typing a reply',
  noting: 'is writing a note',
  viewing: 'is viewing',
};

/**
 * The teammates in a conversation, for its avatars: the agent itself left out (it knows where it
 * is), one entry per teammate (its busiest activity: typing, then noting, then viewing), busiest
 * first, then by name.
 */
export function presentTeammates(
  entries: ReadonlyArray<{ agentId: string; activity: PresenceActivity }>,
  me: string,
  nameOf: (agentId: string) => string,
): PresentAgent[] {
  const busiest = new Map<string, PresenceActivity>();
  for (const { agentId, activity } of entries) {
    if (agentId === me) continue;
    const known = busiest.get(agentId);
    if (known === undefined || ACTIVITY_ORDER[activity] < ACTIVITY_ORDER[known])
      busiest.set(agentId, activity);
  }
  return [...busiest]
    .map(([agentId, activity]) => {
      const name = nameOf(agentId);
      return { agentId, name, activity, label: `${name} ${ACTIVITY_WORDS[activity]}` };
    })
    .sort((a, b) => ACTIVITY_ORDER[a.activity] - ACTIVITY_ORDER[b.activity] || a.name.localeCompare(b.name));
}

/** The avatars' words for a screen reader and a tooltip: "Dana is typing a reply, Sam is viewing". */
export function presenceSummary(present: readonly PresentAgent[]): string {
  return present.map((p) => p.label).join(', ');
}

/** "just now", "20 s ago", "3 min ago", "2 h ago": a teammate's reply, as it ages on screen. */
export function agoText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

const AGE = /^(.*? (?:replied|wrote)) (just now|(\d+) s ago|(\d+) min ago|(\d+) h ago)(: [\s\S]*)$/;

/**
 * A held send's words as time passes: the core says what landed when it held the send ("Dana
 * replied 20 s ago: …"); shown later, the age is counted again from `heldAt`, so the composer
 * never says "20 s ago" of a reply minutes old. Words of another form are shown as they came.
 */
export function heldWords(words: string, heldAt: number, now: number): string {
  const match = AGE.exec(words);
  if (!match) return words;
  const [, who, , seconds, minutes, hours, rest] = match;
  const ageThen =
    seconds !== undefined
      ? Number(seconds) * 1000
      : minutes !== undefined
        ? Number(minutes) * 60_000
        : hours !== undefined
          ? Number(hours) * 3_600_000
          : 0;
  return `${who} ${agoText(now - heldAt + ageThen)}${rest}`;
}

export interface MentionQuery {
  /** Where the `@` is in the text. */
  start: number;
  /** What follows it up to the caret, lower-cased. */
  query: string;
}

/**
 * The `@name` the caret is in, if any: an `@` at the start or after a non-word character, followed
 * by at most two words (a full name) and nothing else up to the caret.
 */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}_])@([\p{L}\p{N}_-]*(?: [\p{L}\p{N}_-]*)?)$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query: query.toLowerCase() };
}

/** The teammates a mention query may mean: by name or id starting with it, at most `limit`. */
export function mentionCandidates<T extends { id: string; name: string }>(
  agents: readonly T[],
  query: string,
  me: string,
  limit = 6,
): T[] {
  const q = query.trim().toLowerCase();
  return agents
    .filter((agent) => agent.id !== me)
    .filter((agent) => {
      const name = agent.name.toLowerCase();
      return (
        name.startsWith(q) ||
        name.split(/\s+/).some((word) => word.startsWith(q)) ||
        agent.id.toLowerCase().startsWith(q)
      );
    })
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** The text with the mention at `query` completed to `@Full Name ` and where the caret goes. */
export function completeMention(
  text: string,
  caret: number,
  query: MentionQuery,
  name: string,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  const next = text.slice(0, query.start) + inserted + text.slice(caret).replace(/^ /, '');
  return { text: next, caret: query.start + inserted.length };
}
