/**
 * The team picture as the renderer keeps it (pure, unit-tested in test/unit/renderer/team-state.test.ts):
 * `team.state` once, indexed by chat for the rows and the header, then each `team.changed` applied
 * in place, every part it does not name kept as the same object (rows re-render only for their chat).
 */
import type {
  TeamAgent,
  TeamAssignment,
  TeamAvailability,
  TeamChanged,
  TeamChatPresence,
  TeamCounts,
  TeamSettingsView,
  TeamState,
} from '../../shared/contract/team-views.ts';

export type ChatPresence = TeamChatPresence['agents'];

export interface TeamPicture {
  me: string;
  myName: string;
  myAvailability: TeamAvailability;
  agents: TeamAgent[];
  /** Per chat: who is there, doing what (only chats somebody is in). */
  presence: Record<number, ChatPresence>;
  /** Per chat: its assignment (only assigned or done chats). */
  assignments: Record<number, TeamAssignment>;
  settings: TeamSettingsView;
  counts: TeamCounts;
}

export function pictureOf(state: TeamState): TeamPicture {
  const me = state.agents.find((a) => a.me);
  return {
    me: state.me.id,
    myName: state.me.name,
    // What this agent chose: the switch shows it (its dot may show away after idling).
    myAvailability: state.myAvailability,
    agents: me
      ? state.agents
      : [...state.agents, { ...state.me, availability: state.myAvailability, me: true, role: 'agent' }],
    presence: Object.fromEntries(state.presence.map((p) => [p.chatId, p.agents])),
    assignments: Object.fromEntries(state.assignments.map((a) => [a.chatId, a])),
    settings: state.settings,
    counts: state.counts,
  };
}

export function applyTeamChanged(picture: TeamPicture, change: TeamChanged): TeamPicture {
  let presence = picture.presence;
  if (change.presence) {
    presence = { ...presence };
    for (const { chatId, agents } of change.presence) {
      if (agents.length === 0) delete presence[chatId];
      else presence[chatId] = agents;
    }
  }
  let assignments = picture.assignments;
  if (change.assignments || change.unassigned) {
    assignments = { ...assignments };
    for (const chatId of change.unassigned ?? []) delete assignments[chatId];
    for (const assignment of change.assignments ?? []) assignments[assignment.chatId] = assignment;
  }
  return {
    ...picture,
    agents: change.agents ?? picture.agents,
    presence,
    assignments,
    settings: change.settings ?? picture.settings,
    counts: change.counts ?? picture.counts,
  };
}
