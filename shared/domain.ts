/**
 * Parley's domain as the app sees it: what the local store holds and what crosses the bridge. The
 * API's wire shapes live in electron/core/api/schemas.ts; the reconciler maps them to these.
 * Times are epoch milliseconds. Service and status fields keep unknown values the service may add.
 */
export const KNOWN_SERVICES = ['iMessage', 'SMS', 'RCS'] as const;
export type Service = (typeof KNOWN_SERVICES)[number] | (string & {});

export const REACTION_KINDS = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'] as const;
export type ReactionKind = (typeof REACTION_KINDS)[number];

/**
 * Where a message stands, for the UI: `queued`/`sending` live only in the outbox; the service's
 * `delivery_status` values follow; `failed` is a permanent outbox failure kept for retry/discard.
 */
export type MessageState =
  | 'queued'
  | 'sending'
  | 'pending'
  | 'delivered'
  | 'service_unavailable'
  | 'paused'
  | 'rate_limit_exceeded'
  | 'failed'
  // V3 delivery_status values
  | 'sent'
  | 'read'
  | 'received'
  | (string & {});

/** Which API version a record came from; absent means V2. */
export type ApiVersion = 'v2' | 'v3';

/** V3: a chat's standing with its recipients (OPTED_OUT: they asked you to stop). */
export interface ChatHealth {
  status: 'HEALTHY' | 'AT_RISK' | 'CRITICAL' | 'OPTED_OUT' | (string & {});
  docUrl: string | null;
  updatedAt: number | null;
}

/** V3: a line's sending reputation. */
export interface LineReputation {
  status: 'HEALTHY' | 'AT_RISK' | 'CRITICAL' | (string & {});
  docUrl: string | null;
}

/** V3: a message is an ordered list of parts; `text` and `attachments` stay their flattened view. */
export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'media'; attachment: Attachment }
  | { type: 'link'; url: string }
  /** A part kind this app does not show (an iMessage app card, a voice memo…). */
  | { type: 'unknown'; kind: string };

export interface MessageReplyTo {
  /** The V3 id of the message replied to. */
  messageId: string;
  partIndex: number;
}

export interface MessageEffect {
  type: 'screen' | 'bubble' | (string & {});
  name: string;
}

/**
 * What the next message carries besides its words and files (V3 only): the message it answers (by
 * its key), its effect and the service asked for. Part of the draft, so whatever gives a draft back
 * (undo send, editing a scheduled message, a reload) gives these back too. Absent: not chosen.
 */
export interface DraftOptions {
  replyTo?: { messageKey: string; partIndex?: number };
  effect?: MessageEffect;
  preferredService?: (typeof KNOWN_SERVICES)[number];
}

/** V3: why the service could not deliver a message (`message.failed`); see shared/delivery-failures.ts. */
export interface DeliveryFailure {
  code: string;
  reason: string | null;
}

export interface Line {
  id: number;
  phoneNumber: string;
  forwardingNumber: string | null;
  responseRate: number | null;
  userName: string | null;
  userEmail: string | null;
  /** V3 phone-number record id. */
  v3Id?: string;
  reputation?: LineReputation | null;
}

export interface Handle {
  id: number;
  identifier: string;
  service: Service;
  joinedAt: number | null;
  isMe: boolean;
  /** The contact's full name when the handle matches a contact. */
  contactName: string | null;
}

export interface Attachment {
  id: string;
  url: string;
  filename: string;
  mimeType: string;
  size: number | null;
}

export interface Reaction {
  id: number;
  messageId: number;
  kind: ReactionKind | (string & {});
  fromMe: boolean;
  from: string;
  at: number;
  /** V3: the part reacted to. */
  partIndex?: number;
  /** V3: the emoji of a `custom` reaction. */
  customEmoji?: string | null;
}

export interface MessageError {
  code: string;
  message: string;
  retryable: boolean;
}

export interface Message {
  /** Stable key: the outbox's key for messages sent here, else `m<id>`. Never changes. */
  key: string;
  /** The service's id; null until the service has accepted the message. */
  id: number | null;
  chatId: number;
  text: string;
  sentAt: number;
  deliveredAt: number | null;
  state: MessageState;
  editedAt: number | null;
  isRead: boolean;
  fromMe: boolean;
  /** Phone number or email of the sender. */
  sender: string;
  senderName: string | null;
  attachments: Attachment[];
  reactions: Reaction[];
  error: MessageError | null;
  apiVersion?: ApiVersion;
  /** V3 message id (UUID). */
  v3Id?: string;
  /** V3: the message's parts in order. */
  parts?: MessagePart[];
  replyTo?: MessageReplyTo | null;
  effect?: MessageEffect | null;
  failure?: DeliveryFailure | null;
  /** V3: the service the message went over (null until known). */
  service?: Service | null;
  readAt?: number | null;
}

export interface MessagePreview {
  text: string;
  fromMe: boolean;
  senderName: string | null;
  at: number;
  state: MessageState;
  attachmentCount: number;
}

export interface Chat {
  id: number;
  lineId: number;
  /** The service's display name (group name, else participants' names or numbers). */
  displayName: string;
  service: Service;
  isGroup: boolean;
  /**
   * V2: the service's count. V3 has none: the messages stored, once the chat's whole history is
   * (null until then, rather than a number that is not the chat's).
   */
  messageCount: number | null;
  handles: Handle[];
  lastActivityAt: number;
  lastMessage: MessagePreview | null;
  unreadCount: number;
  pinned: boolean;
  archived: boolean;
  /** Marked unread locally (never sent to the service). */
  markedUnread: boolean;
  /** Identifiers of customers typing right now. */
  typing: string[];
  v3ChatId: string | null;
  apiVersion?: ApiVersion;
  health?: ChatHealth | null;
}

export interface ContactOwner {
  id: number;
  email: string;
  name: string;
}

export interface Contact {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  company: string;
  title: string;
  location: string;
  imageUrl: string | null;
  owner: ContactOwner | null;
  createdAt: number | null;
  updatedAt: number | null;
}

export interface Call {
  id: string;
  from: string;
  to: string;
  status: 'completed' | 'missed' | 'voicemail' | 'failed' | (string & {});
  direction: 'inbound' | 'outbound' | (string & {});
  startedAt: number | null;
  endedAt: number | null;
  durationSeconds: number;
  forwardedFrom: string | null;
  voicemail: boolean;
  transcript: string | null;
  summary: string | null;
  recordingUrl: string | null;
  /** The chat with this caller on this line, when one exists. */
  chatId: number | null;
}

export type SyncPhase = 'idle' | 'initial' | 'incremental' | 'offline' | 'error';

export interface SyncStatus {
  phase: SyncPhase;
  chatsKnown: number;
  chatsWithMessages: number;
  lastSyncedAt: number | null;
  error: string | null;
}

export type ConnectionState = 'live' | 'polling' | 'reconnecting' | 'offline';

export interface ConnectionStatus {
  state: ConnectionState;
  reason: string | null;
}
