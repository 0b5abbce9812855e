import type { FastifyInstance } from 'fastify';
import {
  createChat,
  findChat,
  markChatRead,
  orgTyping,
  sendMessage,
  startOrgTyping,
  takeDailyChatQuota,
} from '../../domain/chats.ts';
import type { Org } from '../../domain/model.ts';
import { presentChat, presentMessage } from '../../domain/present.ts';
import { v3Id } from '../../domain/v3/ids.ts';
import { reachableInV3 } from '../../domain/v3/shapes.ts';
import { type SandboxServices, V2 } from '../context.ts';
import { acceptAttachments } from '../attachments.ts';
import { ApiError, forbidden, invalidParams, missingParam } from '../errors.ts';
import { readForm } from '../form.ts';
import {
  asObject,
  handleParam,
  optionalString,
  pageOf,
  pagingParams,
  requiredString,
  stringArray,
} from '../params.ts';
import { chatOf, lineByNumber } from './scope.ts';
import { readOutgoingMessage } from './outgoing.ts';

export function registerChatRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  /** Find-or-create: 201 with a new chat, 200 with an existing one; the message is sent either way. */
  app.post(`${V2}/chats`, async (request, reply) => {
    const org = request.org;
    const { body, files } = await readForm(request, world.config.attachmentMaxBytes);
    const sendFrom = requiredString(body, 'send_from', 'send_from', 'missing_phone');
    const line = lineByNumber(org, sendFrom, 'send_from');
    if (body.chat === undefined || body.chat === null)
      throw missingParam('chat.phone_numbers', 'missing_phone');
    const chatBody = asObject(body.chat, 'chat.phone_numbers');
    const numbers = stringArray(chatBody.phone_numbers, 'chat.phone_numbers');
    if (!numbers || numbers.length === 0) throw missingParam('chat.phone_numbers', 'missing_phone');
    const identifiers = numbers.map((n, i) => handleParam(n, `chat.phone_numbers[${i}]`));
    if (identifiers.includes(line.phoneNumber)) {
      throw invalidParams('chat.phone_numbers must not include send_from');
    }
    const displayName = optionalString(chatBody, 'display_name', 'chat.display_name');
    const outgoing = readOutgoingMessage(body, files);

    const replay = outgoing.idempotencyKey ? org.idempotency.get(outgoing.idempotencyKey) : undefined;
    const replayChat = replay && org.chats.get(replay.chatId);
    if (replay && replayChat) {
      const { message } = sendMessage(world, org, replayChat, { ...outgoing, attachments: [] });
      return reply.status(200).send({
        data: {
          ...presentChat(org, replayChat),
          chat_messages: presentMessage(message, { forCreateChat: true }),
        },
      });
    }

    const attachments = await acceptAttachments(world, outgoing.files, outgoing.attachmentUrls, 'message');
    const existing = findChat(org, line, identifiers);
    const overQuota = existing ? false : !takeDailyChatQuota(world, line);
    const chat =
      existing ??
      createChat(world, org, { line, identifiers, displayName: displayName ?? null, traceId: request.id });
    const { message } = sendMessage(world, org, chat, {
      text: outgoing.text,
      attachments,
      idempotencyKey: outgoing.idempotencyKey,
      traceId: request.id,
      overQuota,
    });
    return reply.status(existing ? 200 : 201).send({
      data: { ...presentChat(org, chat), chat_messages: presentMessage(message, { forCreateChat: true }) },
    });
  });

  app.get(`${V2}/chats`, async (request) => {
    const org = request.org;
    const query = request.query as Record<string, unknown>;
    const phone = typeof query.phone_number === 'string' ? query.phone_number : undefined;
    if (!phone) throw missingParam('phone_number', 'missing_phone');
    const line = lineByNumber(org, phone, 'phone_number');
    const paging = pagingParams(query);
    const chats = [...org.chats.values()]
      .filter((c) => c.lineId === line.id)
      .sort((a, b) => b.lastActivityAt - a.lastActivityAt || b.id - a.id);
    const page = pageOf(chats, paging);
    return {
      data: page.slice.map((chat) => presentChat(org, chat)),
      meta: {
        page: paging.page,
        total_pages: page.totalPages,
        total_count: page.totalCount,
        per_page: paging.perPage,
      },
    };
  });

  app.get(`${V2}/chats/find`, async (request) => {
    const org = request.org;
    const query = request.query as Record<string, unknown>;
    const phone = typeof query.phone_number === 'string' ? query.phone_number : undefined;
    if (!phone) throw missingParam('phone_number', 'missing_phone');
    const line = lineByNumber(org, phone, 'phone_number');
    const numbers = stringArray(query['phone_numbers[]'] ?? query.phone_numbers, 'phone_numbers[]');
    if (!numbers || numbers.length === 0) throw missingParam('phone_numbers[]', 'missing_phone');
    const identifiers = numbers.map((n, i) => handleParam(n, `phone_numbers[${i}]`));
    const chat = findChat(org, line, identifiers);
    return chat ? { data: { chat: presentChat(org, chat) } } : { data: { chat: null, messages: [] } };
  });

  app.get(`${V2}/chats/:chat_id`, async (request) => {
    const { chat_id } = request.params as { chat_id: string };
    return { data: presentChat(request.org, chatOf(request.org, chat_id)) };
  });

  /** The chat's V3 id (the one V3 shows); V2-era SMS group chats cannot migrate (422, same shape). */
  app.get(`${V2}/chats/:chat_id/migrate_to_v3`, async (request, reply) => {
    const chat = chatOf(request.org, (request.params as { chat_id: string }).chat_id);
    if (!reachableInV3(chat)) {
      return reply.status(422).send({ data: { v3_chat_id: null, v2_chat_id: chat.id, migrated: false } });
    }
    return { data: { v3_chat_id: v3Id(request.org, 'chat', chat.id), v2_chat_id: chat.id, migrated: true } };
  });

  app.post(`${V2}/chats/:chat_id/start_typing`, async (request, reply) => {
    const chat = chatOf(request.org, (request.params as { chat_id: string }).chat_id);
    startOrgTyping(world, chat);
    return reply.status(201).send();
  });

  app.delete(`${V2}/chats/:chat_id/stop_typing`, async (request, reply) => {
    const chat = chatOf(request.org, (request.params as { chat_id: string }).chat_id);
    if (orgTyping(world, chat)) chat.orgTypingUntil = null;
    return reply.status(204).send();
  });

  app.put(`${V2}/chats/:chat_id/mark_as_read`, async (request, reply) => {
    const chat = chatOf(request.org, (request.params as { chat_id: string }).chat_id);
    markChatRead(world, request.org, chat);
    return reply.status(204).send();
  });

  app.post(`${V2}/chats/:chat_id/share_contact`, async (request, reply) => {
    const org: Org = request.org;
    chatOf(org, (request.params as { chat_id: string }).chat_id);
    if (!org.features.shareContact) throw forbidden('Contact sharing is not enabled for your organization');
    return reply.status(201).send();
  });

  /** POST /i_message_availability/check — at most one check per 10 s per token. */
  app.post(`${V2}/i_message_availability/check`, async (request) => {
    const org = request.org;
    const body = asObject(request.body ?? {}, 'body');
    const raw = requiredString(body, 'phone_number', 'phone_number', 'missing_phone');
    const identifier = handleParam(raw, 'phone_number');
    const now = world.clock.now();
    const interval = world.config.availabilityIntervalMs;
    if (org.lastAvailabilityCheckAt !== null && now - org.lastAvailabilityCheckAt < interval) {
      const wait = Math.ceil((org.lastAvailabilityCheckAt + interval - now) / 1000);
      throw new ApiError(429, 'rate_limited', `One iMessage availability check per ${interval / 1000} s`, {
        headers: { 'retry-after': String(Math.max(1, wait)) },
      });
    }
    org.lastAvailabilityCheckAt = now;
    return { available: world.persona(identifier).imessage, phone_number: identifier };
  });
}
