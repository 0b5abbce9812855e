/** Reading V3 requests: bodies, UUID path ids, handles, lines and cursors, in V3 error codes. */
import { findMessage } from '../../domain/chats.ts';
import type { Chat, Line, Message, Org } from '../../domain/model.ts';
import { isEmail } from '../../domain/phone.ts';
import { fromV3Id, isUuid } from '../../domain/v3/ids.ts';
import { reachableInV3 } from '../../domain/v3/shapes.ts';
import { v3 } from './errors.ts';

export type Body = Record<string, unknown>;

export function bodyOf(value: unknown): Body {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw v3(1003, 'The body must be a JSON object');
  return value as Body;
}

export function objectField(body: Body, key: string, required: boolean): Body | undefined {
  const value = body[key];
  if (value === undefined || value === null) {
    if (required) throw v3(1001, `${key} is required`);
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw v3(1005, `${key} must be an object`);
  return value as Body;
}

export function stringField(body: Body, key: string, required: boolean): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) {
    if (required) throw v3(1001, `${key} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw v3(1005, `${key} must be a string`);
  return value;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** V3 takes E.164 with the + (or an email) and normalises nothing else (1002). */
export function handleField(value: unknown, name: string): string {
  if (typeof value !== 'string') throw v3(1002, `${name} must be an E.164 phone number or an email`);
  if (isEmail(value)) return value.toLowerCase();
  if (!E164.test(value)) throw v3(1002, `${name} must be E.164 with a + prefix (e.g. +14155550123)`);
  return value;
}

/** The organization's line with this number (2006 when the number is not the organization's). */
export function lineOfNumber(org: Org, raw: unknown, name: string): Line {
  const number = handleField(raw, name);
  const line = org.lines.find((l) => l.phoneNumber === number);
  if (!line) throw v3(2006, `${number} is not assigned to your account`);
  return line;
}

function uuidParam(raw: string | undefined, what: string): string {
  if (!raw || !isUuid(raw)) throw v3(1005, `${what} must be a UUID`);
  return raw;
}

/** A chat by its V3 id; another organization's chats do not exist (2001). */
export function chatOfV3(org: Org, raw: string | undefined): Chat {
  const id = fromV3Id(org, 'chat', uuidParam(raw, 'chatId'));
  const chat = id === undefined ? undefined : org.chats.get(id);
  if (!chat || !reachableInV3(chat)) throw v3(2001);
  return chat;
}

/** A chat the organization can still act in (2013 after it left). */
export function activeChatOfV3(org: Org, raw: string | undefined): Chat {
  const chat = chatOfV3(org, raw);
  if (chat.left) throw v3(2013);
  return chat;
}

export interface FoundMessage {
  chat: Chat;
  message: Message;
}

/** A live message by V3 id (2002); `deleted` is set when it was deleted through the API. */
export function messageOfV3(org: Org, raw: string | undefined): FoundMessage & { deleted: boolean } {
  const id = fromV3Id(org, 'message', uuidParam(raw, 'messageId'));
  if (id === undefined) throw v3(2002);
  const live = findMessage(org, id);
  const message = live ?? org.deletedMessages.get(id);
  const chat = message && org.chats.get(message.chatId);
  if (!message || !chat || !reachableInV3(chat)) throw v3(2002);
  return { chat, message, deleted: !live };
}

export function liveMessageOfV3(org: Org, raw: string | undefined): FoundMessage {
  const found = messageOfV3(org, raw);
  if (found.deleted) throw v3(2002);
  return found;
}

/** Opaque cursors: a position in the list, base64url so a client never builds one. */
export function pageParams(query: Body, defaults: { limit: number }): { limit: number; offset: number } {
  let limit = defaults.limit;
  if (query.limit !== undefined && query.limit !== '') {
    const n = Number(query.limit);
    if (!Number.isInteger(n) || n < 1 || n > 100) throw v3(1005, 'limit must be an integer from 1 to 100');
    limit = n;
  }
  let offset = 0;
  if (typeof query.cursor === 'string' && query.cursor !== '') {
    const decoded = /^o(\d{1,9})$/.exec(Buffer.from(query.cursor, 'base64url').toString('utf8'));
    if (!decoded) throw v3(1005, 'cursor is not one this service gave');
    offset = Number(decoded[1]);
  }
  return { limit, offset };
}

export function pageOf<T>(items: readonly T[], page: { limit: number; offset: number }) {
  const slice = items.slice(page.offset, page.offset + page.limit);
  const next = page.offset + page.limit;
  return {
    slice,
    nextCursor: next < items.length ? Buffer.from(`o${next}`).toString('base64url') : null,
  };
}
