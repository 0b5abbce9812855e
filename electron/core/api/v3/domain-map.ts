/**
 * Pure mappings from V3 shapes (REST and webhook) to Parley's domain types (shared/domain.ts).
 *
 * V3 ids are UUIDs, while the store keys chats, messages, handles and lines by local integers (V2's
 * ids, and V3 chats matched to V2 ones through migrate_to_v3). The caller supplies that translation
 * (`V3LocalIds`, backed by the store); these functions only map. Local state the service knows nothing
 * about (pinned, unread counts, drafts, typing) is not produced here: the store keeps it.
 */
import { deliveryFailureInfo } from '../../../../shared/delivery-failures.ts';
import type {
  Attachment,
  Chat,
  ChatHealth,
  DeliveryFailure,
  Handle,
  Line,
  LineReputation,
  Message,
  MessageError,
  MessagePart,
  Reaction,
} from '../../../../shared/domain.ts';
import { parseServiceTime } from '../../../../shared/time.ts';
import type { v3MessageEventData, v3MessageFailedData, v3ReactionEventData } from './webhook-events.ts';
import type { z } from 'zod';
import type {
  V3Chat,
  V3ChatHandle,
  V3Health,
  V3Message,
  V3Part,
  V3PhoneNumber,
  V3Reputation,
} from './schemas.ts';

export type { V3LocalIds } from '../../store/remote-ids-repo.ts';
import type { V3LocalIds } from '../../store/remote-ids-repo.ts';

/** What the service states about a chat; the store adds the local state. */
export type V3ChatFacts = Omit<
  Chat,
  'lastMessage' | 'unreadCount' | 'pinned' | 'archived' | 'markedUnread' | 'typing' | 'messageCount'
>;

const time = (value: string | null | undefined): number | null => parseServiceTime(value ?? null);

export function v3HealthToDomain(health: V3Health | null): ChatHealth | null {
  return health && { status: health.status, docUrl: health.doc_url, updatedAt: time(health.updated_at) };
}

function v3ReputationToDomain(reputation: V3Reputation | null): LineReputation | null {
  return reputation && { status: reputation.status, docUrl: reputation.doc_url };
}

function v3HandleToDomain(handle: V3ChatHandle, ids: V3LocalIds, chatService: string): Handle {
  return {
    id: ids.handle(handle.id),
    identifier: handle.handle,
    service: handle.service ?? chatService,
    joinedAt: time(handle.joined_at),
    isMe: handle.is_me,
    contactName: null,
  };
}

/**
 * A chat. Its line is the handle marked `is_me`; `fallbackLine` names it when the service did not mark
 * one. Handles that left or were removed are not participants any more and are left out.
 */
export function v3ChatToDomain(chat: V3Chat, ids: V3LocalIds, fallbackLine?: string): V3ChatFacts {
  const service = chat.service ?? chat.handles.find((h) => h.service)?.service ?? 'iMessage';
  const current = chat.handles.filter((h) => h.status === 'active');
  const me = chat.handles.find((h) => h.is_me);
  const lineNumber = me?.handle ?? fallbackLine;
  const others = current.filter((h) => !h.is_me).map((h) => h.handle);
  return {
    id: ids.chat(chat.id),
    v3ChatId: chat.id,
    // 0 when the line is unknown: the store then keeps the line it has for this chat.
    lineId: lineNumber === undefined ? 0 : ids.line(lineNumber),
    displayName: chat.display_name ?? others.join(', '),
    service,
    isGroup: chat.is_group,
    handles: current.map((h) => v3HandleToDomain(h, ids, service)),
    lastActivityAt: time(chat.updated_at) ?? time(chat.created_at) ?? 0,
    apiVersion: 'v3',
    health: v3HealthToDomain(chat.health_status),
  };
}

export function v3LineToDomain(line: V3PhoneNumber, ids: V3LocalIds): Line {
  return {
    id: ids.line(line.phone_number),
    phoneNumber: line.phone_number,
    forwardingNumber: line.forwarding_number,
    responseRate: null,
    userName: null,
    userEmail: null,
    v3Id: line.id,
    reputation: v3ReputationToDomain(line.reputation),
  };
}

interface PartsView {
  parts: MessagePart[];
  text: string;
  attachments: Attachment[];
}

/** Parts in order, plus the flattened text (text and link values, one per line) and attachments. */
export function v3PartsToDomain(messageId: string, parts: readonly V3Part[]): PartsView {
  const view: PartsView = { parts: [], text: '', attachments: [] };
  const texts: string[] = [];
  parts.forEach((part, index) => {
    switch (part.type) {
      case 'text':
        texts.push(part.value);
        view.parts.push({ type: 'text', text: part.value });
        break;
      case 'link':
        texts.push(part.value);
        view.parts.push({ type: 'link', url: part.value });
        break;
      case 'media': {
        const attachment: Attachment = {
          id: part.id ?? `${messageId}/${index}`,
          url: part.url ?? '',
          filename: part.filename,
          mimeType: part.mime_type,
          size: part.size_bytes,
        };
        view.attachments.push(attachment);
        view.parts.push({ type: 'media', attachment });
        break;
      }
      default:
        view.parts.push({ type: 'unknown', kind: part.kind });
    }
  });
  view.text = texts.join('\n');
  return view;
}

/** The address of a message's link part, if it has one. */
export function linkOf(message: Pick<Message, 'parts'>): string | null {
  const part = message.parts?.find((p) => p.type === 'link');
  return part?.type === 'link' ? part.url : null;
}

/** Every reaction of every part, each knowing its part. */
function v3ReactionsToDomain(
  message: { id: string; chatId: string; parts: readonly V3Part[] },
  ids: V3LocalIds,
  at = 0,
): Reaction[] {
  const { id: messageId, chatId, parts } = message;
  return parts.flatMap((part, partIndex) =>
    part.reactions.map((reaction) => {
      const from = reaction.handle?.handle ?? '';
      const emoji = reaction.custom_emoji;
      return {
        id: ids.reaction(
          reactionKey(messageId, partIndex, from, reaction.is_me, reaction.type, emoji),
          chatId,
        ),
        messageId: ids.message(messageId, chatId),
        kind: reaction.type,
        fromMe: reaction.is_me,
        from,
        at,
        partIndex,
        customEmoji: emoji,
      };
    }),
  );
}

/**
 * What identifies a reaction, the same from REST and from events: the message, the part, who reacted
 * (their handle; "me" when the service names no handle for our own), the type and the emoji.
 */
export function reactionKey(
  messageId: string,
  partIndex: number,
  from: string,
  fromMe: boolean,
  type: string,
  customEmoji: string | null,
): string {
  return [messageId, partIndex, from || (fromMe ? 'me' : ''), type, customEmoji ?? ''].join('/');
}

/** The failure of a message and the error the UI shows for it. */
function v3FailureToDomain(failure: DeliveryFailure): MessageError {
  const info = deliveryFailureInfo(failure.code);
  return { code: info.code, message: info.title, retryable: info.retryWithNewKey };
}

export interface V3MessageContext {
  /** The chat's V3 id when the message does not carry it (the 202 send acknowledgement). */
  chatId?: string;
  /** The outbox's key for a message sent here: the message's stable key. */
  idempotencyKey?: string | null;
  /** From a `message.failed` event. */
  failure?: DeliveryFailure | null;
}

/** A message from REST (list, get, send, create chat, edit, thread). */
export function v3MessageToDomain(
  message: V3Message,
  ids: V3LocalIds,
  context: V3MessageContext = {},
): Message {
  const chatId = message.chat_id ?? context.chatId;
  if (chatId === undefined) throw new Error(`V3 message ${message.id} came without its chat`);
  const view = v3PartsToDomain(message.id, message.parts);
  const failure = context.failure ?? null;
  return {
    key: context.idempotencyKey ?? v3MessageKey(message.id),
    id: ids.message(message.id, chatId),
    chatId: ids.chat(chatId),
    text: view.text,
    sentAt: time(message.sent_at) ?? time(message.created_at) ?? 0,
    deliveredAt: time(message.delivered_at),
    state: message.delivery_status,
    editedAt: null,
    isRead: message.delivery_status === 'read' || message.is_read,
    fromMe: message.is_from_me,
    sender: message.from_handle?.handle ?? '',
    senderName: null,
    attachments: view.attachments,
    reactions: v3ReactionsToDomain(
      { id: message.id, chatId, parts: message.parts },
      ids,
      time(message.updated_at) ?? 0,
    ),
    error: failure && v3FailureToDomain(failure),
    apiVersion: 'v3',
    v3Id: message.id,
    parts: view.parts,
    replyTo: message.reply_to && {
      messageId: message.reply_to.message_id,
      partIndex: message.reply_to.part_index,
    },
    effect: message.effect,
    failure,
    service: message.service,
    readAt: time(message.read_at),
  };
}

/** The stable key of a message not sent from here. */
function v3MessageKey(v3MessageId: string): string {
  return `v3:${v3MessageId}`;
}

type MessageEventData = z.output<typeof v3MessageEventData>;

const EVENT_STATES = {
  'message.sent': 'sent',
  'message.received': 'received',
  'message.delivered': 'delivered',
  'message.read': 'read',
} as const;

/** A message from a `message.sent|received|delivered|read` event. */
export function v3MessageEventToDomain(
  type: keyof typeof EVENT_STATES,
  data: MessageEventData,
  ids: V3LocalIds,
): Message {
  const view = v3PartsToDomain(data.id, data.parts);
  const sentAt = time(data.sent_at);
  return {
    key: data.idempotency_key ?? v3MessageKey(data.id),
    id: ids.message(data.id, data.chatId),
    chatId: ids.chat(data.chatId),
    text: view.text,
    sentAt: sentAt ?? 0,
    deliveredAt: time(data.delivered_at),
    state: EVENT_STATES[type],
    editedAt: null,
    isRead: type === 'message.read' || data.read_at !== null,
    fromMe: data.direction === 'outbound',
    sender: data.sender_handle?.handle ?? '',
    senderName: null,
    attachments: view.attachments,
    reactions: v3ReactionsToDomain({ id: data.id, chatId: data.chatId, parts: data.parts }, ids),
    error: null,
    apiVersion: 'v3',
    v3Id: data.id,
    parts: view.parts,
    replyTo: data.reply_to && { messageId: data.reply_to.message_id, partIndex: data.reply_to.part_index },
    effect: data.effect,
    failure: null,
    service: data.service,
    readAt: time(data.read_at),
  };
}

/** What a `message.failed` event changes on its message. */
export function v3FailedEventToDomain(
  data: z.output<typeof v3MessageFailedData>,
  ids: V3LocalIds,
): {
  messageId: number;
  chatId: number;
  v3Id: string;
  failure: DeliveryFailure;
  error: MessageError;
  failedAt: number | null;
} {
  const failure = { code: data.code, reason: data.reason };
  return {
    messageId: ids.message(data.message_id, data.chat_id),
    chatId: ids.chat(data.chat_id),
    v3Id: data.message_id,
    failure,
    error: v3FailureToDomain(failure),
    failedAt: time(data.failed_at),
  };
}

/** A reaction from a `reaction.added|removed` event. */
export function v3ReactionEventToDomain(
  data: z.output<typeof v3ReactionEventData>,
  ids: V3LocalIds,
): Reaction {
  const from = data.from_handle?.handle ?? '';
  return {
    id: ids.reaction(
      reactionKey(
        data.message_id,
        data.part_index,
        from,
        data.is_from_me,
        data.reaction_type,
        data.custom_emoji,
      ),
      data.chat_id,
    ),
    messageId: ids.message(data.message_id, data.chat_id),
    kind: data.reaction_type,
    fromMe: data.is_from_me,
    from,
    at: time(data.reacted_at) ?? 0,
    partIndex: data.part_index,
    customEmoji: data.custom_emoji,
  };
}
