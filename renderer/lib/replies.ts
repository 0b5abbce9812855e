/**
 * Replies and threads: a message quoted on one line, the message a reply answers, how many answer
 * one, and what the optimistic bubble of a send shows of its reply and effect from its first frame.
 * Whether the workspace has replies at all is a capability (capabilities.ts `replies`).
 */
import type { Message, MessageEffect, MessagePart } from '../../shared/domain.ts';
import { ALLOWED, denied, type Permission } from './permission.ts';

/** A one-line quote of a message for a reply preview (composer, bubble or thread panel). */
export function quoteText(message: Pick<Message, 'text' | 'attachments' | 'parts'>, max = 90): string {
  const link = message.parts?.find((p): p is Extract<MessagePart, { type: 'link' }> => p.type === 'link');
  const text = message.text.trim() || link?.url || '';
  if (text === '') {
    const count = message.attachments.length;
    return count === 0 ? 'A message' : count === 1 ? 'An attachment' : `${count} attachments`;
  }
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** The message a reply quotes, among those loaded (null when it is not on screen). */
export function repliedMessage(
  message: Pick<Message, 'replyTo'>,
  loaded: readonly Message[],
): Message | null {
  const id = message.replyTo?.messageId;
  if (!id) return null;
  return loaded.find((m) => m.v3Id === id) ?? null;
}

/** How many loaded messages answer this one (its thread's size, without it). */
export function replyCount(message: Pick<Message, 'v3Id'>, loaded: readonly Message[]): number {
  if (!message.v3Id) return 0;
  return loaded.filter((m) => m.replyTo?.messageId === message.v3Id).length;
}

/** A reply names the message it answers by the service's id, which it has once accepted. */
export function canReply(message: Pick<Message, 'v3Id'>): Permission {
  if (!message.v3Id) return denied('Wait until the message is sent to reply to it');
  return ALLOWED;
}

/**
 * What the optimistic bubble of a send shows of its options from its first frame: the message it
 * answers (named by its service id, as the core will send it) and its effect. Nothing for a send
 * without them.
 */
export function optimisticSendFields(
  options: { replyTo?: { messageKey: string; partIndex?: number }; effect?: MessageEffect },
  loaded: readonly Message[],
): Pick<Message, 'replyTo' | 'effect'> {
  const target = options.replyTo && loaded.find((m) => m.key === options.replyTo?.messageKey);
  return {
    ...(target?.v3Id
      ? { replyTo: { messageId: target.v3Id, partIndex: options.replyTo?.partIndex ?? 0 } }
      : {}),
    ...(options.effect ? { effect: options.effect } : {}),
  };
}
