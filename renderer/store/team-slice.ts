/**
 * The team inbox on a workspace joined to a relay: who the agent is, its teammates and their
 * availability, who is in which conversation, who owns which, held sends, team notes and team
 * replies. `team` is null on any other workspace: then no team view shows at all.
 */
import type { StateCreator } from 'zustand';
import type { TeamView } from '../lib/team-view.ts';
import type { Store } from './index.ts';
import type {
  HeldSend,
  TeamAssignment,
  TeamCannedReply,
  TeamMention,
  TeamNote,
  TeamPresenceEntry,
  TeamState,
} from './team-types.ts';

export interface TeamSlice {
  /** The joined workspace's team (null: not joined to a relay, or not loaded yet). */
  team: TeamState | null;
  /** Which assignment view the inbox shows. */
  teamView: TeamView;
  /** Per chat: the held send the composer shows with "Send anyway" and "Discard". */
  heldSends: Record<number, HeldSend>;
  /** Per chat: its team notes, oldest first. */
  teamNotes: Record<number, TeamNote[]>;
  /** Mentions of this agent not yet opened, newest first. */
  mentions: TeamMention[];
  setTeam(team: TeamState | null): void;
  setTeamView(view: TeamView): void;
  setHeldSend(chatId: number, held: HeldSend | null): void;
  setTeamNotes(chatId: number, notes: TeamNote[]): void;
  addMention(mention: TeamMention): void;
  dismissMentions(chatId: number): void;
  resetTeam(): void;
}

const initial = {
  team: null,
  teamView: 'all' as TeamView,
  heldSends: {},
  teamNotes: {},
  mentions: [],
};

export const createTeamSlice: StateCreator<Store, [], [], TeamSlice> = (set) => ({
  ...initial,
  setTeam: (team) => set((s) => ({ team, teamView: team ? s.teamView : 'all' })),
  setTeamView: (teamView) => set({ teamView }),
  setHeldSend: (chatId, held) =>
    set((s) => {
      const heldSends = { ...s.heldSends };
      if (held) heldSends[chatId] = held;
      else delete heldSends[chatId];
      return { heldSends };
    }),
  setTeamNotes: (chatId, notes) => set((s) => ({ teamNotes: { ...s.teamNotes, [chatId]: notes } })),
  addMention: (mention) =>
    set((s) => (s.mentions.some((m) => m.seq === mention.seq) ? s : { mentions: [mention, ...s.mentions] })),
  dismissMentions: (chatId) => set((s) => ({ mentions: s.mentions.filter((m) => m.chatId !== chatId) })),
  resetTeam: () => set(initial),
});

/** Selectors: a conversation's assignee (null: unassigned, or no team) and its presence entries. */
export function assigneeOf(team: TeamState | null, chatId: number): string | null {
  return team?.assignments[chatId]?.assignee ?? null;
}

const NO_ONE: readonly TeamPresenceEntry[] = [];
export function presenceIn(team: TeamState | null, chatId: number): readonly TeamPresenceEntry[] {
  return team?.presence[chatId] ?? NO_ONE;
}

export function agentName(team: TeamState | null, agentId: string): string {
  return team?.agents.find((a) => a.id === agentId)?.name ?? agentId;
}

export type { HeldSend, TeamAssignment, TeamCannedReply, TeamMention, TeamNote, TeamState };
