import type { Chat, Message, Org, Reaction, ReactionType } from './model.ts';
import { meHandle } from './handles.ts';
import { reactionEventData } from './webhook-data.ts';
import type { World } from './world.ts';

export interface ReactionResult {
  reaction: Reaction;
  /** false when the same reaction already existed (add is idempotent). */
  created: boolean;
}

/**
 * Adds a reaction from the organization's line (`from` null) or from a customer. One reaction per
 * (message, sender, type); adding it again returns the existing one. Emits reaction.sent/received.
 */
export function addReaction(
  world: World,
  org: Org,
  chat: Chat,
  message: Message,
  type: ReactionType,
  from: string | null,
): ReactionResult {
  const handle = from === null ? meHandle(chat) : chat.handles.find((h) => h.identifier === from && !h.isMe);
  if (!handle) throw new Error(`${from} is not in chat ${chat.id}`);
  const existing = message.reactions.find((r) => r.handleId === handle.id && r.type === type);
  if (existing) return { reaction: existing, created: false };
  const now = world.clock.now();
  const reaction: Reaction = {
    id: world.nextId('reaction'),
    messageId: message.id,
    type,
    isFromMe: handle.isMe,
    fromPhone: handle.identifier,
    handleId: handle.id,
    sentAt: now,
    createdAt: now,
    updatedAt: now,
  };
  message.reactions.push(reaction);
  world.emit(
    org,
    handle.isMe ? 'reaction.sent' : 'reaction.received',
    reactionEventData(org, chat, message, reaction),
  );
  return { reaction, created: true };
}

/** Removes a reaction; undefined when there was none. V2 has no removal event (observed by polling). */
export function removeReaction(
  chat: Chat,
  message: Message,
  type: ReactionType,
  from: string | null,
): Reaction | undefined {
  const handle = from === null ? meHandle(chat) : chat.handles.find((h) => h.identifier === from && !h.isMe);
  const existing = handle && message.reactions.find((r) => r.handleId === handle.id && r.type === type);
  if (!existing) return undefined;
  message.reactions = message.reactions.filter((r) => r !== existing);
  return existing;
}
