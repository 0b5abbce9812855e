/**
 * The outbox's door. Every way a message leaves builds a SendRequest and passes here: the composer
 * (messages.send, scheduled.send; a canned reply is sent from the composer), a held message's release
 * (undo send's grace period, send later), a reply from a notification (inline field, toast, the
 * quick-reply window), Send again, and a "new" conversation that turns out to exist already. Each
 * rule is checked once, in this order, with one refusal (send-rules.ts) whatever the way:
 *   1. the chat is one of the workspace's (`not_found`);
 *   2. the message has text or an attachment (`invalid_input`);
 *   3. its staged files are still staged (`not_found`);
 *   4. the recipient has not opted out (`opted_out`);
 *   5. V3-only options (reply, effect, chosen service) only on V3, an effect only on iMessage, a
 *      reply only to a message of this chat the service knows (`unsupported`, `not_found`,
 *      `invalid_input`).
 * A refused request leaves nothing behind: no job, no optimistic message, no call to the service.
 * Clearing the composer's draft is not the door's business: the handler that took the draft does it.
 */
import type { LocalStore } from '../store/local-store.ts';
import type { SendOptions } from '../store/send-options.ts';
import type { SendInput } from './jobs/send-message.ts';
import { refuseEmpty, refuseOptedOut, SendRefused, v3SendOptions, type AskedOptions } from './send-rules.ts';
import type { Staging } from './staging.ts';

/** The ways a message leaves (the logs name them; the rules do not depend on them). */
export type SendOrigin =
  'composer' | 'new_chat' | 'undo_release' | 'scheduled_release' | 'quick_reply' | 'send_again';

/** A message asking to leave: its content, and its V3 options as asked or as kept. */
export interface SendRequest extends Omit<SendInput, 'options'> {
  origin: SendOrigin;
  options?: AskedOptions | null | undefined;
}

/** What the door needs of the outbox: queueing a checked send. */
export interface QueuesSends {
  send(input: SendInput): string;
}

/**
 * Checks a request against every rule (the order above); returns what the outbox queues, its V3
 * options resolved. Throws SendRefused.
 */
export function admitSend(store: LocalStore, staging: Staging, request: SendRequest): SendInput {
  const chat = request.chatId > 0 ? store.chats.get(request.chatId) : undefined;
  if (!chat) throw new SendRefused('not_found', 'No such chat', 'chatId');
  const stagedIds = request.stagedIds ?? [];
  const attachmentUrls = request.attachmentUrls ?? [];
  refuseEmpty(request.text, stagedIds.length + attachmentUrls.length);
  stagedIds.forEach((id, i) => {
    if (!staging.get(id))
      throw new SendRefused('not_found', 'That attachment is no longer staged', `stagedIds.${i}`);
  });
  refuseOptedOut(chat);
  const options = v3SendOptions(chat, request.options ?? {}, (key) => store.messages.get(key));
  return {
    chatId: chat.id,
    text: request.text,
    stagedIds: [...stagedIds],
    attachmentUrls: [...attachmentUrls],
    ...(request.clientKey ? { clientKey: request.clientKey } : {}),
    ...(options ? { options } : {}),
  };
}

/** A send as a desktop joined to the team asks the relay for it (core/relay/changes.ts). */
export interface RelayedSend {
  chatId: number;
  text: string;
  attachmentCount: number;
  replyTo?: { messageId: string; partIndex: number } | undefined;
  effect?: SendOptions['effect'] | undefined;
  preferredService?: SendOptions['preferredService'] | undefined;
}

/**
 * The same door on the relay, which trusts no desktop: a send any client holding an agent's key asks
 * for passes the rules above (1, 2, 4, 5; its files are checked as the relay reads them), with the
 * reply target named by its V3 id checked to be a message of this chat. Throws SendRefused.
 */
export function admitRelayedSend(store: LocalStore, send: RelayedSend): void {
  const chat = send.chatId > 0 ? store.chats.get(send.chatId) : undefined;
  if (!chat) throw new SendRefused('not_found', 'No such chat', 'chatId');
  refuseEmpty(send.text, send.attachmentCount);
  refuseOptedOut(chat);
  v3SendOptions(chat, send, (key) => store.messages.get(key));
  if (send.replyTo && store.remoteIds.find('message', send.replyTo.messageId, chat.id) === undefined)
    throw new SendRefused('not_found', 'The message replied to is not in this chat', 'replyTo.messageId');
}

/** The door as the session hands it to whoever sends (the handlers, the scheduler). */
export interface SendDoor {
  /** The request checked, not queued (a message about to be held back): what would be queued. */
  admit(request: SendRequest): SendInput;
  /** Checks the request and queues it; returns its message key. */
  send(request: SendRequest): string;
}

export function openSendDoor(store: LocalStore, staging: Staging, outbox: QueuesSends): SendDoor {
  const admit = (request: SendRequest): SendInput => admitSend(store, staging, request);
  return { admit, send: (request) => outbox.send(admit(request)) };
}
