/** The sandbox's in-memory model of one Partner Messaging Service deployment. */

export const SERVICES = ['iMessage', 'SMS', 'RCS'] as const;
export type Service = (typeof SERVICES)[number];

export const REACTION_TYPES = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const WEBHOOK_EVENTS = [
  'message.sent',
  'message.received',
  'message.read',
  'call.completed',
  'reaction.sent',
  'reaction.received',
  'typing_indicator.received',
  'typing_indicator.removed',
  'chat.created',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'participant.added',
  'participant.removed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** V3 event types (V3-DECISIONS): the spec's V3 list plus the decided ones. */
export const V3_WEBHOOK_EVENTS = [
  'message.sent',
  'message.received',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.edited',
  'reaction.added',
  'reaction.removed',
  'participant.added',
  'participant.removed',
  'chat.created',
  'chat.typing_indicator.started',
  'chat.typing_indicator.stopped',
  'chat.group_name_updated',
  'chat.group_icon_updated',
  'chat.group_name_update_failed',
  'chat.group_icon_update_failed',
  'phone_number.status_updated',
] as const;
export type V3WebhookEventType = (typeof V3_WEBHOOK_EVENTS)[number];

/** Which API family an event or a subscription belongs to. */
export type EventFamily = 'v2' | 'v3';

export const HEALTH_STATUSES = ['HEALTHY', 'AT_RISK', 'CRITICAL', 'OPTED_OUT'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];
export const REPUTATION_STATUSES = ['HEALTHY', 'AT_RISK', 'CRITICAL'] as const;
export type ReputationStatus = (typeof REPUTATION_STATUSES)[number];

/** A V3 message part as stored; media parts point at a stored attachment. */
export type StoredPart =
  | { type: 'text'; value: string; mention: string | null }
  | { type: 'media'; attachment: Attachment }
  | { type: 'link'; value: string };

/** Why a message failed (V3 codes from the 3xxx/4xxx tables). */
export interface MessageFailure {
  code: number;
  reason: string;
  at: number;
}

export type DeliveryStatus =
  'pending' | 'delivered' | 'service_unavailable' | 'paused' | 'rate_limit_exceeded';

export interface User {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  admin: boolean;
}

export interface Line {
  id: number;
  phoneNumber: string;
  forwardingNumber: string | null;
  responseRate: number;
  userId: number | null;
  /** Control API: while paused, sends from this line stay `paused`. */
  paused: boolean;
  /** New chats this line may create per UTC day before `rate_limit_exceeded`. */
  dailyChatQuota: number;
  chatsCreated: { day: string; count: number };
  /** V3 line reputation; CRITICAL lines are refused for sending (2027). */
  reputation: ReputationStatus;
  reputationUpdatedAt: number;
}

export interface Contact {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  company: string;
  title: string;
  location: string;
  imageUrl: string | null;
  ownerId: number;
  createdAt: number;
  updatedAt: number;
}

export interface Handle {
  id: number;
  identifier: string;
  service: Service;
  joinedAt: number;
  /** The organization's own line in this chat. */
  isMe: boolean;
  departedAt: number | null;
}

export interface Attachment {
  id: string;
  url: string;
  filename: string;
  mimeType: string;
  fileSize: number;
}

export interface Reaction {
  id: number;
  messageId: number;
  /** V2 shows only the six classic types; `custom` and `sticker` are V3's. */
  type: ReactionType | 'custom' | 'sticker';
  customEmoji: string | null;
  partIndex: number;
  isFromMe: boolean;
  fromPhone: string;
  handleId: number;
  sentAt: number;
  createdAt: number;
  updatedAt: number;
}

export interface Message {
  id: number;
  chatId: number;
  text: string;
  sentAt: number;
  deliveredAt: number | null;
  deliveryStatus: DeliveryStatus;
  editedAt: number | null;
  isRead: boolean;
  readAt: number | null;
  sentFrom: string;
  handleId: number;
  attachments: Attachment[];
  reactions: Reaction[];
  idempotencyKey: string | null;
  outbound: boolean;
  /** V3 parts when the message was sent through V3 (else derived from text and attachments). */
  parts: StoredPart[] | null;
  /** When the service handed it to the carrier (V3 `sent`); null before. */
  transmittedAt: number | null;
  failure: MessageFailure | null;
  replyTo: { messageId: number; partIndex: number } | null;
  effect: { type: 'screen' | 'bubble'; name: string } | null;
  preferredService: Service | null;
  /** V3 edits so far (at most 5 within 15 minutes of sending). */
  editCount: number;
  /** The request that sent it: its later events carry this trace id. */
  traceId: string | null;
}

export interface Chat {
  id: number;
  lineId: number;
  displayName: string | null;
  service: Service;
  group: boolean;
  handles: Handle[];
  /** Live (not deleted) messages, ordered by (sentAt, id). */
  messages: Message[];
  createdAt: number;
  lastActivityAt: number;
  /** Created through V3 (always reachable there, even an SMS group). */
  v3Native: boolean;
  health: { status: HealthStatus; updatedAt: number };
  /** The organization's line left the group (V3 leave): no more interaction (2013). */
  left: boolean;
  /** Until when the organization's own typing indicator shows (null when off). */
  orgTypingUntil: number | null;
  /** Customers currently shown typing: identifier → cancel the 60 s expiry. */
  customerTyping: Map<string, () => void>;
}

export interface Subscription {
  id: number;
  /** Created through V2 (V2 events, whatever `version`) or through V3 (V3 events, Standard Webhooks). */
  family: EventFamily;
  webhookUrl: string;
  version: number;
  events: string[];
  /** V3: only events of chats on these lines (empty: all). */
  phoneNumbers: string[];
  active: boolean;
  secret: string | null;
  lastDeliveredAt: number | null;
  deliveryAttempts: number;
  createdAt: number;
  updatedAt: number;
}

export interface Call {
  id: string;
  lineId: number;
  to: string;
  from: string;
  status: 'completed' | 'missed' | 'voicemail' | 'failed';
  direction: 'inbound' | 'outbound';
  startTime: number;
  endTime: number;
  forwardedFrom: string | null;
  answeredBy: string | null;
  recording: {
    id: string;
    url: string;
    duration: number;
    transcription: string | null;
    summary: string | null;
  } | null;
}

/** A simulated customer: how the outside world behaves for one handle. */
export interface Persona {
  identifier: string;
  firstName: string;
  lastName: string;
  imessage: boolean;
  rcs: boolean;
  /** Unreachable customers make messages end `service_unavailable`. */
  reachable: boolean;
  /** Whether the simulated customer answers what is sent to them. */
  autoReply: boolean;
  /** Control API: every send to this customer fails with this V3 code (absent or null: none). */
  failCode?: number | null;
}

export interface OrgFeatures {
  shareContact: boolean;
  /** Automatic typing indicators disabled by the operator, so start/stop typing are honoured. */
  manualTyping: boolean;
}

export interface Org {
  id: number;
  name: string;
  token: string;
  users: User[];
  lines: Line[];
  contacts: Map<number, Contact>;
  /** phone number or email → the lowest-id contact with it; rebuilt whenever contacts change. */
  contactIndex: Map<string, number>;
  chats: Map<number, Chat>;
  /** message id → chat id, for routes addressed by message id alone. */
  messageIndex: Map<number, number>;
  /** Deleted messages, kept so a replayed idempotency key still answers with its message. */
  deletedMessages: Map<number, Message>;
  idempotency: Map<string, { chatId: number; messageId: number }>;
  subscriptions: Map<number, Subscription>;
  calls: Call[];
  features: OrgFeatures;
  lastAvailabilityCheckAt: number | null;
  /** Control API: the next sends fail with these V3 codes, one each, in order. */
  nextSendFailures: number[];
  /** V3 presigned uploads by attachment id. */
  uploads: Map<string, Upload>;
  /** V3 id → the entity it names (filled as ids are handed out, rebuilt on a miss). */
  v3Index: Map<string, { kind: V3Kind; id: number }>;
}

export type V3Kind = 'org' | 'chat' | 'message' | 'handle' | 'line' | 'subscription';

export interface Upload {
  id: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  createdAt: number;
  expiresAt: number;
  status: 'pending' | 'complete' | 'failed';
  attachment: Attachment | null;
}

/** The V3-only fields of a message that V2 sends, receipts and seeded history start with. */
export function plainMessageFields(): Pick<
  Message,
  'parts' | 'transmittedAt' | 'failure' | 'replyTo' | 'effect' | 'preferredService' | 'editCount' | 'traceId'
> {
  return {
    parts: null,
    transmittedAt: null,
    failure: null,
    replyTo: null,
    effect: null,
    preferredService: null,
    editCount: 0,
    traceId: null,
  };
}
