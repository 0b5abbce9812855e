/**
 * A customer's message in an event of the relay's log, as the team layer records it for the
 * send-time check (team-relay.ts follows the log; this reads one event).
 */
import type { checkLogged } from '../relay/event-source.ts';

type LoggedEvent = Extract<ReturnType<typeof checkLogged>, { ok: true }>['event'];

/**
 * A customer's message in a logged event: V2's `message.received`, and V3's where the chat id is
 * the number desktops know it by (a V3 chat named by another id needs the relay's id mapping).
 */
export function customerMessageOf(
  event: LoggedEvent,
): { eventId: string; chatId: number; messageId: string; text: string } | undefined {
  if (event.type !== 'message.received') return undefined;
  const data = event.data as {
    id: number | string;
    chat_id?: number;
    chatId?: string;
    text?: string;
    parts?: Array<{ type?: string; value?: string }>;
  };
  const chatId = Number(data.chat_id ?? data.chatId);
  if (!Number.isSafeInteger(chatId) || chatId <= 0) return undefined;
  const text =
    data.text ?? (data.parts ?? []).map((part) => (part.type === 'text' ? (part.value ?? '') : '')).join(' ');
  return { eventId: event.eventId, chatId, messageId: String(data.id), text: text || '(attachment)' };
}
