/** V3 chats: list, create with a first message, get, group name, read, typing, contact card, members. */
import type { FastifyInstance } from 'fastify';
import {
  createChat,
  findChat,
  markChatRead,
  orgTyping,
  startOrgTyping,
  takeDailyChatQuota,
} from '../../domain/chats.ts';
import { customerHandles } from '../../domain/handles.ts';
import { addParticipant, removeParticipant } from '../../domain/participants.ts';
import { emitGroupNameV3 } from '../../domain/v3/events.ts';
import { presentChatV3, presentMessageV3, reachableInV3 } from '../../domain/v3/shapes.ts';
import type { SandboxServices } from '../context.ts';
import { v3 } from './errors.ts';
import { readContent, refuseLinksInFirstMessage } from './parts.ts';
import {
  activeChatOfV3,
  bodyOf,
  chatOfV3,
  handleField,
  lineOfNumber,
  pageOf,
  pageParams,
  stringField,
} from './read.ts';
import { ack, checkCanSend, replayOf, sendV3 } from './send.ts';

const MAX_RECIPIENTS = 31;

type ChatParams = { chatId: string };

export function registerV3ChatRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  app.get('/chats', async (request) => {
    const org = request.org;
    const query = request.query as Record<string, unknown>;
    const line = query.from === undefined ? undefined : lineOfNumber(org, query.from, 'from');
    const page = pageParams(query, { limit: 20 });
    const chats = [...org.chats.values()]
      .filter((c) => reachableInV3(c) && (!line || c.lineId === line.id))
      .sort((a, b) => b.lastActivityAt - a.lastActivityAt || b.id - a.id);
    const { slice, nextCursor } = pageOf(chats, page);
    return { chats: slice.map((c) => presentChatV3(org, c)), next_cursor: nextCursor };
  });

  /** An existing chat with exactly these handles is reused; a new one's first message has no link. */
  app.post('/chats', async (request, reply) => {
    const org = request.org;
    const body = bodyOf(request.body);
    const line = lineOfNumber(org, stringField(body, 'from', true), 'from');
    const to = body.to;
    if (to === undefined || to === null) throw v3(1001, 'to is required');
    if (!Array.isArray(to) || to.length < 1 || to.length > MAX_RECIPIENTS)
      throw v3(1005, `to must list 1 to ${MAX_RECIPIENTS} recipients`);
    const identifiers = [...new Set(to.map((h, i) => handleField(h, `to[${i}]`)))];
    if (identifiers.includes(line.phoneNumber)) throw v3(1005, 'to must not include from');
    const existing = findChat(org, line, identifiers);
    const content = await readContent(world, org, body.message, {
      group: identifiers.length > 1,
      chat: existing ?? null,
    });
    const replay = replayOf(org, content.idempotencyKey);
    if (replay) {
      const chat = {
        ...presentChatV3(org, replay.chat),
        message: presentMessageV3(org, replay.chat, replay.message),
      };
      return reply.status(201).send({ chat });
    }
    if (existing) {
      checkCanSend(org, existing);
      // A V2-era SMS group addressed through V3 becomes a V3 chat (and migrates from then on).
      existing.v3Native = true;
    } else refuseLinksInFirstMessage(content);
    const overQuota = existing ? false : !takeDailyChatQuota(world, line);
    const chat =
      existing ?? createChat(world, org, { line, identifiers, traceId: request.id, v3Native: true });
    const message = sendV3(world, org, chat, content, request.id, overQuota);
    return reply
      .status(201)
      .send({ chat: { ...presentChatV3(org, chat), message: presentMessageV3(org, chat, message) } });
  });

  app.get('/chats/:chatId', async (request) =>
    presentChatV3(request.org, chatOfV3(request.org, (request.params as ChatParams).chatId)),
  );

  app.put('/chats/:chatId', async (request) => {
    const org = request.org;
    const chat = activeChatOfV3(org, (request.params as ChatParams).chatId);
    const name = stringField(bodyOf(request.body), 'display_name', true) as string;
    if (!chat.group) throw v3(1006);
    if (name.trim() === '' || name.length > 255) throw v3(1005, 'display_name must be 1 to 255 characters');
    const old = chat.displayName;
    chat.displayName = name.trim();
    emitGroupNameV3(world, org, chat, old, request.id);
    return { ...presentChatV3(org, chat), chat_id: presentChatV3(org, chat).id, status: 'accepted' };
  });

  app.post('/chats/:chatId/read', async (request, reply) => {
    const chat = chatOfV3(request.org, (request.params as ChatParams).chatId);
    markChatRead(world, request.org, chat);
    return reply.status(204).send();
  });

  const typingChat = (org: (typeof world.orgs)[number], raw: string) => {
    const chat = activeChatOfV3(org, raw);
    if (chat.group) throw v3(2016);
    if (chat.service === 'SMS') throw v3(2017, 'SMS has no typing indicators');
    return chat;
  };
  app.post('/chats/:chatId/typing', async (request, reply) => {
    startOrgTyping(world, typingChat(request.org, (request.params as ChatParams).chatId));
    return reply.status(204).send();
  });
  app.delete('/chats/:chatId/typing', async (request, reply) => {
    const chat = typingChat(request.org, (request.params as ChatParams).chatId);
    if (orgTyping(world, chat)) chat.orgTypingUntil = null;
    return reply.status(204).send();
  });

  app.post('/chats/:chatId/share_contact_card', async (request, reply) => {
    activeChatOfV3(request.org, (request.params as ChatParams).chatId);
    if (!request.org.features.shareContact) throw v3(2011, 'Contact sharing is not enabled');
    return reply.status(204).send();
  });

  const groupOf = (org: (typeof world.orgs)[number], raw: string) => {
    const chat = activeChatOfV3(org, raw);
    if (!chat.group) throw v3(2023);
    return chat;
  };
  app.post('/chats/:chatId/participants', async (request, reply) => {
    const org = request.org;
    const chat = groupOf(org, (request.params as ChatParams).chatId);
    const handle = handleField(bodyOf(request.body).handle, 'handle');
    if (customerHandles(chat).some((h) => h.identifier === handle))
      throw v3(2015, `${handle} is already in the chat`);
    addParticipant(world, org, chat, handle, request.id);
    return reply.status(202).send(ack(request.id, 'Participant is being added'));
  });
  app.delete('/chats/:chatId/participants', async (request, reply) => {
    const org = request.org;
    const chat = groupOf(org, (request.params as ChatParams).chatId);
    const raw = bodyOf(request.body).handle ?? (request.query as Record<string, unknown>).handle;
    const handle = handleField(raw, 'handle');
    const member = customerHandles(chat).find((h) => h.identifier === handle);
    if (!member) throw v3(2015, `${handle} is not in the chat`);
    removeParticipant(world, org, chat, member, request.id);
    return reply.status(202).send(ack(request.id, 'Participant is being removed'));
  });

  app.post('/chats/:chatId/leave', async (request, reply) => {
    const chat = groupOf(request.org, (request.params as ChatParams).chatId);
    chat.left = true;
    const me = chat.handles.find((h) => h.isMe);
    if (me) me.departedAt = world.clock.now();
    return reply.status(202).send(ack(request.id, 'Leaving the chat'));
  });
}
