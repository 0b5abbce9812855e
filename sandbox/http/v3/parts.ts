/**
 * V3 message content (spec "send message", V3-DECISIONS "Request parts"): parts, effect, reply_to,
 * preferred_service and idempotency_key, validated before anything is stored.
 */
import {
  SERVICES,
  type Attachment,
  type Chat,
  type Message,
  type Org,
  type Service,
  type StoredPart,
} from '../../domain/model.ts';
import type { World } from '../../domain/world.ts';
import { acceptAttachments } from '../attachments.ts';
import { ApiError } from '../errors.ts';
import { IDEMPOTENCY_KEY } from '../params.ts';
import { V3Error, v3 } from './errors.ts';
import { type Body, handleField, liveMessageOfV3 } from './read.ts';

export const MAX_PARTS = 100;
export const MAX_TEXT = 10_000;
export const MAX_URL_MEDIA_BYTES = 10 * 1024 * 1024;

const SCREEN_EFFECTS = [
  'confetti',
  'fireworks',
  'lasers',
  'sparkles',
  'hearts',
  'balloons',
  'echo',
  'spotlight',
];
const BUBBLE_EFFECTS = ['slam', 'loud', 'gentle', 'invisible'];
const EFFECT_ALIASES: Record<string, string> = {
  celebration: 'sparkles',
  love: 'hearts',
  happy_birthday: 'balloons',
};
const TEAM_ID = /^[A-Z0-9]{10}$/;
const URL_IN_TEXT = /\bhttps?:\/\/\S+|\bwww\.\S+\.\S+/i;

export interface MessageContent {
  parts: StoredPart[];
  /** What V2 sees: the text parts and links, one per line. */
  text: string;
  attachments: Attachment[];
  effect: Message['effect'];
  replyTo: Message['replyTo'];
  preferredService: Service | null;
  idempotencyKey: string | null;
}

interface Context {
  group: boolean;
  /** The chat the message goes to (absent when the chat is being created). */
  chat: Chat | null;
}

const invalid = (detail: string): V3Error => v3(1004, detail);

function readEffect(raw: unknown): Message['effect'] {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw v3(1005, 'effect must be an object');
  const { type, name } = raw as Body;
  if (typeof name !== 'string') throw v3(1005, 'effect.name is required');
  const canonical = EFFECT_ALIASES[name] ?? name;
  if (type === 'screen' && SCREEN_EFFECTS.includes(canonical)) return { type, name: canonical };
  if (type === 'bubble' && BUBBLE_EFFECTS.includes(canonical)) return { type, name: canonical };
  throw v3(1005, `effect ${String(type)}/${name} is not a known effect`);
}

function readDecorations(raw: unknown, text: string, label: string): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) throw invalid(`${label}.text_decorations must be an array`);
  raw.forEach((item: unknown, i) => {
    const d = (item ?? {}) as Body;
    const range = d.range;
    const ok =
      Array.isArray(range) &&
      range.length === 2 &&
      range.every((n) => Number.isInteger(n)) &&
      (range[0] as number) >= 0 &&
      (range[0] as number) < (range[1] as number) &&
      (range[1] as number) <= text.length;
    if (!ok) throw invalid(`${label}.text_decorations[${i}].range must be [start, end) within the text`);
    if (typeof d.style !== 'string' && typeof d.animation !== 'string')
      throw invalid(`${label}.text_decorations[${i}] needs a style or an animation`);
  });
}

function httpsUrl(raw: unknown, label: string): string {
  if (typeof raw !== 'string') throw invalid(`${label} must be a URL`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`${label} is not a URL`);
  }
  if (url.protocol !== 'https:') throw invalid(`${label} must be an https URL`);
  return raw;
}

/** Validates and resolves message content; stores nothing until every check has passed. */
export async function readContent(
  world: World,
  org: Org,
  raw: unknown,
  context: Context,
): Promise<MessageContent> {
  if (raw === undefined || raw === null) throw v3(1001, 'message is required');
  if (typeof raw !== 'object' || Array.isArray(raw)) throw v3(1005, 'message must be an object');
  const body = raw as Body;
  if (body.parts === undefined || body.parts === null) throw v3(1001, 'message.parts is required');
  if (!Array.isArray(body.parts) || body.parts.length === 0)
    throw invalid('message.parts must be a non-empty array');
  if (body.parts.length > MAX_PARTS) throw invalid(`a message has at most ${MAX_PARTS} parts`);

  const pending: Array<
    StoredPart | { type: 'media-url'; url: string } | { type: 'media-upload'; id: string }
  > = [];
  let previous: string | null = null;
  for (const [i, item] of (body.parts as unknown[]).entries()) {
    const label = `message.parts[${i}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalid(`${label} must be an object`);
    const part = item as Body;
    if (part.type === 'text') {
      if (previous === 'text') throw invalid(`${label}: two text parts in a row; join them`);
      const value = part.value;
      if (typeof value !== 'string' || value.length < 1 || value.length > MAX_TEXT)
        throw invalid(`${label}.value must be 1 to ${MAX_TEXT} characters`);
      readDecorations(part.text_decorations, value, label);
      let mention: string | null = null;
      if (part.mention !== undefined && part.mention !== null) {
        if (!context.group) throw v3(2023, 'mentions are for group chats only');
        mention = handleField((part.mention as Body).handle, `${label}.mention.handle`);
      }
      pending.push({ type: 'text', value, mention });
    } else if (part.type === 'link') {
      if (body.parts.length !== 1) throw invalid('a link part must be the only part of its message');
      pending.push({ type: 'link', value: httpsOrHttp(part.value, `${label}.value`) });
    } else if (part.type === 'media') {
      if (typeof part.attachment_id === 'string')
        pending.push({ type: 'media-upload', id: part.attachment_id });
      else if (part.url !== undefined)
        pending.push({ type: 'media-url', url: httpsUrl(part.url, `${label}.url`) });
      else throw invalid(`${label} needs attachment_id or url`);
    } else if (part.type === 'app') {
      const app = (part.app ?? {}) as Body;
      if (typeof app.name !== 'string' || !app.name) throw v3(1008, `${label}.app.name is required`);
      if (app.team_id !== undefined && (typeof app.team_id !== 'string' || !TEAM_ID.test(app.team_id)))
        throw v3(1008, `${label}.app.team_id must be 10 uppercase letters or digits`);
      throw v3(2011, 'iMessage app messages are not available to this account');
    } else {
      throw invalid(`${label}.type must be text, media or link`);
    }
    previous = String(part.type);
  }

  const effect = readEffect(body.effect);
  let preferredService: Service | null = null;
  if (body.preferred_service !== undefined && body.preferred_service !== null) {
    if (!(SERVICES as readonly unknown[]).includes(body.preferred_service))
      throw v3(1005, 'preferred_service must be iMessage, RCS or SMS');
    preferredService = body.preferred_service as Service;
  }
  let idempotencyKey: string | null = null;
  if (body.idempotency_key !== undefined && body.idempotency_key !== null) {
    if (typeof body.idempotency_key !== 'string' || !IDEMPOTENCY_KEY.test(body.idempotency_key))
      throw v3(1005, 'idempotency_key must match ^[a-zA-Z0-9_-]+$');
    idempotencyKey = body.idempotency_key;
  }
  let replyTo: Message['replyTo'] = null;
  if (body.reply_to !== undefined && body.reply_to !== null) {
    const reply = body.reply_to as Body;
    const target = liveMessageOfV3(org, typeof reply.message_id === 'string' ? reply.message_id : undefined);
    if (!context.chat || target.chat.id !== context.chat.id)
      throw v3(1005, 'reply_to.message_id must be a message of this chat');
    const partIndex = reply.part_index ?? 0;
    if (!Number.isInteger(partIndex) || (partIndex as number) < 0)
      throw v3(1005, 'reply_to.part_index must be a part of that message');
    replyTo = { messageId: target.message.id, partIndex: partIndex as number };
  }

  const parts: StoredPart[] = [];
  for (const item of pending) {
    if (item.type === 'media-upload') {
      const upload = org.uploads.get(item.id);
      if (!upload) throw v3(2003, `attachment ${item.id} does not exist`);
      if (upload.status !== 'complete' || !upload.attachment) throw v3(2007);
      parts.push({ type: 'media', attachment: upload.attachment });
    } else if (item.type === 'media-url') {
      parts.push({ type: 'media', attachment: await download(world, item.url) });
    } else {
      parts.push(item);
    }
  }
  const text = parts.flatMap((p) => (p.type === 'text' || p.type === 'link' ? [p.value] : [])).join('\n');
  const attachments = parts.flatMap((p) => (p.type === 'media' ? [p.attachment] : []));
  return { parts, text, attachments, effect, replyTo, preferredService, idempotencyKey };
}

function httpsOrHttp(raw: unknown, label: string): string {
  if (typeof raw !== 'string') throw invalid(`${label} must be a URL`);
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw invalid(`${label} must be an http(s) URL`);
  }
  return raw;
}

async function download(world: World, url: string): Promise<Attachment> {
  const limit = Math.min(world.config.attachmentMaxBytes, MAX_URL_MEDIA_BYTES);
  try {
    const [attachment] = await acceptAttachments(world, [], [url], 'message.parts', limit);
    if (!attachment) throw v3(5002);
    return attachment;
  } catch (error) {
    if (error instanceof ApiError) throw new V3Error(5002, error.detail, { status: 400 });
    throw error;
  }
}

/** A first message may not carry a link (1005): no link part, no URL in its text. */
export function refuseLinksInFirstMessage(content: MessageContent): void {
  const linked = content.parts.some(
    (p) => p.type === 'link' || (p.type === 'text' && URL_IN_TEXT.test(p.value)),
  );
  if (linked) throw v3(1005, 'the first message of a chat cannot contain a link');
}
