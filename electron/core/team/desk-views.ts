/**
 * The team as the renderer sees it (shared/contract/team-views.ts), from what a desktop watches
 * (pure): agents with their availability, who is in which chat (busiest first), assignments with
 * names, team notes and replies; and what changed between two pictures, for `team.changed`.
 */
import type {
  TeamAgent,
  TeamRole,
  TeamAssignment,
  TeamCannedReply,
  TeamChatPresence,
  TeamNote as TeamNoteView,
} from '../../../shared/contract/team-views.ts';
import type { WatchedEntry } from './bucket-watch.ts';
import type { TeamPresence } from './presence-view.ts';
import type { Assignment, ChatActivity, TeamNote, TeamReply } from './wire.ts';

export type NameOf = (agentId: string) => string;

const BUSIEST: Record<ChatActivity, number> = { typing: 0, noting: 1, viewing: 2 };

export function agentsView(
  roster: ReadonlyArray<{ id: string; name: string; role?: TeamRole | undefined }>,
  presence: TeamPresence,
  me: string,
  nameOf: NameOf,
): TeamAgent[] {
  const ids = new Set([...roster.map((agent) => agent.id), ...presence.agents.keys(), me]);
  return [...ids]
    .map((id) => ({
      id,
      name: nameOf(id),
      availability: presence.agents.get(id) ?? ('offline' as const),
      me: id === me,
      role: roster.find((agent) => agent.id === id)?.role ?? ('agent' as const),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export function presenceView(presence: TeamPresence, nameOf: NameOf): Map<number, TeamChatPresence> {
  const chats = new Map<number, TeamChatPresence>();
  for (const [chatId, here] of presence.chats)
    chats.set(chatId, {
      chatId,
      agents: [...here]
        .sort((a, b) => BUSIEST[a.activity] - BUSIEST[b.activity] || a.agentId.localeCompare(b.agentId))
        .map(({ agentId, activity }) => ({ agentId, name: nameOf(agentId), activity })),
    });
  return chats;
}

export function assignmentView(assignment: Assignment, nameOf: NameOf): TeamAssignment {
  return {
    chatId: assignment.chatId,
    assignee: assignment.assignee,
    assigneeName: assignment.assignee === null ? null : nameOf(assignment.assignee),
    status: assignment.status,
    by: assignment.by,
    byName: assignment.by === 'relay' ? 'Parley' : nameOf(assignment.by),
    at: assignment.at,
    note: assignment.note ?? null,
  };
}

export function noteView(seq: number, note: TeamNote, me: string): TeamNoteView {
  return { seq, ...note, mine: note.author === me };
}

export function repliesView(
  replies: ReadonlyMap<string, WatchedEntry<TeamReply>>,
  nameOf: NameOf,
): TeamCannedReply[] {
  return [...replies]
    .map(([id, { value }]) => ({
      id,
      title: value.title,
      body: value.body,
      updatedBy: value.updatedBy,
      updatedByName: nameOf(value.updatedBy),
      updatedAt: value.at,
    }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
}

/** The entries of `next` that differ from `previous` (by value), and the keys `next` lost. */
export function changedEntries<K, V>(
  previous: ReadonlyMap<K, V>,
  next: ReadonlyMap<K, V>,
): { changed: V[]; gone: K[] } {
  const changed = [...next].filter(
    ([key, value]) => JSON.stringify(previous.get(key)) !== JSON.stringify(value),
  );
  const gone = [...previous.keys()].filter((key) => !next.has(key));
  return { changed: changed.map(([, value]) => value), gone };
}
