import type { FastifyInstance } from 'fastify';
import { removeMessage, sendMessage } from '../../domain/chats.ts';
import { REACTION_TYPES, type ReactionType } from '../../domain/model.ts';
import { presentMessage, presentReaction } from '../../domain/present.ts';
import { addReaction, removeReaction } from '../../domain/reactions.ts';
import { type SandboxServices, V2 } from '../context.ts';
import { acceptAttachments } from '../attachments.ts';
import { forbidden, invalidParams, invalidRequest, notFound } from '../errors.ts';
import { readForm } from '../form.ts';
import { asObject, pageOf, pagingParams, requiredString, timeParam } from '../params.ts';
import { readOutgoingMessage } from './outgoing.ts';
import { chatOf, messageOf } from './scope.ts';

export function registerMessageRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  app.get(`${V2}/chats/:chat_id/chat_messages`, async (request) => {
    const chat = chatOf(request.org, (request.params as { chat_id: string }).chat_id);
    const query = request.query as Record<string, unknown>;
    const paging = pagingParams(query);
    const before = timeParam(query.before, 'before');
    const after = timeParam(query.after, 'after');
    const sort = query.sort ?? 'asc';
    if (sort !== 'asc' && sort !== 'desc') throw invalidParams('sort must be asc or desc');
    let messages = chat.messages.filter(
      (m) => (before === undefined || m.sentAt < before) && (after === undefined || m.sentAt > after),
    );
    if (sort === 'desc') messages = messages.reverse();
    const page = pageOf(messages, paging);
    return {
      data: page.slice.map((m) => presentMessage(m)),
      meta: {
        page: paging.page,
        total_pages: page.totalPages,
        total_count: page.totalCount,
        per_page: paging.perPage,
      },
    };
  });

  /** Multipart per the spec (JSON accepted too). A reused idempotency key: 200 and nothing sent. */
  app.post(`${V2}/chats/:chat_id/chat_messages`, async (request, reply) => {
    const org = request.org;
    const chat = chatOf(org, (request.params as { chat_id: string }).chat_id);
    const { body, files } = await readForm(request, world.config.attachmentMaxBytes);
    const outgoing = readOutgoingMessage(body, files);
    if (outgoing.idempotencyKey && org.idempotency.has(outgoing.idempotencyKey)) {
      const { message } = sendMessage(world, org, chat, { ...outgoing, attachments: [] });
      return reply.status(200).send({ data: presentMessage(message) });
    }
    const attachments = await acceptAttachments(world, outgoing.files, outgoing.attachmentUrls, 'message');
    const { message, replay } = sendMessage(world, org, chat, {
      text: outgoing.text,
      attachments,
      idempotencyKey: outgoing.idempotencyKey,
      traceId: request.id,
    });
    return reply.status(replay ? 200 : 201).send({ data: presentMessage(message) });
  });

  app.get(`${V2}/chats/:chat_id/chat_messages/:id`, async (request) => {
    const params = request.params as { chat_id: string; id: string };
    const chat = chatOf(request.org, params.chat_id);
    return { data: presentMessage(messageOf(request.org, params.id, chat).message) };
  });

  app.post(`${V2}/chats/:chat_id/chat_messages/:id/edit`, async (request) => {
    const params = request.params as { chat_id: string; id: string };
    const chat = chatOf(request.org, params.chat_id);
    const { message } = messageOf(request.org, params.id, chat);
    const body = asObject(request.body ?? {}, 'body');
    const text = requiredString(body, 'text');
    if (!message.outbound) throw forbidden('Only messages sent from your organization can be edited');
    if (chat.service === 'SMS') throw invalidRequest('SMS messages cannot be edited');
    if (text.trim() === '') throw invalidParams('text must not be empty');
    message.text = text;
    message.parts = null; // V3 now sees the edited text (and the files) as its parts
    message.editedAt = world.clock.now();
    return { message: 'Message updated', data: { id: message.id, text: message.text } };
  });

  app.delete(`${V2}/chats/:chat_id/chat_messages/:id`, async (request) => {
    const params = request.params as { chat_id: string; id: string };
    const chat = chatOf(request.org, params.chat_id);
    const { message } = messageOf(request.org, params.id, chat);
    if (!message.outbound) throw forbidden('Only messages sent from your organization can be deleted');
    removeMessage(request.org, chat, message);
    return { message: 'Message deleted' };
  });

  /** add → 201 (200 when it already existed); remove → 200 with the removed one, 404 when absent. */
  app.post(`${V2}/chat_messages/:chat_message_id/reactions`, async (request, reply) => {
    const org = request.org;
    const { chat, message } = messageOf(org, (request.params as { chat_message_id: string }).chat_message_id);
    const body = asObject(request.body ?? {}, 'body');
    const type = requiredString(body, 'type');
    const operation = requiredString(body, 'operation');
    if (!(REACTION_TYPES as readonly string[]).includes(type)) {
      throw invalidParams(`type must be one of ${REACTION_TYPES.join(', ')}`);
    }
    if (operation !== 'add' && operation !== 'remove') throw invalidParams('operation must be add or remove');
    if (operation === 'add') {
      const { reaction, created } = addReaction(world, org, chat, message, type as ReactionType, null);
      return reply.status(created ? 201 : 200).send({ data: presentReaction(reaction) });
    }
    const removed = removeReaction(world, org, chat, message, type as ReactionType, null);
    if (!removed) throw notFound('Reaction');
    return { data: presentReaction(removed) };
  });
}
