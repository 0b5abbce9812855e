/** Shapes that exist only at the bridge: what the UI is shown of workspaces, settings, live status. */
import type { Call, Chat, Contact, Line, Message, SyncStatus } from '../domain.ts';

export interface WorkspaceInfo {
  id: string;
  name: string;
  kind: 'demo' | 'remote';
  /** null for the demo (its sandbox runs on a new port each launch). */
  baseUrl: string | null;
  tokenHeader: string;
  active: boolean;
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
}

export interface StagedAttachment {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  /** An app-owned URL the renderer can show as a preview (images, video). */
  previewUrl: string;
}

export interface Draft {
  text: string;
  attachments: StagedAttachment[];
}

export interface LiveStatus {
  state: 'live' | 'polling' | 'reconnecting' | 'offline';
  reason: string | null;
  provider: TunnelProvider;
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
