/** Pure mappings from the service's shapes (REST and webhook) to the store's records. */
import { parseServiceTime } from '../../../shared/time.ts';
import type {
  ApiAttachment,
  ApiChat,
  ApiContact,
  ApiMessage,
  ApiPhoneNumber,
  ApiReaction,
} from './schemas.ts';
import type {
  AttachmentRecord,
  ChatRecord,
  ContactRecord,
  LineRecord,
  MessageRecord,
  ReactionRecord,
} from '../store/records.ts';

const time = (value: string | null | undefined): number | null => parseServiceTime(value ?? null);

export function lineRecord(line: ApiPhoneNumber): LineRecord {
  return {
    id: line.id,
    phoneNumber: line.phone_number,
    forwardingNumber: line.forwarding_number,
    responseRate: line.response_rate,
    userName: line.user?.name ?? null,
    userEmail: line.user?.email ?? null,
  };
}

/** `lineNumber` is the chat's line: its handle is "me" (docs/api-gaps.md: chat_handles include the line). */
export function chatRecord(chat: ApiChat, lineId: number, lineNumber: string): ChatRecord {
  return {
    id: chat.id,
    lineId,
    displayName: chat.display_name,
    service: chat.service,
    isGroup: chat.group,
    ...(chat.message_count === null ? {} : { messageCount: chat.message_count }),
    handles: chat.chat_handles.map((h) => ({
      id: h.id,
      identifier: h.phone_number,
      service: h.service ?? chat.service,
      joinedAt: time(h.joined_at),
      isMe: h.phone_number === lineNumber,
    })),
  };
}

function attachmentRecord(a: ApiAttachment): AttachmentRecord {
  return { id: a.id, url: a.url, filename: a.filename, mimeType: a.mime_type, size: a.file_size };
}

export function reactionRecord(r: ApiReaction): ReactionRecord {
  return {
    id: r.id,
    messageId: r.chat_message_id,
    kind: r.reaction,
    fromMe: r.is_from_me,
    sender: r.from_phone ?? '',
    at: time(r.sent_at) ?? time(r.created_at) ?? 0,
  };
}

/** `ownNumbers`: the organization's lines; a message sent from one of them is ours. */
export function messageRecord(
  message: ApiMessage,
  chatId: number,
  ownNumbers: ReadonlySet<string>,
  options: { idempotencyKey?: string; hasReactions?: boolean } = {},
): MessageRecord {
  const sender = message.sent_from ?? '';
  return {
    id: message.id,
    chatId,
    text: message.text,
    sentAt: time(message.sent_at) ?? Date.now(),
    deliveredAt: time(message.delivered_at),
    deliveryStatus: message.delivery_status,
    editedAt: time(message.edited_at),
    isRead: message.is_read,
    fromMe: ownNumbers.has(sender),
    sender,
    handleId: message.chat_handle_id,
    attachments: message.attachments.map(attachmentRecord),
    // The create chat response carries no reactions: absent, not empty.
    ...(options.hasReactions === false ? {} : { reactions: message.reactions.map(reactionRecord) }),
    ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
  };
}

export function contactRecord(c: ApiContact): ContactRecord {
  const first = c.first_name ?? '';
  const last = c.last_name ?? '';
  const owner = c.contact_owner;
  return {
    id: c.id,
    firstName: first,
    lastName: last,
    fullName: c.full_name || [first, last].filter(Boolean).join(' '),
    email: c.email ?? '',
    phoneNumber: c.phone_number ?? '',
    company: c.company ?? '',
    title: c.title ?? '',
    location: c.location ?? '',
    imageUrl: c.image_url,
    owner: owner
      ? {
          id: owner.id,
          email: owner.email ?? '',
          name: owner.name || [owner.first_name, owner.last_name].filter(Boolean).join(' '),
        }
      : null,
    createdAt: time(c.created_at),
    updatedAt: time(c.updated_at),
  };
}
