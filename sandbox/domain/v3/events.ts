/**
 * V3 webhook events (V3-DECISIONS "Events"), emitted beside the V2 ones by the same domain
 * operations, so V3 subscriptions see the same world V2 subscriptions see.
 */
import { meHandle } from '../handles.ts';
import type { Chat, Handle, Line, Message, Org, Reaction } from '../model.ts';
import { isoTime } from '../time.ts';
import type { World } from '../world.ts';
import { v3Id } from './ids.ts';
import {
  healthV3,
  presentChatV3,
  presentHandleV3,
  presentPartsV3,
  presentMessageV3,
  senderHandle,
} from './shapes.ts';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

/**
 * Whether anyone would receive a V3 event of this organization: V3 data is only built when an
 * active V3 subscription exists, so V2-only workloads pay nothing for V3.
 */
function heard(org: Org): boolean {
  for (const subscription of org.subscriptions.values())
    if (subscription.family === 'v3' && subscription.active) return true;
  return false;
}

function lineNumber(org: Org, chat: Chat): string | null {
  return org.lines.find((l) => l.id === chat.lineId)?.phoneNumber ?? null;
}

function chatSummary(org: Org, chat: Chat): Record<string, unknown> {
  return {
    id: v3Id(org, 'chat', chat.id),
    is_group: chat.group,
    owner_handle: presentHandleV3(org, meHandle(chat)),
    health_status: healthV3(chat),
  };
}

function messageData(org: Org, chat: Chat, message: Message): Record<string, unknown> {
  const full = presentMessageV3(org, chat, message);
  const sender = senderHandle(chat, message);
  return {
    id: full.id,
    message_id: full.id,
    chat: chatSummary(org, chat),
    direction: message.outbound ? 'outbound' : 'inbound',
    sender_handle: sender ? presentHandleV3(org, sender) : null,
    parts: presentPartsV3(org, chat, message),
    sent_at: full.sent_at,
    delivered_at: full.delivered_at,
    read_at: full.read_at,
    reply_to: full.reply_to,
    effect: full.effect,
    service: chat.service,
    idempotency_key: message.idempotencyKey,
  };
}

export type MessageEventType = 'message.sent' | 'message.received' | 'message.delivered' | 'message.read';

export function emitMessageV3(
  world: World,
  org: Org,
  chat: Chat,
  message: Message,
  type: MessageEventType,
): void {
  if (!heard(org)) return;
  world.emitV3(org, type, messageData(org, chat, message), {
    traceId: message.traceId,
    lineNumber: lineNumber(org, chat),
  });
}

export function emitFailedV3(world: World, org: Org, chat: Chat, message: Message): void {
  if (!heard(org)) return;
  if (!message.failure) return;
  world.emitV3(
    org,
    'message.failed',
    {
      code: message.failure.code,
      reason: message.failure.reason,
      failed_at: isoTime(message.failure.at),
      chat_id: v3Id(org, 'chat', chat.id),
      message_id: v3Id(org, 'message', message.id),
    },
    { traceId: message.traceId, lineNumber: lineNumber(org, chat) },
  );
}

export function emitEditedV3(
  world: World,
  org: Org,
  chat: Chat,
  message: Message,
  partIndex: number,
  text: string,
  traceId: string | null,
): void {
  if (!heard(org)) return;
  const sender = senderHandle(chat, message);
  world.emitV3(
    org,
    'message.edited',
    {
      id: v3Id(org, 'message', message.id),
      chat: chatSummary(org, chat),
      direction: message.outbound ? 'outbound' : 'inbound',
      edited_at: isoOrNull(message.editedAt),
      part: { index: partIndex, text },
      sender_handle: sender ? presentHandleV3(org, sender) : null,
    },
    { traceId, lineNumber: lineNumber(org, chat) },
  );
}

export function emitReactionV3(
  world: World,
  org: Org,
  chat: Chat,
  message: Message,
  reaction: Reaction,
  operation: 'added' | 'removed',
  traceId: string | null = null,
): void {
  if (!heard(org)) return;
  const handle = chat.handles.find((h) => h.id === reaction.handleId);
  world.emitV3(
    org,
    operation === 'added' ? 'reaction.added' : 'reaction.removed',
    {
      chat_id: v3Id(org, 'chat', chat.id),
      message_id: v3Id(org, 'message', message.id),
      part_index: reaction.partIndex,
      reaction_type: reaction.type,
      custom_emoji: reaction.customEmoji,
      is_from_me: reaction.isFromMe,
      from_handle: handle ? presentHandleV3(org, handle) : null,
      reacted_at: isoTime(operation === 'added' ? reaction.createdAt : world.clock.now()),
    },
    { traceId, lineNumber: lineNumber(org, chat) },
  );
}

export function emitTypingV3(world: World, org: Org, chat: Chat, display: boolean): void {
  if (!heard(org)) return;
  world.emitV3(
    org,
    display ? 'chat.typing_indicator.started' : 'chat.typing_indicator.stopped',
    { chat_id: v3Id(org, 'chat', chat.id) },
    { lineNumber: lineNumber(org, chat) },
  );
}

export function emitChatCreatedV3(world: World, org: Org, chat: Chat, traceId: string | null): void {
  if (!heard(org)) return;
  world.emitV3(org, 'chat.created', presentChatV3(org, chat), {
    traceId,
    lineNumber: lineNumber(org, chat),
  });
}

export function emitParticipantV3(
  world: World,
  org: Org,
  chat: Chat,
  handle: Handle,
  operation: 'added' | 'removed',
  traceId: string | null = null,
): void {
  if (!heard(org)) return;
  world.emitV3(
    org,
    operation === 'added' ? 'participant.added' : 'participant.removed',
    {
      chat_id: v3Id(org, 'chat', chat.id),
      handle: presentHandleV3(org, handle),
      changed_at: isoTime(world.clock.now()),
    },
    { traceId, lineNumber: lineNumber(org, chat) },
  );
}

export function emitGroupNameV3(
  world: World,
  org: Org,
  chat: Chat,
  oldValue: string | null,
  traceId: string | null,
): void {
  if (!heard(org)) return;
  world.emitV3(
    org,
    'chat.group_name_updated',
    {
      chat_id: v3Id(org, 'chat', chat.id),
      old_value: oldValue,
      new_value: chat.displayName,
      updated_at: isoTime(world.clock.now()),
    },
    { traceId, lineNumber: lineNumber(org, chat) },
  );
}

export function emitLineStatusV3(world: World, org: Org, line: Line, previous: string): void {
  if (!heard(org)) return;
  world.emitV3(
    org,
    'phone_number.status_updated',
    {
      phone_number_id: v3Id(org, 'line', line.id),
      phone_number: line.phoneNumber,
      previous_status: previous,
      status: line.reputation,
      changed_at: isoTime(line.reputationUpdatedAt),
    },
    { lineNumber: line.phoneNumber },
  );
}
