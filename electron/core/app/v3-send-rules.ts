/**
 * What a send may carry on this chat: nothing to an opted-out chat, and V3-only options (reply,
 * effect, preferred service) only on V3, an effect only on iMessage, a reply only to a message of
 * this chat the service knows. The renderer mirrors these in renderer/lib/v3-presentation.ts.
 */
import type { MethodParsedInput } from '../../../shared/contract/methods.ts';
import type { Chat, Message } from '../../../shared/domain.ts';
import type { SendOptions } from '../outbox/jobs.ts';
import { UserFacingError } from './errors.ts';

/** An opted-out chat takes nothing more: the recipient asked not to be messaged. */
export function refuseOptedOut(chat: Chat): void {
  if (chat.health?.status === 'OPTED_OUT')
    throw new UserFacingError('opted_out', 'The recipient asked you to stop messaging them', {
      field: 'chatId',
    });
}

/**
 * The V3-only options of a send, checked against the chat: refused on a V2 chat (`unsupported`),
 * an effect only on iMessage, a reply only to a message of this chat the service knows.
 */
export function v3SendOptions(
  chat: Chat,
  requested: Pick<MethodParsedInput<'messages.send'>, 'replyTo' | 'effect' | 'preferredService'>,
  messageByKey: (key: string) => Message | undefined,
): SendOptions | null {
  const asked = (['replyTo', 'effect', 'preferredService'] as const).filter(
    (name) => requested[name] !== undefined,
  );
  if (asked.length === 0) return null;
  const field = asked[0] as string;
  if (chat.apiVersion !== 'v3')
    throw new UserFacingError('unsupported', 'Replies, effects and a chosen service need a V3 workspace', {
      field,
    });
  if (requested.effect && chat.service !== 'iMessage')
    throw new UserFacingError('unsupported', 'Effects are shown on iMessage only', { field: 'effect' });
  let replyTo: SendOptions['replyTo'];
  if (requested.replyTo) {
    const target = messageByKey(requested.replyTo.messageKey);
    if (!target || target.chatId !== chat.id)
      throw new UserFacingError('not_found', 'The message replied to is not in this chat', {
        field: 'replyTo.messageKey',
      });
    if (!target.v3Id)
      throw new UserFacingError(
        'invalid_input',
        'Only a message the service has accepted can be replied to',
        {
          field: 'replyTo.messageKey',
        },
      );
    replyTo = { messageId: target.v3Id, partIndex: requested.replyTo.partIndex ?? 0 };
  }
  return {
    ...(replyTo ? { replyTo } : {}),
    ...(requested.effect ? { effect: requested.effect } : {}),
    ...(requested.preferredService ? { preferredService: requested.preferredService } : {}),
  };
}
