/**
 * Reacting to a message: the service must know the message first, and a custom reaction is exactly
 * one emoji. Whether the workspace takes any emoji at all is a capability (capabilities.ts
 * `customReactions`); the six tapbacks are in components/reactions.ts.
 */
import type { Message } from '../../shared/domain.ts';
import { ALLOWED, denied, type Permission } from './permission.ts';

export function canReact(message: Pick<Message, 'id'>): Permission {
  if (message.id === null) return denied('Wait until the message is sent to react');
  return ALLOWED;
}

/** Whether a string is exactly one emoji (what a custom reaction may be); the contract checks it too. */
export function isSingleEmoji(value: string): boolean {
  const trimmed = value.trim();
  if (
    !/^\p{Extended_Pictographic}(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f|\p{M})*$/u.test(
      trimmed,
    )
  )
    return false;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return [...segmenter.segment(trimmed)].length === 1;
}
