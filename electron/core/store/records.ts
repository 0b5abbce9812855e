import type {
  ChatHealth,
  Contact,
  DeliveryFailure,
  Line,
  MessageEffect,
  MessageReplyTo,
} from '../../../shared/domain.ts';

/**
 * What the reconciler writes: the service's facts, normalized (numbers for ids, epoch ms for times),
 * whichever way they arrived (poll, send response, webhook). Fields a source does not carry are
 * `undefined` and leave the stored value alone.
 */
export interface HandleRecord {
  id: number;
  identifier: string;
  service: string;
  joinedAt: number | null;
  isMe: boolean;
}

export interface ChatRecord {
  id: number;
  lineId: number;
  displayName?: string;
  service?: string;
  isGroup?: boolean;
  messageCount?: number;
  handles?: HandleRecord[];
  v3ChatId?: string | null;
  /** V3: the chat's health as the service states it. */
  health?: ChatHealth;
}

export interface AttachmentRecord {
  id: string;
  url: string;
  filename: string;
  mimeType: string;
  size: number | null;
}

export interface ReactionRecord {
  id: number;
  messageId: number;
  kind: string;
  fromMe: boolean;
  sender: string;
  at: number;
  /** V3: the part reacted to, and the emoji of a `custom` reaction. */
  partIndex?: number;
  customEmoji?: string | null;
}

export interface MessageRecord {
  id: number;
  chatId: number;
  text?: string;
  sentAt: number;
  deliveredAt?: number | null;
  /** The service's delivery_status; undefined when the source does not say (webhooks). */
  deliveryStatus?: string;
  editedAt?: number | null;
  isRead?: boolean;
  fromMe: boolean;
  sender: string;
  handleId?: number | null;
  attachments?: AttachmentRecord[];
  /** The full current list (REST); undefined when the source does not carry it. */
  reactions?: ReactionRecord[];
  idempotencyKey?: string | null;
  /**
   * The time is the service's to the second only (a V2 delivery): it never replaces a time a read
   * stored, and the message is read again to date it (store/migrations/message-times.ts).
   */
  timeToTheSecond?: true;
  /** V3: the service's reason a message was not delivered (state `failed`). */
  failure?: DeliveryFailure;
  /** V3: the message it replies to, its effect, the address of its link part (null: none). */
  replyTo?: MessageReplyTo | null;
  effect?: MessageEffect | null;
  link?: string | null;
}

/** Contacts and lines arrive complete from every source: the domain shape is the record. */
export type ContactRecord = Contact;

export type LineRecord = Line;
