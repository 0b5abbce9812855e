/**
 * The team layer as the renderer holds it. Until the contract's `team.*` views are merged these
 * mirror the team layer's wire shapes (electron/core/team/wire.ts); the actions map the core's
 * answers onto them, so views never import the core.
 */
export type Availability = 'available' | 'busy' | 'away';
export type ChatActivity = 'viewing' | 'typing' | 'noting';

export interface TeamAgent {
  id: string;
  name: string;
  /** null: no live presence (offline, or its heartbeats went stale). */
  availability: Availability | null;
}

export interface TeamAssignment {
  chatId: number;
  assignee: string | null;
  status: 'open' | 'done';
  by: string;
  at: number;
  note?: string;
}

export interface TeamSettingsView {
  replyAssignsToReplier: boolean;
  customerMessageReopens: boolean;
  assigneeOnlyComposer: boolean;
  roundRobin: boolean;
}

export interface TeamPresenceEntry {
  agentId: string;
  activity: ChatActivity;
}

export interface TeamState {
  me: string;
  /** The availability this agent chose (what the switch shows; idle turns it away on its own). */
  myAvailability: Availability;
  agents: TeamAgent[];
  /** Per chat: who is there, doing what. */
  presence: Record<number, TeamPresenceEntry[]>;
  assignments: Record<number, TeamAssignment>;
  settings: TeamSettingsView;
  cannedReplies: TeamCannedReply[];
}

export interface TeamCannedReply {
  id: string;
  title: string;
  body: string;
  updatedBy: string;
  at: number;
}

export interface TeamNote {
  seq: number;
  chatId: number;
  author: string;
  authorName: string;
  text: string;
  mentions: string[];
  at: number;
}

export interface TeamMention {
  seq: number;
  chatId: number;
  from: string;
  fromName: string;
  preview: string;
  at: number;
}

/** A send the relay held: what the agent had not seen, newest last. */
export interface HeldSend {
  /** The held message's client key: "Send anyway" and "Discard" name it. */
  key: string;
  latest: { kind: 'customer_message' | 'reply'; agentId: string | null; preview: string; at: number };
  unseenCount: number;
}
