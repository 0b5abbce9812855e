import type { ServiceSession } from '../session.ts';
import { createLogger } from '../log/logger.ts';

const log = createLogger('quick-reply');

/**
 * A reply written where the notification is (inline field, toast input, quick-reply window), behind
 * `workbench.quickReply`: every host reaches it through that contract method. It passes the outbox's
 * door like any other message (an opted-out customer is not texted; the refusal is the composer's),
 * and the conversation is marked read, since the agent has seen what they answered. The composer's
 * draft of that chat is left alone: the reply was not written there.
 */
export async function replyFromNotification(
  session: ServiceSession,
  chatId: number,
  text: string,
): Promise<string> {
  const key = session.sendDoor.send({ origin: 'quick_reply', chatId, text });
  await markChatRead(session, chatId);
  return key;
}

/** Marks a conversation read on the service, then here ("Mark as read" on a notification). */
export async function markChatRead(session: ServiceSession, chatId: number): Promise<void> {
  const chat = session.store.chats.get(chatId);
  if (!chat || (chat.unreadCount === 0 && !chat.markedUnread)) return;
  try {
    // Through the workspace's version: a V3 chat's local id is no V2 id.
    if (chat.unreadCount > 0) await session.messaging.markRead(chatId, { priority: 'user' });
    session.store.transaction(() => {
      session.store.messages.markChatRead(chatId);
      session.store.chats.setFlags(chatId, { markedUnread: false });
    });
  } catch (error) {
    // The chat stays unread; opening it marks it read as usual.
    log.warn('mark as read from a notification failed', { chatId, error: String(error) });
  }
}
