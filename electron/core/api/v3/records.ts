/**
 * V3 shapes as the records the Reconciler writes (store/records.ts): the same records V2's mapping
 * gives (api/v2-map.ts), with what V3 states beyond V2 — reply target, effect, link part, each
 * reaction's part and emoji, a delivery failure — in fields of their own.
 */
import type { Message } from '../../../../shared/domain.ts';
import type { MessageRecord } from '../../store/records.ts';
import { reactionKey, type V3LocalIds, v3MessageToDomain, linkOf } from './domain-map.ts';
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
  return {
    chat: [v3ChatId, ...messages.flatMap((m) => (m.chat_id ? [m.chat_id] : []))],
    message: messages.map((m) => m.id),
    reaction,
  };
}

/** A page of one chat's messages as records, its ids mapped through `ids`. */
export function v3MessageRecords(
  v3ChatId: string,
  messages: readonly V3Message[],
  ids: V3LocalIds,
): MessageRecord[] {
  return messages.map((message) => v3MessageRecord(v3MessageToDomain(message, ids, { chatId: v3ChatId })));
}
