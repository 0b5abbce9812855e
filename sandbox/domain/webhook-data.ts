/**
 * Webhook `data` objects, exactly in the spec's shapes: ids are strings (contact ids integers) and
 * timestamps are `YYYY-MM-DD HH:MM:SS +0000`, except where the spec says ISO 8601.
 */
import { customerHandles } from './handles.ts';
import type { Call, Chat, Contact, Handle, Message, Org, Reaction } from './model.ts';
import { chatDisplayName, handleName } from './names.ts';
import { presentContact } from './present.ts';
import { webhookTime } from './time.ts';
import type { World } from './world.ts';

function chatHandlesData(org: Org, chat: Chat): Array<Record<string, unknown>> {
  return chat.handles
    .filter((h) => h.departedAt === null)
    .map((h) => ({ identifier: h.identifier, display_name: handleName(org, h.identifier), is_me: h.isMe }));
}

export function messageEventData(
  _world: World,
  org: Org,
  chat: Chat,
  message: Message,
): Record<string, unknown> {
  return {
    id: String(message.id),
    chat_id: String(chat.id),
    text: message.text,
    sent_at: webhookTime(message.sentAt),
    is_read: message.isRead,
    from_phone: message.sentFrom,
    service: chat.service,
    reaction_id: null,
    chat_handles: chatHandlesData(org, chat),
    attachments: message.attachments.map((a) => ({
      id: a.id,
      url: a.url,
      filename: a.filename,
      mime_type: a.mimeType,
    })),
  };
}

export function chatCreatedData(org: Org, chat: Chat): Record<string, unknown> {
  const others = customerHandles(chat);
  return {
    chat_id: String(chat.id),
    service: chat.service,
    is_direct: others.length <= 1,
    is_group: chat.group,
    display_name: chatDisplayName(org, chat),
    chat_handles: chat.handles.map((h) => ({
      id: String(h.id),
      identifier: h.identifier,
      display_name: handleName(org, h.identifier),
      is_me: h.isMe,
      is_departed: h.departedAt !== null,
    })),
    created_at: webhookTime(chat.createdAt),
  };
}

export function typingData(world: World, org: Org, chat: Chat, display: boolean): Record<string, unknown> {
  return {
    chat_id: String(chat.id),
    display,
    timestamp: webhookTime(world.clock.now()),
    chat_handles: chatHandlesData(org, chat),
  };
}

export function reactionEventData(
  org: Org,
  chat: Chat,
  message: Message,
  reaction: Reaction,
): Record<string, unknown> {
  const handle = chat.handles.find((h) => h.id === reaction.handleId);
  return {
    id: String(reaction.id),
    chat_message_id: String(message.id),
    chat_id: String(chat.id),
    reaction: reaction.type,
    is_from_me: reaction.isFromMe,
    sent_at: webhookTime(reaction.sentAt),
    created_at: webhookTime(reaction.createdAt),
    chat_handle: { id: String(reaction.handleId), identifier: handle?.identifier ?? reaction.fromPhone },
    chat_handles: chatHandlesData(org, chat),
    associated_message: { id: String(message.id), text: message.text, sent_at: webhookTime(message.sentAt) },
  };
}

export function participantData(org: Org, chat: Chat, handle: Handle): Record<string, unknown> {
  return {
    chat_id: String(chat.id),
    handle: {
      id: String(handle.id),
      identifier: handle.identifier,
      display_name: handleName(org, handle.identifier),
    },
    chat_handles: chatHandlesData(org, chat),
  };
}

export function contactEventData(org: Org, contact: Contact): Record<string, unknown> {
  return presentContact(org, contact, webhookTime);
}

export function callEventData(call: Call): Record<string, unknown> {
  return {
    id: call.id,
    to: call.to,
    from: call.from,
    status: call.status,
    direction: call.direction,
    start_time: webhookTime(call.startTime),
    end_time: webhookTime(call.endTime),
    duration: Math.round((call.endTime - call.startTime) / 1000),
    call_type: call.forwardedFrom ? 'forwarded' : 'normal',
    forwarded_from: call.forwardedFrom,
    answered_by: call.answeredBy,
    voicemail: call.status === 'voicemail',
    has_recording: call.recording !== null,
    recording_data: call.recording
      ? {
          id: call.recording.id,
          url: call.recording.url,
          duration: call.recording.duration,
          transcribed: call.recording.transcription !== null,
          transcript_available: call.recording.transcription !== null,
          transcription: call.recording.transcription,
          summary: call.recording.summary,
        }
      : null,
  };
}
