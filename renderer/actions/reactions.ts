/** Reacting to a message: a tapback, or (where the workspace takes them) any one emoji. */
import type { Message, ReactionKind } from '../../shared/domain.ts';
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { getState } from '../store/index.ts';

/** Toggles one of your tapbacks on a message. */
export async function toggleReaction(message: Message, kind: ReactionKind): Promise<void> {
  if (message.id === null) return;
  const mine = message.reactions.some((r) => r.fromMe && r.kind === kind);
  await parley.messages
    .react({ messageId: message.id, kind, operation: mine ? 'remove' : 'add' })
    .catch((e: unknown) => getState().pushToast(errorText(e), 'error'));
}

/** Adds (or, when it is already yours, removes) any emoji as a reaction (capability `customReactions`). */
export async function toggleCustomReaction(message: Message, emoji: string): Promise<void> {
  if (message.id === null) return;
  const mine = message.reactions.some((r) => r.fromMe && r.kind === 'custom' && r.customEmoji === emoji);
  await parley.messages
    .react({ messageId: message.id, kind: 'custom', customEmoji: emoji, operation: mine ? 'remove' : 'add' })
    .catch((e: unknown) => getState().pushToast(`Not reacted: ${errorText(e)}`, 'error'));
}
