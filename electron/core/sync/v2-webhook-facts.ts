/**
 * What a V2 webhook event states, written to the store: the reconciler's part for V2 deliveries
 * (Reconciler.applyWebhook runs it in its transaction; V3's events go through
 * realtime/v3-event-applier.ts and the reconciler's other calls). Returns the chats the event alone
 * cannot complete, and the chat of a message it dated to the second only (V2 webhook data carries
 * the time so: API-GAPS, webhook payloads), which is then read to date it (sync/time-settling.ts).
 */
import { parseServiceTime } from '../../../shared/time.ts';
import { contactRecord } from '../api/domain-map.ts';
import type { WebhookEvent } from '../api/webhook-events.ts';
import type { LocalStore } from '../store/local-store.ts';
import { assertNever } from '../util.ts';

export interface V2EventFacts {
  refreshChats: number[];
  datedToTheSecond: number | undefined;
}

export function applyV2Event(store: LocalStore, event: WebhookEvent): V2EventFacts {
  const refresh = new Set<number>();
  let datedToTheSecond: number | undefined;
  const known = (chatId: number): boolean => {
    if (store.chats.exists(chatId)) return true;
    // API-GAPS: the first event naming an unknown chat means a new chat.
    refresh.add(chatId);
    return false;
  };
  switch (event.type) {
    case 'message.sent':
    case 'message.received': {
      const d = event.data;
      known(d.chat_id);
      const fromMe = event.type === 'message.sent';
      const sender = d.from_phone ?? '';
      store.messages.upsert([
        {
          id: d.id,
          chatId: d.chat_id,
          text: d.text,
          sentAt: parseServiceTime(d.sent_at) ?? parseServiceTime(event.createdAt) ?? Date.now(),
          // V2 webhook data carries the time to the second (API-GAPS: webhook payloads).
          timeToTheSecond: true,
          isRead: d.is_read,
          fromMe,
          sender,
          // Received messages have arrived; sent ones keep whatever status is known.
          ...(fromMe ? {} : { deliveryStatus: 'delivered' }),
          attachments: d.attachments.map((a) => ({
            id: a.id,
            url: a.url,
            filename: a.filename,
            mimeType: a.mime_type,
            size: a.file_size,
          })),
        },
      ]);
      if (!fromMe) store.typing.clear(d.chat_id);
      datedToTheSecond = d.chat_id;
      break;
    }
    case 'message.read':
      store.messages.markRead([event.data.id]);
      break;
    case 'reaction.sent':
    case 'reaction.received': {
      const d = event.data;
      known(d.chat_id);
      store.messages.addReaction({
        id: d.id,
        messageId: d.chat_message_id,
        kind: d.reaction,
        fromMe: d.is_from_me || event.type === 'reaction.sent',
        sender: d.chat_handle?.identifier ?? '',
        at: parseServiceTime(d.sent_at) ?? parseServiceTime(d.created_at) ?? Date.now(),
      });
      break;
    }
    case 'typing_indicator.received':
    case 'typing_indicator.removed': {
      const d = event.data;
      if (!known(d.chat_id)) break;
      const display = event.type === 'typing_indicator.received' && d.display !== false;
      if (!display) {
        store.typing.clear(d.chat_id);
        break;
      }
      const typers = d.chat_handles.filter((h) => !h.is_me).map((h) => h.identifier);
      // The event does not say who in a group is typing: show the chat as "someone is typing".
      for (const identifier of typers.length === 1 ? typers : ['*'])
        store.typing.set(d.chat_id, identifier, true);
      break;
    }
    case 'call.completed': {
      const d = event.data;
      const inbound = d.direction !== 'outbound';
      const lineNumber = inbound ? d.to : d.from;
      const customer = inbound ? d.from : d.to;
      const startedAt = parseServiceTime(d.start_time);
      store.calls.upsert(
        {
          id: d.id,
          from: d.from,
          to: d.to,
          status: d.status,
          direction: d.direction,
          startedAt,
          endedAt: parseServiceTime(d.end_time),
          durationSeconds: d.duration,
          forwardedFrom: d.forwarded_from,
          voicemail: d.voicemail,
          transcript: d.recording_data?.transcription ?? null,
          summary: d.recording_data?.summary ?? null,
          recordingUrl: d.recording_data?.url ?? null,
        },
        lineNumber,
        customer,
      );
      break;
    }
    case 'chat.created': {
      const d = event.data;
      const me = d.chat_handles.find((h) => h.is_me);
      const line = me ? store.lines.byNumber(me.identifier) : undefined;
      const complete = line && d.chat_handles.every((h) => h.id !== null && h.id !== undefined);
      if (!line || !complete) {
        refresh.add(d.chat_id);
        break;
      }
      store.chats.upsert([
        {
          id: d.chat_id,
          lineId: line.id,
          displayName: d.display_name ?? '',
          ...(d.service ? { service: d.service } : {}),
          isGroup: d.is_group,
          handles: d.chat_handles
            .filter((h) => !h.is_departed)
            .map((h) => ({
              id: h.id as number,
              identifier: h.identifier,
              service: d.service ?? 'SMS',
              joinedAt: parseServiceTime(d.created_at),
              isMe: h.is_me,
            })),
        },
      ]);
      break;
    }
    case 'contact.created':
    case 'contact.updated':
      store.contacts.upsert([contactRecord(event.data)]);
      break;
    case 'contact.deleted':
      store.contacts.remove([event.data.id]);
      break;
    case 'participant.added':
    case 'participant.removed':
      refresh.add(event.data.chat_id);
      break;
    case 'unknown':
      break;
    default:
      assertNever(event);
  }
  return { refreshChats: [...refresh], datedToTheSecond };
}
