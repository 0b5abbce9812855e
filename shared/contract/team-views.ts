/**
 * What the team inbox shows (issue #19), as the core hands it to the renderer: the team's agents
 * and their availability, who is in which conversation doing what, who owns each conversation, the
 * team's settings, notes and shared replies. Only a workspace joined to its team's relay has a
 * team: elsewhere every `team.*` method fails with `not_available`.
 */

export const TEAM_AVAILABILITIES = ['available', 'busy', 'away'] as const;
export type TeamAvailability = (typeof TEAM_AVAILABILITIES)[number];
/** What an agent does in a conversation: reading it, writing a reply, writing a team note. */
export const TEAM_CHAT_ACTIVITIES = ['viewing', 'typing', 'noting'] as const;
export type TeamChatActivity = (typeof TEAM_CHAT_ACTIVITIES)[number];

/**
 * The code of a message the relay held back at send time (state `failed`, `error.code`): a
 * teammate replied, or the customer wrote, since what the composer showed. `error.message` says
 * what ("Dana replied 20 s ago: …"); the message is not sent and stays until `team.answerHeld`.
 */
export const SEND_HELD_CODE = 'send_held';

/** An admin changes the team's settings; an agent sees them (the relay's operator decides who is which). */
export const TEAM_ROLES = ['admin', 'agent'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface TeamAgent {
  id: string;
  name: string;
  role: TeamRole;
  /** `offline`: no desktop of this agent is connected (or it stopped saying so). */
  availability: TeamAvailability | 'offline';
  /** This desktop's own agent. */
  me: boolean;
}

/** Who is in one conversation now, doing what (busiest first: typing, noting, viewing). */
export interface TeamChatPresence {
  chatId: number;
  agents: Array<{ agentId: string; name: string; activity: TeamChatActivity }>;
}

export interface TeamAssignment {
  chatId: number;
  /** Null: unassigned. */
  assignee: string | null;
  assigneeName: string | null;
  status: 'open' | 'done';
  /** Who made the last change, and when. */
  by: string;
  byName: string;
  at: number;
  /** A hand-off's note to the new assignee. */
  note: string | null;
}

export interface TeamSettingsView {
  /** A reply assigns an unassigned conversation to the agent who replied. */
  replyAssignsToReplier: boolean;
  /** A customer's message in a done conversation reopens it to its assignee. */
  customerMessageReopens: boolean;
  /** Only the assignee's composer is enabled; the others see who owns it, and "Take over". */
  assigneeOnlyComposer: boolean;
  /** New conversations are assigned in turn among the agents who are available. */
  roundRobin: boolean;
  /** Every agent may edit the team's replies; otherwise only admins. */
  everyoneEditsTeamReplies: boolean;
}

/** The views' counts over this desktop's conversations. */
export interface TeamCounts {
  mine: number;
  unassigned: number;
  all: number;
}

/** The whole picture, once (`team.state`); `team.changed` tells every change after it. */
export interface TeamState {
  me: { id: string; name: string };
  /** The availability this agent chose (what it shows may be `away` after idling: see `agents`). */
  myAvailability: TeamAvailability;
  agents: TeamAgent[];
  /** Only conversations somebody is in. */
  presence: TeamChatPresence[];
  /** Only conversations with an assignment (the others are unassigned and open). */
  assignments: TeamAssignment[];
  settings: TeamSettingsView;
  counts: TeamCounts;
}

/**
 * A change of the team picture: each field present is what changed. `presence` lists each
 * conversation whose presence changed, an empty `agents` meaning nobody is there any more;
 * `assignments` the changed ones, `unassigned` the chats whose assignment is gone.
 */
export interface TeamChanged {
  agents?: TeamAgent[];
  presence?: TeamChatPresence[];
  assignments?: TeamAssignment[];
  unassigned?: number[];
  settings?: TeamSettingsView;
  counts?: TeamCounts;
  /** The team's shared replies, all of them, when any changed. */
  replies?: TeamCannedReply[];
  /** Team notes just written (by anyone, this agent too), for the open timeline. */
  notes?: TeamNote[];
}

/** A team note on a conversation's timeline: every agent sees it; it is never sent to the customer. */
export interface TeamNote {
  /** Its place in the team's stream (notes of a chat come oldest first). */
  seq: number;
  chatId: number;
  author: string;
  authorName: string;
  text: string;
  /** The agents it names with `@`. */
  mentions: string[];
  at: number;
  mine: boolean;
}

/** A teammate named this agent in a note: worded for a notification, and where to open. */
export interface TeamMentionNotice {
  chatId: number;
  noteSeq: number;
  from: string;
  fromName: string;
  /** "Dana mentioned you". */
  title: string;
  /** The note's start. */
  body: string;
  at: number;
}

/** A canned reply the whole team shares (beside each agent's own, `canned.list`). */
export interface TeamCannedReply {
  id: string;
  title: string;
  body: string;
  updatedBy: string;
  updatedByName: string;
  updatedAt: number;
}
