/** Lookups scoped to the requesting organization: another organization's resources do not exist. */
import type { Chat, Line, Message, Org } from '../../domain/model.ts';
import { findMessage } from '../../domain/chats.ts';
import { forbidden, notFound } from '../errors.ts';
import { pathId, phoneParam } from '../params.ts';

export function chatOf(org: Org, rawId: string | undefined): Chat {
  const chat = org.chats.get(pathId(rawId, () => notFound('Chat')));
  if (!chat) throw notFound('Chat');
  return chat;
}

export function messageOf(
  org: Org,
  rawId: string | undefined,
  chat?: Chat,
): { chat: Chat; message: Message } {
  const id = pathId(rawId, () => notFound('Message'));
  const message = findMessage(org, id);
  const owner = message && org.chats.get(message.chatId);
  if (!message || !owner || (chat && owner.id !== chat.id)) throw notFound('Message');
  return { chat: owner, message };
}

/** The organization's line with this number; 403 when the number is not the organization's. */
export function lineByNumber(org: Org, raw: string, name: string): Line {
  const number = phoneParam(raw, name);
  const line = org.lines.find((l) => l.phoneNumber === number);
  if (!line) throw forbidden(`${name} ${number} is not a phone number of your organization`);
  return line;
}
