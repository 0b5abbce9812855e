/** Group membership changes, announced to V2 and V3 subscriptions alike. */
import type { Chat, Handle, Org } from './model.ts';
import { emitParticipantV3 } from './v3/events.ts';
import { participantData } from './webhook-data.ts';
import type { World } from './world.ts';

export function addParticipant(
  world: World,
  org: Org,
  chat: Chat,
  identifier: string,
  traceId: string | null = null,
): Handle {
  const handle: Handle = {
    id: world.nextId('handle'),
    identifier,
    service: chat.service,
    joinedAt: world.clock.now(),
    isMe: false,
    departedAt: null,
  };
  chat.handles.push(handle);
  world.emit(org, 'participant.added', participantData(org, chat, handle), traceId);
  emitParticipantV3(world, org, chat, handle, 'added', traceId);
  return handle;
}

export function removeParticipant(
  world: World,
  org: Org,
  chat: Chat,
  handle: Handle,
  traceId: string | null = null,
): void {
  handle.departedAt = world.clock.now();
  world.emit(org, 'participant.removed', participantData(org, chat, handle), traceId);
  emitParticipantV3(world, org, chat, handle, 'removed', traceId);
}
