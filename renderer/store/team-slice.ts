/**
 * The team inbox on a workspace joined to a relay: the team picture (lib/team-state.ts), the
 * inbox's assignment view, team notes per conversation and the team's shared replies (a
 * mention is told as it comes: a notification, a toast, the live region). `team` is null on any other workspace: then no team view shows at all.
 */
import type { StateCreator } from 'zustand';
import type { TeamCannedReply, TeamNote } from '../../shared/contract/team-views.ts';
import type { ChatPresence, TeamPicture } from '../lib/team-state.ts';
import type { Store } from './index.ts';

/** The inbox's assignment views. */
export type TeamView = 'all' | 'mine' | 'unassigned';

export interface TeamSlice {
  /** The joined workspace's team (null: not joined to a relay, or not loaded yet). */
  team: TeamPicture | null;
  /** Which assignment view the inbox shows. */
  teamView: TeamView;
  /** Per chat: its team notes, oldest first. */
  teamNotes: Record<number, TeamNote[]>;
  teamReplies: TeamCannedReply[];
  setTeam(team: TeamPicture | null): void;
  setTeamView(view: TeamView): void;
  setTeamNotes(chatId: number, notes: TeamNote[]): void;
  setTeamReplies(replies: TeamCannedReply[]): void;
  resetTeam(): void;
}

const initial = {
  team: null,
  teamView: 'all' as TeamView,
  teamNotes: {},
  teamReplies: [],
};

export const createTeamSlice: StateCreator<Store, [], [], TeamSlice> = (set) => ({
  ...initial,
  setTeam: (team) => set((s) => ({ team, teamView: team ? s.teamView : 'all' })),
  setTeamView: (teamView) => set({ teamView }),
  setTeamNotes: (chatId, notes) => set((s) => ({ teamNotes: { ...s.teamNotes, [chatId]: notes } })),
  setTeamReplies: (teamReplies) => set({ teamReplies }),
  resetTeam: () => set(initial),
});

// Selectors for rows and headers (on the boot path, unlike the picture's reducers).

/** A conversation's assignee (null: unassigned, or no team). */
export function assigneeOf(team: TeamPicture | null, chatId: number): string | null {
  return team?.assignments[chatId]?.assignee ?? null;
}

const NO_ONE: ChatPresence = [];
export function presenceIn(team: TeamPicture | null, chatId: number): ChatPresence {
  return team?.presence[chatId] ?? NO_ONE;
}

export function agentName(team: TeamPicture | null, agentId: string): string {
  return team?.agents.find((a) => a.id === agentId)?.name ?? agentId;
}

/** The list's chats in one view, in the list's order (All: the list as it is). */
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

/** The inbox's chats in the team's view; all of them on a workspace without a team. */
export function chatIdsInView(s: Store): readonly number[] {
  const team = s.team;
  if (!team) return s.chatIds;
  return chatsInView(s.chatIds, s.teamView, (id) => assigneeOf(team, id), team.me);
}
