/**
 * The rules a message must pass to leave, each written once and refused in one shape: what the
 * agent reads is the same whichever way the message was going out (send-door.ts applies them). The
 * renderer mirrors them to turn Send off early (renderer/lib/standing.ts `sendPermission`, shared/message-rules.ts).
 */
import type { BridgeErrorShape } from '../../../shared/contract/errors.ts';
import type { Chat, Message } from '../../../shared/domain.ts';
import { EMPTY_MESSAGE, isSendable } from '../../../shared/message-rules.ts';
import type { SendOptions } from '../store/send-options.ts';

/** A send the rules refuse, already in the bridge's shape; nothing was queued or sent. */
export class SendRefused extends Error {
  readonly shape: BridgeErrorShape;
  constructor(code: string, message: string, field?: string) {
    super(message);
    this.name = 'SendRefused';
    this.shape = { code, message, retryable: false, ...(field ? { field } : {}) };
  }
}

/** A client key already names another message: sending under it would merge two messages. */
export class ClientKeyInUse extends SendRefused {
  constructor() {
    super('conflict', 'This message key is already used by a different message', 'clientKey');
    this.name = 'ClientKeyInUse';
  }
}

/**
 * A failed message that sending again cannot help (a lasting refusal), cannot carry (attachments),
 * or that the rules now refuse (an opt-out since): then with the rule's own code and words.
 */
export class NotSendableAgain extends SendRefused {
  constructor(message: string, code = 'conflict', field?: string) {
    super(code, message, field);
    this.name = 'NotSendableAgain';
  }
}

/** A message needs some text or an attachment: the contract's rule, in the contract's words. */
export function refuseEmpty(text: string, attachmentCount: number): void {
  if (!isSendable({ text, attachmentCount })) throw new SendRefused('invalid_input', EMPTY_MESSAGE, 'text');
}

/** An opted-out chat takes nothing more: the recipient asked not to be messaged. */
export function refuseOptedOut(chat: Chat): void {
  if (chat.health?.status === 'OPTED_OUT')
    throw new SendRefused('opted_out', 'The recipient asked you to stop messaging them', 'chatId');
}

/** A reply as the agent asks for it (a message of the chat, by key) or as kept (its V3 id). */
export type ReplyTarget =
  { messageKey: string; partIndex?: number | undefined } | { messageId: string; partIndex: number };

/** V3-only options of a send, as asked for or as kept with a held or failed message. */
export interface AskedOptions {
  replyTo?: ReplyTarget | undefined;
  effect?: SendOptions['effect'] | undefined;
  preferredService?: SendOptions['preferredService'] | undefined;
}

/**
 * The V3-only options of a send, checked against the chat: refused on a V2 chat (`unsupported`,
 * naming the first option asked), an effect only on iMessage, a reply only to a message of this
 * chat the service knows (a kept reply already names its V3 id). Null when none is asked.
 */
export function v3SendOptions(
  chat: Chat,
  asked: AskedOptions,
  messageByKey: (key: string) => Message | undefined,
): SendOptions | null {
  const named = (['replyTo', 'effect', 'preferredService'] as const).filter(
    (name) => asked[name] !== undefined,
  );
  if (named.length === 0) return null;
  if (chat.apiVersion !== 'v3')
    throw new SendRefused(
      'unsupported',
      'Replies, effects and a chosen service need a V3 workspace',
      named[0] as string,
    );
  if (asked.effect && chat.service !== 'iMessage')
    throw new SendRefused('unsupported', 'Effects are shown on iMessage only', 'effect');
  const replyTo = asked.replyTo ? replyTarget(chat, asked.replyTo, messageByKey) : undefined;
  return {
    ...(replyTo ? { replyTo } : {}),
    ...(asked.effect ? { effect: asked.effect } : {}),
    ...(asked.preferredService ? { preferredService: asked.preferredService } : {}),
  };
}

function replyTarget(
  chat: Chat,
  target: ReplyTarget,
  messageByKey: (key: string) => Message | undefined,
): NonNullable<SendOptions['replyTo']> {
  if ('messageId' in target) return target;
  const message = messageByKey(target.messageKey);
  if (!message || message.chatId !== chat.id)
    throw new SendRefused('not_found', 'The message replied to is not in this chat', 'replyTo.messageKey');
  if (!message.v3Id)
    throw new SendRefused(
      'invalid_input',
      'Only a message the service has accepted can be replied to',
      'replyTo.messageKey',
    );
  return { messageId: message.v3Id, partIndex: target.partIndex ?? 0 };
}
