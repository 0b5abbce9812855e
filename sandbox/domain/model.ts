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
  type: ReactionType;
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
  v3ChatId: string | null;
  /** Until when the organization's own typing indicator shows (null when off). */
  orgTypingUntil: number | null;
  /** Customers currently shown typing: identifier → cancel the 60 s expiry. */
  customerTyping: Map<string, () => void>;
}

export interface Subscription {
  id: number;
  webhookUrl: string;
  version: number;
  events: WebhookEventType[];
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
}
