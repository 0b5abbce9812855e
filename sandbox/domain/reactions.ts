import type { Chat, Handle, Message, Org, Reaction, ReactionType } from './model.ts';
import { REACTION_TYPES } from './model.ts';
import { meHandle } from './handles.ts';
import { emitReactionV3 } from './v3/events.ts';
import { reactionEventData } from './webhook-data.ts';
import type { World } from './world.ts';

export interface ReactionResult {
  reaction: Reaction;
  /** false when the same reaction already existed (add is idempotent). */
  created: boolean;
}

/** What a reaction is: a classic type, or V3's custom emoji / sticker, on one part of a message. */
export interface ReactionKind {
  type: ReactionType | 'custom' | 'sticker';
  customEmoji?: string | null;
  partIndex?: number;
}

const asKind = (kind: ReactionType | ReactionKind): Required<ReactionKind> =>
  typeof kind === 'string'
    ? { type: kind, customEmoji: null, partIndex: 0 }
    : { type: kind.type, customEmoji: kind.customEmoji ?? null, partIndex: kind.partIndex ?? 0 };

const sameKind = (reaction: Reaction, kind: Required<ReactionKind>): boolean =>
  reaction.type === kind.type &&
  reaction.customEmoji === kind.customEmoji &&
  reaction.partIndex === kind.partIndex;

/** V2 knows six reaction types; the others exist only for V3. */
export function isClassic(reaction: Reaction): boolean {
  return (REACTION_TYPES as readonly string[]).includes(reaction.type);
}

/** Who reacts: the organization's line (`from` null) or the customer with that identifier in the chat. */
function reactor(chat: Chat, from: string | null): Handle | undefined {
  return from === null ? meHandle(chat) : chat.handles.find((h) => h.identifier === from && !h.isMe);
}

/**
 * Adds a reaction from the organization's line (`from` null) or from a customer. One reaction per
 * (message, sender, kind); adding it again returns the existing one. Emits reaction.sent/received
 * (V2, classic types only) and reaction.added (V3).
 */
export function addReaction(
  world: World,
  org: Org,
  chat: Chat,
  message: Message,
  kindOrType: ReactionType | ReactionKind,
  from: string | null,
  traceId: string | null = null,
): ReactionResult {
  const kind = asKind(kindOrType);
  const handle = reactor(chat, from);
  if (!handle) throw new Error(`${from} is not in chat ${chat.id}`);
  const existing = message.reactions.find((r) => r.handleId === handle.id && sameKind(r, kind));
  if (existing) return { reaction: existing, created: false };
  const now = world.clock.now();
  const reaction: Reaction = {
    id: world.nextId('reaction'),
    messageId: message.id,
    type: kind.type,
    customEmoji: kind.customEmoji,
    partIndex: kind.partIndex,
    isFromMe: handle.isMe,
    fromPhone: handle.identifier,
    handleId: handle.id,
    sentAt: now,
    createdAt: now,
    updatedAt: now,
  };
  message.reactions.push(reaction);
  if (isClassic(reaction)) {
    world.emit(
      org,
      handle.isMe ? 'reaction.sent' : 'reaction.received',
      reactionEventData(org, chat, message, reaction),
      traceId,
    );
  }
  emitReactionV3(world, org, chat, message, reaction, 'added', traceId);
  return { reaction, created: true };
}

/**
 * Removes a reaction; undefined when there was none. V2 has no removal event (observed by
 * polling); V3 announces reaction.removed.
 */
export function removeReaction(
  world: World,
  org: Org,
  chat: Chat,
  message: Message,
  kindOrType: ReactionType | ReactionKind,
  from: string | null,
  traceId: string | null = null,
): Reaction | undefined {
  const kind = asKind(kindOrType);
  const handle = reactor(chat, from);
  const existing = handle && message.reactions.find((r) => r.handleId === handle.id && sameKind(r, kind));
  if (!existing) return undefined;
  message.reactions = message.reactions.filter((r) => r !== existing);
  emitReactionV3(world, org, chat, message, existing, 'removed', traceId);
  return existing;
}
