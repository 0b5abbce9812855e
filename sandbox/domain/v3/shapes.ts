/** V3 REST shapes (V3-DECISIONS "Shapes"): bare resources, UUID ids, ISO 8601 times. */
import type {
  Attachment,
  Chat,
  Handle,
  Line,
  Message,
  Org,
  Reaction,
  StoredPart,
  Subscription,
} from '../model.ts';
import { isoTime } from '../time.ts';
import { v3Id } from './ids.ts';

export const DOC_BASE = 'https://docs.example.invalid';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

/**
 * Whether V3 reaches a chat: V2-era SMS group chats cannot migrate (migrate_to_v3 answers 422), so
 * V3 does not show them; every other chat, and every chat created through V3, is there.
 */
export function reachableInV3(chat: Chat): boolean {
  return chat.v3Native || !(chat.service === 'SMS' && chat.group);
}

export type V3Status = 'pending' | 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'received';

/** One status for both versions' facts: SMS is never "delivered" in V3 (no receipts). */
export function v3Status(chat: Chat, message: Message): V3Status {
  if (!message.outbound) return 'received';
  if (message.failure || message.deliveryStatus === 'rate_limit_exceeded') return 'failed';
  if (message.isRead) return 'read';
  if (message.deliveryStatus === 'delivered' && chat.service !== 'SMS') return 'delivered';
  if (message.transmittedAt !== null) return 'sent';
  if (message.deliveryStatus === 'paused') return 'queued';
  return 'pending';
}

export function presentHandleV3(org: Org, handle: Handle): Record<string, unknown> {
  return {
    id: v3Id(org, 'handle', handle.id),
    handle: handle.identifier,
    service: handle.service,
    joined_at: isoTime(handle.joinedAt),
    status: handle.departedAt === null ? 'active' : 'left',
    left_at: isoOrNull(handle.departedAt),
    is_me: handle.isMe,
  };
}

export function healthV3(chat: Chat): Record<string, unknown> {
  return {
    status: chat.health.status,
    doc_url: `${DOC_BASE}/chat-health#${chat.health.status.toLowerCase()}`,
    updated_at: isoTime(chat.health.updatedAt),
  };
}

export function presentChatV3(org: Org, chat: Chat): Record<string, unknown> {
  return {
    id: v3Id(org, 'chat', chat.id),
    display_name: chat.displayName,
    handles: chat.handles.map((h) => presentHandleV3(org, h)),
    is_group: chat.group,
    service: chat.service,
    created_at: isoTime(chat.createdAt),
    updated_at: isoTime(chat.lastActivityAt),
    is_archived: false,
    health_status: healthV3(chat),
  };
}

/** The parts a message has in V3: its own when sent through V3, else its text then its files. */
export function partsOf(message: Message): StoredPart[] {
  if (message.parts) return message.parts;
  const parts: StoredPart[] = [];
  if (message.text) parts.push({ type: 'text', value: message.text, mention: null });
  for (const attachment of message.attachments) parts.push({ type: 'media', attachment });
  return parts;
}

export function presentReactionV3(org: Org, chat: Chat, reaction: Reaction): Record<string, unknown> {
  const handle = chat.handles.find((h) => h.id === reaction.handleId);
  return {
    handle: handle ? presentHandleV3(org, handle) : null,
    is_me: reaction.isFromMe,
    type: reaction.type,
    custom_emoji: reaction.customEmoji,
  };
}

function presentMedia(attachment: Attachment): Record<string, unknown> {
  return {
    type: 'media',
    id: attachment.id,
    url: attachment.url,
    filename: attachment.filename,
    mime_type: attachment.mimeType,
    size_bytes: attachment.fileSize,
  };
}

export function presentPartsV3(org: Org, chat: Chat, message: Message): Array<Record<string, unknown>> {
  return partsOf(message).map((part, index) => {
    const reactions = message.reactions
      .filter((r) => r.partIndex === index)
      .map((r) => presentReactionV3(org, chat, r));
    if (part.type === 'media') return { ...presentMedia(part.attachment), reactions };
    return { type: part.type, value: part.value, reactions };
  });
}

export function senderHandle(chat: Chat, message: Message): Handle | undefined {
  return chat.handles.find((h) => h.id === message.handleId);
}

export function presentMessageV3(org: Org, chat: Chat, message: Message): Record<string, unknown> {
  const status = v3Status(chat, message);
  const sender = senderHandle(chat, message);
  const updatedAt = Math.max(
    message.sentAt,
    message.transmittedAt ?? 0,
    message.deliveredAt ?? 0,
    message.readAt ?? 0,
    message.editedAt ?? 0,
    message.failure?.at ?? 0,
  );
  const sent = message.transmittedAt !== null;
  return {
    id: v3Id(org, 'message', message.id),
    chat_id: v3Id(org, 'chat', chat.id),
    is_from_me: message.outbound,
    from_handle: sender ? presentHandleV3(org, sender) : null,
    parts: presentPartsV3(org, chat, message),
    delivery_status: status,
    is_delivered: status === 'delivered' || status === 'read' || status === 'received',
    is_read: message.isRead,
    service: sent ? chat.service : null,
    preferred_service: message.preferredService,
    sent_at: isoOrNull(message.transmittedAt),
    delivered_at:
      status === 'delivered' || status === 'read' || status === 'received'
        ? isoOrNull(message.deliveredAt)
        : null,
    read_at: isoOrNull(message.readAt),
    created_at: isoTime(message.sentAt),
    updated_at: isoTime(updatedAt),
    reply_to: message.replyTo
      ? { message_id: v3Id(org, 'message', message.replyTo.messageId), part_index: message.replyTo.partIndex }
      : null,
    effect: message.effect,
  };
}

export function presentLineV3(org: Org, line: Line): Record<string, unknown> {
  const reputation = {
    status: line.reputation,
    doc_url: `${DOC_BASE}/line-reputation#${line.reputation.toLowerCase()}`,
  };
  return {
    id: v3Id(org, 'line', line.id),
    phone_number: line.phoneNumber,
    forwarding_number: line.forwardingNumber,
    reputation,
    health_status: reputation,
  };
}

export function presentSubscriptionV3(org: Org, subscription: Subscription): Record<string, unknown> {
  return {
    id: v3Id(org, 'subscription', subscription.id),
    target_url: subscription.webhookUrl,
    subscribed_events: subscription.events,
    phone_numbers: subscription.phoneNumbers,
    is_active: subscription.active,
    created_at: isoTime(subscription.createdAt),
    updated_at: isoTime(subscription.updatedAt),
  };
}
