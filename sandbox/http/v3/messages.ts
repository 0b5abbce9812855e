/** V3 messages: list, 202 send, get, edit, delete, thread, reactions. */
import type { FastifyInstance } from 'fastify';
import { findMessage, removeMessage } from '../../domain/chats.ts';
import { REACTION_TYPES, type Chat, type Message, type Org, type ReactionType } from '../../domain/model.ts';
import { addReaction, removeReaction } from '../../domain/reactions.ts';
import { emitEditedV3 } from '../../domain/v3/events.ts';
import { partsOf, presentMessageV3 } from '../../domain/v3/shapes.ts';
import type { SandboxServices } from '../context.ts';
import { v3 } from './errors.ts';
import { MAX_TEXT, readContent } from './parts.ts';
import {
  activeChatOfV3,
  bodyOf,
  chatOfV3,
  liveMessageOfV3,
  messageOfV3,
  pageOf,
  pageParams,
} from './read.ts';
import { ack, checkCanSend, replayOf, sendV3 } from './send.ts';

export const MAX_EDITS = 5;
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

type ChatParams = { chatId: string };
type MessageParams = { messageId: string };

/** The message a thread starts from: follow reply_to up while the target still exists. */
function threadRoot(org: Org, message: Message): Message {
  let current = message;
  for (let hops = 0; current.replyTo && hops < 1000; hops++) {
    const parent =
      findMessage(org, current.replyTo.messageId) ?? org.deletedMessages.get(current.replyTo.messageId);
    if (!parent) break;
    current = parent;
  }
  return current;
}

export function registerV3MessageRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  app.get('/chats/:chatId/messages', async (request) => {
    const org = request.org;
    const chat = chatOfV3(org, (request.params as ChatParams).chatId);
    const page = pageParams(request.query as Record<string, unknown>, { limit: 50 });
    const { slice, nextCursor } = pageOf([...chat.messages].reverse(), page);
    return { messages: slice.map((m) => presentMessageV3(org, chat, m)), next_cursor: nextCursor };
  });

  /** 202: accepted, pending, no service yet; message.sent / delivered / failed follow as webhooks. */
  app.post('/chats/:chatId/messages', async (request, reply) => {
    const org = request.org;
    const chat = activeChatOfV3(org, (request.params as ChatParams).chatId);
    const body = bodyOf(request.body);
    const content = await readContent(world, org, body.message, { group: chat.group, chat });
    const replay = replayOf(org, content.idempotencyKey);
    let sent = replay;
    if (!sent) {
      checkCanSend(org, chat);
      sent = { chat, message: sendV3(world, org, chat, content, request.id) };
    }
    return reply.status(202).send({
      chat_id: presentMessageV3(org, sent.chat, sent.message).chat_id,
      message: presentMessageV3(org, sent.chat, sent.message),
    });
  });

  app.get('/messages/:messageId', async (request) => {
    const { chat, message } = liveMessageOfV3(request.org, (request.params as MessageParams).messageId);
    return presentMessageV3(request.org, chat, message);
  });

  /** At most 5 edits within 15 minutes of sending; a deleted message conflicts (2015). */
  app.patch('/messages/:messageId', async (request) => {
    const org = request.org;
    const { chat, message, deleted } = messageOfV3(org, (request.params as MessageParams).messageId);
    if (deleted) throw v3(2015, 'the message was deleted');
    const body = bodyOf(request.body);
    if (body.text === undefined || body.text === null) throw v3(1001, 'text is required');
    const text = body.text;
    if (typeof text !== 'string' || text.length < 1 || text.length > MAX_TEXT)
      throw v3(1004, `text must be 1 to ${MAX_TEXT} characters`);
    const partIndex = body.part_index ?? 0;
    const parts = partsOf(message);
    if (!Number.isInteger(partIndex) || parts[partIndex as number]?.type !== 'text')
      throw v3(1005, 'part_index must name a text part');
    if (!message.outbound) throw v3(2005, 'only your own messages can be edited');
    if (chat.service === 'SMS') throw v3(2017, 'SMS messages cannot be edited');
    const now = world.clock.now();
    if (message.editCount >= MAX_EDITS) throw v3(2015, `a message can be edited at most ${MAX_EDITS} times`);
    if (now - message.sentAt > EDIT_WINDOW_MS) throw v3(2015, 'the 15-minute edit window has passed');
    const edited = parts.map((p, i) => (i === partIndex && p.type === 'text' ? { ...p, value: text } : p));
    message.parts = edited;
    message.text = edited
      .flatMap((p) => (p.type === 'text' || p.type === 'link' ? [p.value] : []))
      .join('\n');
    message.editedAt = now;
    message.editCount++;
    emitEditedV3(world, org, chat, message, partIndex as number, text, request.id);
    return presentMessageV3(org, chat, message);
  });

  /** Removes it from the service's store only; recipients keep it. */
  app.delete('/messages/:messageId', async (request, reply) => {
    const org = request.org;
    const { chat, message } = liveMessageOfV3(org, (request.params as MessageParams).messageId);
    if (!message.outbound) throw v3(2005, 'only your own messages can be deleted');
    removeMessage(org, chat, message);
    return reply.status(204).send();
  });

  app.get('/messages/:messageId/thread', async (request) => {
    const org = request.org;
    const { chat, message } = liveMessageOfV3(org, (request.params as MessageParams).messageId);
    const query = request.query as Record<string, unknown>;
    const order = query.order ?? 'asc';
    if (order !== 'asc' && order !== 'desc') throw v3(1005, 'order must be asc or desc');
    const root = threadRoot(org, message);
    const thread = chat.messages.filter(
      (m) => m.id === root.id || (m.replyTo && threadRoot(org, m).id === root.id),
    );
    if (order === 'desc') thread.reverse();
    const { slice, nextCursor } = pageOf(thread, pageParams(query, { limit: 50 }));
    return { messages: slice.map((m) => presentMessageV3(org, chat, m)), next_cursor: nextCursor };
  });

  app.post('/messages/:messageId/reactions', async (request, reply) => {
    const org = request.org;
    const { chat, message } = liveMessageOfV3(org, (request.params as MessageParams).messageId);
    const kind = readReaction(bodyOf(request.body), chat, message);
    if (chat.left) throw v3(2013);
    if (kind.operation === 'add') {
      addReaction(world, org, chat, message, kind, null, request.id);
      return reply.status(202).send(ack(request.id, 'Reaction is being added'));
    }
    const removed = removeReaction(world, org, chat, message, kind, null, request.id);
    if (!removed) throw v3(2015, 'there is no such reaction of yours to remove');
    return reply.status(202).send(ack(request.id, 'Reaction is being removed'));
  });
}

function readReaction(body: Record<string, unknown>, _chat: Chat, message: Message) {
  const { operation, type } = body;
  if (operation === undefined || type === undefined) throw v3(1001, 'operation and type are required');
  if (operation !== 'add' && operation !== 'remove') throw v3(1005, 'operation must be add or remove');
  const custom = type === 'custom';
  if (!custom && !(REACTION_TYPES as readonly unknown[]).includes(type))
    throw v3(1005, `type must be one of ${REACTION_TYPES.join(', ')} or custom`);
  const emoji = body.custom_emoji;
  if (custom && (typeof emoji !== 'string' || emoji.length === 0 || [...emoji].length > 8))
    throw v3(1005, 'custom reactions need custom_emoji');
  if (!custom && emoji !== undefined && emoji !== null) throw v3(1005, 'custom_emoji goes with type custom');
  const partIndex = body.part_index ?? 0;
  if (
    !Number.isInteger(partIndex) ||
    (partIndex as number) < 0 ||
    (partIndex as number) >= Math.max(1, partsOf(message).length)
  )
    throw v3(1005, 'part_index must name a part of the message');
  return {
    operation: operation as 'add' | 'remove',
    type: type as ReactionType | 'custom',
    customEmoji: custom ? (emoji as string) : null,
    partIndex: partIndex as number,
  };
}
