/**
 * The team inbox on a workspace joined to a relay: the team picture (lib/team-state.ts), the
 * inbox's assignment view, team notes per conversation, the team's shared replies and the
 * mentions not yet opened. `team` is null on any other workspace: then no team view shows at all.
 */
import type { StateCreator } from 'zustand';
import type { TeamCannedReply, TeamMentionNotice, TeamNote } from '../../shared/contract/team-views.ts';
import type { TeamPicture } from '../lib/team-state.ts';
import type { TeamView } from '../lib/team-view.ts';
import type { Store } from './index.ts';

export interface TeamSlice {
  /** The joined workspace's team (null: not joined to a relay, or not loaded yet). */
  team: TeamPicture | null;
  /** Which assignment view the inbox shows. */
  teamView: TeamView;
  /** Per chat: its team notes, oldest first. */
  teamNotes: Record<number, TeamNote[]>;
  teamReplies: TeamCannedReply[];
  /** Mentions of this agent in conversations not opened since, newest first. */
  mentions: TeamMentionNotice[];
  setTeam(team: TeamPicture | null): void;
  setTeamView(view: TeamView): void;
  setTeamNotes(chatId: number, notes: TeamNote[]): void;
  setTeamReplies(replies: TeamCannedReply[]): void;
  addMention(mention: TeamMentionNotice): void;
  dismissMentions(chatId: number): void;
  resetTeam(): void;
}

const initial = {
  team: null,
  teamView: 'all' as TeamView,
  teamNotes: {},
  teamReplies: [],
  mentions: [],
};

export const createTeamSlice: StateCreator<Store, [], [], TeamSlice> = (set) => ({
  ...initial,
  setTeam: (team) => set((s) => ({ team, teamView: team ? s.teamView : 'all' })),
  setTeamView: (teamView) => set({ teamView }),
  setTeamNotes: (chatId, notes) => set((s) => ({ teamNotes: { ...s.teamNotes, [chatId]: notes } })),
  setTeamReplies: (teamReplies) => set({ teamReplies }),
  addMention: (mention) =>
    set((s) =>
      s.mentions.some((m) => m.noteSeq === mention.noteSeq) ? s : { mentions: [mention, ...s.mentions] },
    ),
  dismissMentions: (chatId) =>
    set((s) =>
      s.mentions.some((m) => m.chatId === chatId)
        ? { mentions: s.mentions.filter((m) => m.chatId !== chatId) }
        : s,
    ),
  resetTeam: () => set(initial),
});
