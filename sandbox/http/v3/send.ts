/** The one way V3 sends: the state checks every send meets, then the world's sendMessage. */
import { sendMessage } from '../../domain/chats.ts';
import type { Chat, Message, Org } from '../../domain/model.ts';
import type { World } from '../../domain/world.ts';
import { v3 } from './errors.ts';
import type { MessageContent } from './parts.ts';

/** Sending is refused for opted-out recipients (2024), restricted lines (2027) and left chats (2013). */
export function checkCanSend(org: Org, chat: Chat): void {
  if (chat.left) throw v3(2013);
  if (chat.health.status === 'OPTED_OUT') throw v3(2024);
  const line = org.lines.find((l) => l.id === chat.lineId);
  if (line?.reputation === 'CRITICAL') throw v3(2027);
}

/** A reused idempotency key answers with the stored message (any status) and sends nothing. */
export function sendV3(
  world: World,
  org: Org,
  chat: Chat,
  content: MessageContent,
  traceId: string,
  overQuota = false,
): Message {
  const { message } = sendMessage(world, org, chat, {
    text: content.text,
    attachments: content.attachments,
    idempotencyKey: content.idempotencyKey,
    traceId,
    overQuota,
    v3: {
      parts: content.parts,
      replyTo: content.replyTo,
      effect: content.effect,
      preferredService: content.preferredService,
    },
  });
  return message;
}

/** The stored message of a used idempotency key, if any (its chat may be another). */
export function replayOf(org: Org, key: string | null): { chat: Chat; message: Message } | undefined {
  if (!key) return undefined;
  const used = org.idempotency.get(key);
  const chat = used && org.chats.get(used.chatId);
  const message =
    used && (chat?.messages.find((m) => m.id === used.messageId) ?? org.deletedMessages.get(used.messageId));
  return chat && message ? { chat, message } : undefined;
}

export function ack(traceId: string, message: string): Record<string, unknown> {
  return { status: 'accepted', trace_id: traceId, message };
}
