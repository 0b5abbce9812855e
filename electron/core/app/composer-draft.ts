import type { ServiceSession } from '../session.ts';

/**
 * The composer's message was taken (queued, or held back for undo or later): the chat's draft
 * starts empty, in the same transaction, so a crash never leaves both the message and its draft.
 * Only the handlers that take the composer's draft call this; a release, a reply from a
 * notification or Send again leave what the agent is typing alone.
 */
export function takeDraft<T>(session: ServiceSession, chatId: number, take: () => T): T {
  return session.store.transaction(() => {
    const taken = take();
    session.store.drafts.set(chatId, '', []);
    return taken;
  });
}
