/** Shapes that exist only at the bridge: what the UI is shown of workspaces, settings, live status. */
import type {
  ApiVersion,
  Call,
  Chat,
  Contact,
  ConnectionStatus,
  DraftOptions,
  Line,
  Message,
  SyncStatus,
} from '../domain.ts';
import type { StagedAttachment } from './staged.ts';

/** Kept here too, where the other views are: the one definition lives in staged.ts. */
export type { StagedAttachment } from './staged.ts';

export interface WorkspaceInfo {
  id: string;
  name: string;
  /** `relay`: joined through the team's relay (no token on this desktop). */
  kind: 'demo' | 'remote' | 'relay';
  /** null for the demo (its sandbox runs on a new port each launch) and a joined workspace. */
  baseUrl: string | null;
  /** The team relay's address, for a joined workspace; else null. */
  relayUrl: string | null;
  tokenHeader: string;
  /** Which API its chats and messages go through (contacts always use V2). */
  apiVersion: ApiVersion;
  active: boolean;
}

/** Whether an API version takes the token; when not, the service's answer in words. */
export type VersionAvailability = { works: true } | { works: false; reason: string };

/** What probing a token both ways found, before a workspace is connected (nothing is stored). */
export interface ApiVersionCheck {
  /** The lines (phone numbers) the token reaches. */
  lines: number;
  v2: VersionAvailability;
  v3: VersionAvailability;
  /** What `workspaces.add` uses when not told: V3, the service's current API, where it works. */
  recommended: ApiVersion;
}

export interface WorkspaceList {
  workspaces: WorkspaceInfo[];
  activeId: string | null;
}

export type Theme = 'light' | 'dark' | 'system';
export type TypingMode = 'automatic' | 'manual';
export type TunnelProvider = 'direct' | 'ngrok' | 'cloudflare' | 'custom';

/** The settings the UI may read and change (window geometry stays with the host). */
export interface PublicSettings {
  theme: Theme;
  typingMode: TypingMode;
  notifications: { enabled: boolean; showPreview: boolean; sound: boolean };
  /** The active workspace's sync options. */
  sync: {
    pollIntervalMs: number;
    backgroundPollIntervalMs: number;
    webhooksEnabled: boolean;
    tunnel: { provider: TunnelProvider; customPublicUrl: string | null };
  };
  /** Where the agent was in the active workspace (restored on reload and restart). */
  place: Place | null;
}

/** The open chat and the message at the top of its view (null: scrolled to the newest). */
export interface Place {
  chatId: number;
  topKey: string | null;
}

export interface LineWithUnread extends Line {
  /** Chats on this line with unread inbound messages (or marked unread). */
  unreadChats: number;
}

export interface MessagePage {
  /** Oldest first. */
  messages: Message[];
  /** More is stored locally before the first message. */
  hasMoreLocal: boolean;
  /** The service has nothing older than what is stored. */
  historyComplete: boolean;
}

export interface SearchHitView {
  message: Message;
  chat: Chat | null;
  /** Message text with matches between \u0002 and \u0003. */
  snippet: string;
}

export interface SearchResults {
  chats: Chat[];
  contacts: Contact[];
  messages: SearchHitView[];
  /** Private notes (the agent's own, never sent). */
  notes: NoteHit[];
}

/** A chat's unsent message: the composer's whole state for it (absent fields: none). */
export interface Draft extends DraftOptions {
  text: string;
  attachments: StagedAttachment[];
  /** Links the service will download and send as attachments. */
  attachmentUrls?: string[];
}

/** The connection (offline whenever the service cannot be reached) with the push path's and the sync's details. */
export interface LiveStatus extends ConnectionStatus {
  /** `relay`: a joined workspace, whose live events come from its team's relay. */
  provider: TunnelProvider | 'relay';
  publicUrl: string | null;
  lastEventAt: number | null;
  subscription: {
    id: number;
    active: boolean;
    deliveryAttempts: number;
    lastDeliveredAt: number | null;
  } | null;
  sync: SyncStatus;
  /** How often polling runs now, in ms (faster while webhooks are down). */
  pollIntervalMs: number;
}

export interface AppInfo {
  name: string;
  version: string;
  host: 'electron' | 'browser';
  platform: string;
  /** The active workspace is the simulated demo. */
  demo: boolean;
  /** The active workspace's API version (null: none open). */
  apiVersion: ApiVersion | null;
}

export interface ChatDetails {
  chat: Chat;
  line: Line | null;
  calls: Call[];
}

export interface IncomingNotice {
  chatId: number;
  messageKey: string;
  title: string;
  /** Empty when previews are turned off. */
  body: string;
}

// ── the agent's workbench ─────────────────────────────────────────────────────────────────────

export interface CannedAttachment {
  id: number;
  filename: string;
  mimeType: string;
  size: number;
}

export interface CannedReply {
  id: number;
  title: string;
  /** The template: text with `{variable|fallback}` placeholders (see shared/workbench.ts). */
  body: string;
  /** '' when the reply is in no group. */
  group: string;
  attachments: CannedAttachment[];
  updatedAt: number;
}

/** A private note: never sent. On a chat's timeline, or on a contact. */
export interface Note {
  id: number;
  chatId: number | null;
  contactId: number | null;
  text: string;
  createdAt: number;
  updatedAt: number;
}

export interface NoteHit {
  note: Note;
  /** The note's chat; for a note on a contact, their latest chat (null when they have none). */
  chat: Chat | null;
  /** Note text with matches between \u0002 and \u0003. */
  snippet: string;
}

/** A conversation whose last message is the customer's. */
export interface WaitingChat {
  chat: Chat;
  /** When that message arrived. */
  since: number;
}

export interface WorkbenchSettings {
  /** The agent's own name, for `{agent_name}`. */
  agentName: string;
  /** Waits at least this long are overdue; 0 turns the marking off. */
  overdueMinutes: number;
  /** Undo send: a sent message waits this many seconds (0 = off, at most 10) before it goes out. */
  undoSeconds: number;
  /** Do not disturb: no notifications between these wall-clock times ("22:00"–"07:00"); null = off. */
  quietHours: { start: string; end: string } | null;
  /** Lines whose conversations never notify. */
  mutedLineIds: number[];
}

export interface ChatContext {
  /** The contact of a one-to-one chat's customer; null in groups or when the number is no contact. */
  contact: Contact | null;
  line: Line | null;
  /** The chat's notes, oldest first. */
  notes: Note[];
  /** The contact's notes, oldest first. */
  contactNotes: Note[];
}

// ── send later, undo send, snooze ─────────────────────────────────────────────────────────────

/** A message held back from the outbox: scheduled by the agent, or in its undo grace period. */
export interface ScheduledSend {
  id: number;
  chatId: number;
  kind: 'scheduled' | 'grace';
  text: string;
  attachments: StagedAttachment[];
  attachmentUrls: string[];
  dueAt: number;
  /** It fell due while Parley was not running: it waits for the agent to send or cancel it. */
  needsConfirmation: boolean;
  createdAt: number;
}

export interface ChatSnooze {
  chatId: number;
  until: number;
  snoozedAt: number;
  /** When it came back to the inbox (null while snoozed), and why. */
  wokeAt: number | null;
  wokeBy: 'time' | 'reply' | null;
}

export interface SnoozedChat {
  chat: Chat;
  snooze: ChatSnooze;
}
