/**
 * V3 shapes as the records the Reconciler writes (store/records.ts): the same records V2's mapping
 * gives (api/domain-map.ts), with what V3 states beyond V2 — reply target, effect, link part, each
 * reaction's part and emoji, a delivery failure — in fields of their own.
 */
import type { Message } from '../../../../shared/domain.ts';
import { parseServiceTime } from '../../../../shared/time.ts';
import type { AttachmentRecord, MessageRecord, ReactionRecord } from '../../store/records.ts';
import { reactionKey, type V3LocalIds, linkOf } from './domain-map.ts';
import type { V3Message } from './schemas.ts';

/** A domain message (from REST or an event) as the record the reconciler writes. */
export function v3MessageRecord(message: Message, idempotencyKey?: string | null): MessageRecord {
  return {
    id: message.id as number,
    chatId: message.chatId,
    text: message.text,
    sentAt: message.sentAt,
    deliveredAt: message.deliveredAt,
    deliveryStatus: message.state,
    isRead: message.isRead,
    fromMe: message.fromMe,
    sender: message.sender,
    attachments: message.attachments.map((a) => ({
      id: a.id,
      url: a.url,
      filename: a.filename,
      mimeType: a.mimeType,
      size: a.size ?? null,
    })),
    reactions: message.reactions.map((r) => ({
      id: r.id,
      messageId: r.messageId,
      kind: r.kind,
      fromMe: r.fromMe,
      sender: r.from,
      at: r.at,
      partIndex: r.partIndex ?? 0,
      customEmoji: r.customEmoji ?? null,
    })),
    replyTo: message.replyTo ?? null,
    effect: message.effect ?? null,
    link: linkOf(message),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  };
}

/** What a page of one chat's messages names, so its local ids can be had in one go per kind. */
export function v3PageIds(
  v3ChatId: string,
  messages: readonly V3Message[],
): { chat: string[]; message: string[]; reaction: string[] } {
  const reaction: string[] = [];
  for (const message of messages)
    message.parts.forEach((part, partIndex) => {
      for (const r of part.reactions) {
        const from = r.handle?.handle ?? '';
        reaction.push(reactionKey(message.id, partIndex, from, r.is_me, r.type, r.custom_emoji));
      }
    });
  const chats = new Set([v3ChatId]);
  for (const message of messages) if (message.chat_id) chats.add(message.chat_id);
  return { chat: [...chats], message: messages.map((m) => m.id), reaction };
}

/**
 * A page of one chat's messages as records, its ids mapped through `ids`: the records
 * `v3MessageRecord(v3MessageToDomain(…))` gives, made straight from the wire shape. A first sync maps
 * a quarter of a million messages, and the domain message between (its parts list, its reactions
 * twice, a time parsed for reactions that are not there) was a good part of V3's extra garbage.
 */
export function v3MessageRecords(
  v3ChatId: string,
  messages: readonly V3Message[],
  ids: V3LocalIds,
): MessageRecord[] {
  return messages.map((message) => pageMessageRecord(message, message.chat_id ?? v3ChatId, ids));
}

function pageMessageRecord(message: V3Message, v3ChatId: string, ids: V3LocalIds): MessageRecord {
  const id = ids.message(message.id, v3ChatId);
  const texts: string[] = [];
  const attachments: AttachmentRecord[] = [];
  const reactions: ReactionRecord[] = [];
  let link: string | null = null;
  let reactedAt: number | undefined;
  message.parts.forEach((part, partIndex) => {
    if (part.type === 'text') texts.push(part.value);
    else if (part.type === 'link') {
      texts.push(part.value);
      link ??= part.value;
    } else if (part.type === 'media')
      attachments.push({
        id: part.id ?? `${message.id}/${partIndex}`,
        url: part.url ?? '',
        filename: part.filename,
        mimeType: part.mime_type,
        size: part.size_bytes ?? null,
      });
    for (const reaction of part.reactions) {
      const sender = reaction.handle?.handle ?? '';
      const emoji = reaction.custom_emoji;
      reactedAt ??= parseServiceTime(message.updated_at ?? null) ?? 0;
      reactions.push({
        id: ids.reaction(
          reactionKey(message.id, partIndex, sender, reaction.is_me, reaction.type, emoji),
          v3ChatId,
        ),
        messageId: id,
        kind: reaction.type,
        fromMe: reaction.is_me,
        sender,
        at: reactedAt,
        partIndex,
        customEmoji: emoji ?? null,
      });
    }
  });
  const reply = message.reply_to;
  return {
    id,
    chatId: ids.chat(v3ChatId),
    text: texts.join('\n'),
    sentAt: parseServiceTime(message.sent_at ?? null) ?? parseServiceTime(message.created_at ?? null) ?? 0,
    deliveredAt: parseServiceTime(message.delivered_at ?? null),
    deliveryStatus: message.delivery_status,
    isRead: message.delivery_status === 'read' || message.is_read,
    fromMe: message.is_from_me,
    sender: message.from_handle?.handle ?? '',
    attachments,
    reactions,
    replyTo: reply ? { messageId: reply.message_id, partIndex: reply.part_index } : null,
    effect: message.effect ?? null,
    link,
  };
}
