/**
 * What the team inbox shows, computed from the team state the core sends (pure, unit-tested in
 * test/unit/renderer/team-view.test.ts): the Mine / Unassigned / All views and their counts, who is
 * in a conversation (avatars, busiest activity first, never the agent itself). Off the inbox's
 * boot path (it loads with the first team view); the list's own filter is in store/team-slice.ts.
 */

import type { TeamView } from '../store/team-slice.ts';

export type { TeamView };
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
