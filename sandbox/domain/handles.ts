/** Who is in a chat: a leaf module, so operations, names and webhook shapes can all ask it. */
import type { Chat, Handle } from './model.ts';

/** The customers currently in the chat (not the organization's line, not those who left). */
export function customerHandles(chat: Chat): Handle[] {
  return chat.handles.filter((h) => !h.isMe && h.departedAt === null);
}

export function meHandle(chat: Chat): Handle {
  const me = chat.handles.find((h) => h.isMe);
  if (!me) throw new Error(`chat ${chat.id} has no own handle`);
  return me;
}
