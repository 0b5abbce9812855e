import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { completeCall } from '../../domain/calls.ts';
import {
  createChat,
  findChat,
  markRead,
  orgTyping,
  receiveMessage,
  resumeLine,
  setCustomerTyping,
} from '../../domain/chats.ts';
import { customerHandles } from '../../domain/handles.ts';
import type { Handle, Org } from '../../domain/model.ts';
import { presentMessage } from '../../domain/present.ts';
import { v3Id } from '../../domain/v3/ids.ts';
import { addReaction, removeReaction } from '../../domain/reactions.ts';
import { addParticipant, removeParticipant } from '../../domain/participants.ts';
import { CONTROL, type SandboxServices } from '../context.ts';
import { acceptAttachments } from '../attachments.ts';
import { ApiError } from '../errors.ts';
import { handleParam } from '../params.ts';
import { controlChat, controlMessage, registerV3ControlRoutes } from './control-v3.ts';
import { lineByNumber } from './scope.ts';
import {
  configPatch,
  customerPatch,
  inboundCall,
  inboundMessage,
  inboundReaction,
  inboundRead,
  inboundTyping,
  linePatch,
  orgPatch,
  participantBody,
  rateLimitBody,
  timeBody,
} from './control-bodies.ts';

const ADMIN_HEADER = 'x-sandbox-admin-secret';
const ORG_HEADER = 'x-sandbox-org-token';

function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The control API for tests and demos, under its own prefix and admin secret. A partner token never
 * opens it. The organization acted on is the one whose token is in `X-Sandbox-Org-Token`, else the first.
 */
export function registerControlRoutes(app: FastifyInstance, services: SandboxServices): void {
  const { world } = services;

  const orgFor = (request: FastifyRequest): Org => {
    const token = request.headers[ORG_HEADER];
    const org = typeof token === 'string' ? world.orgByToken.get(token) : world.orgs[0];
    if (!org) throw new ApiError(404, 'not_found', 'No such organization');
    return org;
  };
  const customerIn = (handles: Handle[], from: string | undefined): Handle => {
    const handle = from ? handles.find((h) => h.identifier === handleParam(from, 'from')) : handles[0];
    if (!handle) throw new ApiError(422, 'invalid_params', `${from ?? 'a customer'} is not in this chat`);
    return handle;
  };

  app.register(
    async (control) => {
      control.addHook('onRequest', async (request) => {
        const given = request.headers[ADMIN_HEADER];
        if (typeof given !== 'string' || !secretsEqual(given, services.adminSecret)) {
          throw new ApiError(401, 'unauthorized', `Missing or wrong ${ADMIN_HEADER}`);
        }
      });
      control.setErrorHandler((error, _request, reply) => {
        if (error instanceof z.ZodError) {
          return reply.status(422).send({
            errors: [
              { status: 422, code: 'invalid_params', title: 'Invalid', detail: z.prettifyError(error) },
            ],
          });
        }
        throw error;
      });

      control.get('/state', async () => ({
        orgs: world.orgs.map((o) => ({
          id: o.id,
          name: o.name,
          lines: o.lines.map((l) => ({ id: l.id, phone_number: l.phoneNumber, paused: l.paused })),
          chats: o.chats.size,
          contacts: o.contacts.size,
          subscriptions: o.subscriptions.size,
        })),
        now: new Date(world.clock.now()).toISOString(),
        speed: world.clock.speed,
        rate_limit: services.limiter.limits,
        requests: { ...services.served },
      }));

      control.post('/reset', async () => {
        await services.reset();
        return { ok: true };
      });

      control.post('/inbound/message', async (request) => {
        const org = orgFor(request);
        const input = inboundMessage.parse(request.body ?? {});
        let chat = input.chat_id === undefined ? undefined : controlChat(org, input.chat_id);
        if (!chat) {
          if (!input.from) throw new ApiError(422, 'invalid_params', 'from or chat_id is required');
          const from = handleParam(input.from, 'from');
          const line = input.to ? lineByNumber(org, input.to, 'to') : org.lines[0];
          if (!line) throw new ApiError(422, 'invalid_params', 'the organization has no line');
          chat = findChat(org, line, [from]) ?? createChat(world, org, { line, identifiers: [from] });
        }
        const sender = customerIn(customerHandles(chat), input.from);
        const attachments = await acceptAttachments(world, [], input.attachment_urls, 'message');
        if (!input.text && attachments.length === 0)
          throw new ApiError(422, 'invalid_params', 'text or attachment_urls required');
        const message = receiveMessage(world, org, chat, {
          from: sender.identifier,
          text: input.text,
          attachments,
        });
        return {
          chat_id: chat.id,
          v3_chat_id: v3Id(org, 'chat', chat.id),
          v3_message_id: v3Id(org, 'message', message.id),
          data: presentMessage(message),
        };
      });

      control.post('/inbound/reaction', async (request) => {
        const org = orgFor(request);
        const input = inboundReaction.parse(request.body ?? {});
        const { chat, message } = controlMessage(org, input.message_id);
        const sender = customerIn(customerHandles(chat), input.from);
        const kind = { type: input.type, customEmoji: input.custom_emoji, partIndex: input.part_index };
        if (input.operation === 'remove') {
          const removed = removeReaction(world, org, chat, message, kind, sender.identifier);
          if (!removed) throw new ApiError(404, 'not_found', 'Reaction not found');
          return { removed: removed.id };
        }
        const { reaction } = addReaction(world, org, chat, message, kind, sender.identifier);
        return { id: reaction.id };
      });

      control.post('/inbound/typing', async (request) => {
        const org = orgFor(request);
        const input = inboundTyping.parse(request.body ?? {});
        const chat = controlChat(org, input.chat_id);
        const sender = customerIn(customerHandles(chat), input.from);
        setCustomerTyping(world, org, chat, sender.identifier, input.display);
        return { ok: true };
      });

      control.post('/inbound/read', async (request) => {
        const org = orgFor(request);
        const input = inboundRead.parse(request.body ?? {});
        const chat = controlChat(org, input.chat_id);
        const ids = input.message_ids ? new Set(input.message_ids) : undefined;
        markRead(
          world,
          org,
          chat,
          chat.messages.filter((m) => m.outbound && (!ids || ids.has(m.id))),
        );
        return { ok: true };
      });

      control.post('/inbound/call', async (request) => {
        const org = orgFor(request);
        const input = inboundCall.parse(request.body ?? {});
        const line = input.to ? lineByNumber(org, input.to, 'to') : org.lines[0];
        if (!line) throw new ApiError(422, 'invalid_params', 'the organization has no line');
        const customer = handleParam(input.from, 'from');
        const end = world.clock.now();
        const hasRecording = input.status === 'voicemail' || input.transcription !== null;
        const call = completeCall(world, org, {
          id: world.newUuid(),
          lineId: line.id,
          to: input.direction === 'inbound' ? line.phoneNumber : customer,
          from: input.direction === 'inbound' ? customer : line.phoneNumber,
          status: input.status,
          direction: input.direction,
          startTime: end - input.duration * 1000,
          endTime: end,
          forwardedFrom: input.forwarded_from,
          answeredBy: input.answered_by,
          recording: hasRecording
            ? {
                id: world.newUuid(),
                url: `${world.baseUrl}/files/recordings/${org.calls.length + 1}.m4a`,
                duration: input.duration,
                transcription: input.transcription,
                summary: input.summary,
              }
            : null,
        });
        return { id: call.id };
      });

      control.post('/chats/:id/participants', async (request) => {
        const org = orgFor(request);
        const chat = controlChat(org, (request.params as { id: string }).id);
        if (!chat.group)
          throw new ApiError(422, 'invalid_request', 'participants change only in group chats');
        const identifier = handleParam(participantBody.parse(request.body ?? {}).identifier, 'identifier');
        if (customerHandles(chat).some((h) => h.identifier === identifier)) {
          throw new ApiError(422, 'invalid_request', `${identifier} is already in the chat`);
        }
        const handle = addParticipant(world, org, chat, identifier);
        return { handle_id: handle.id };
      });

      control.delete('/chats/:id/participants/:identifier', async (request) => {
        const org = orgFor(request);
        const params = request.params as { id: string; identifier: string };
        const chat = controlChat(org, params.id);
        const handle = customerIn(customerHandles(chat), decodeURIComponent(params.identifier));
        removeParticipant(world, org, chat, handle);
        return { ok: true };
      });

      control.get('/chats/:id', async (request) => {
        const org = orgFor(request);
        const chat = controlChat(org, (request.params as { id: string }).id);
        return {
          id: chat.id,
          org_typing: orgTyping(world, chat),
          customers_typing: [...chat.customerTyping.keys()],
          handles: chat.handles.map((h) => ({
            id: h.id,
            identifier: h.identifier,
            is_me: h.isMe,
            departed: h.departedAt !== null,
          })),
          message_count: chat.messages.length,
        };
      });

      control.put('/customers/:identifier', async (request) => {
        const identifier = handleParam(
          decodeURIComponent((request.params as { identifier: string }).identifier),
          'identifier',
        );
        const patch = customerPatch.parse(request.body ?? {});
        const persona = world.persona(identifier);
        if (patch.reachable !== undefined) persona.reachable = patch.reachable;
        if (patch.auto_reply !== undefined) persona.autoReply = patch.auto_reply;
        if (patch.imessage !== undefined) persona.imessage = patch.imessage;
        if (patch.rcs !== undefined) persona.rcs = patch.rcs;
        if (patch.first_name !== undefined) persona.firstName = patch.first_name;
        if (patch.last_name !== undefined) persona.lastName = patch.last_name;
        return { ...persona };
      });

      control.put('/lines/:id', async (request) => {
        const org = orgFor(request);
        const line = org.lines.find((l) => String(l.id) === (request.params as { id: string }).id);
        if (!line) throw new ApiError(404, 'not_found', 'Line not found');
        const patch = linePatch.parse(request.body ?? {});
        if (patch.daily_chat_quota !== undefined) line.dailyChatQuota = patch.daily_chat_quota;
        if (patch.paused !== undefined && patch.paused !== line.paused) {
          line.paused = patch.paused;
          if (!line.paused) resumeLine(world, org, line);
        }
        return { id: line.id, paused: line.paused, daily_chat_quota: line.dailyChatQuota };
      });

      control.put('/org', async (request) => {
        const org = orgFor(request);
        const patch = orgPatch.parse(request.body ?? {});
        if (patch.share_contact !== undefined) org.features.shareContact = patch.share_contact;
        if (patch.manual_typing !== undefined) org.features.manualTyping = patch.manual_typing;
        return { share_contact: org.features.shareContact, manual_typing: org.features.manualTyping };
      });

      control.get('/faults', async () => ({
        faults: services.faults.list(),
        webhook_faults: services.webhooks.faults.list(),
      }));
      control.post('/faults', async (request, reply) =>
        reply.status(201).send(services.faults.add(request.body)),
      );
      control.delete('/faults', async () => {
        services.faults.clear();
        return { ok: true };
      });
      control.post('/webhook-faults', async (request, reply) =>
        reply.status(201).send(services.webhooks.faults.add(request.body)),
      );
      control.delete('/webhook-faults', async () => {
        services.webhooks.faults.clear();
        return { ok: true };
      });

      control.get('/deliveries', async (request) => {
        const query = request.query as { event_type?: string; subscription_id?: string };
        const deliveries = services.webhooks
          .log()
          .filter(
            (d) =>
              (!query.event_type || d.event_type === query.event_type) &&
              (!query.subscription_id || String(d.subscription_id) === query.subscription_id),
          );
        return { deliveries };
      });
      control.delete('/deliveries', async () => {
        services.webhooks.clearLog();
        return { ok: true };
      });
      control.post('/webhooks/idle', async () => ({ idle: await services.webhooks.idle() }));

      control.post('/time', async (request) => {
        const input = timeBody.parse(request.body ?? {});
        if (input.speed !== undefined) world.clock.setSpeed(input.speed);
        if (input.advance_ms !== undefined) world.clock.advance(input.advance_ms);
        return { now: new Date(world.clock.now()).toISOString(), speed: world.clock.speed };
      });

      control.put('/rate-limit', async (request) => {
        const input = rateLimitBody.parse(request.body ?? {});
        services.limiter.configure({ perSecond: input.per_second, burst: input.burst });
        return services.limiter.limits;
      });

      control.put('/config', async (request) => {
        const patch = configPatch.parse(request.body ?? {});
        const config = world.config;
        if (patch.delivery_delay_ms) Object.assign(config.deliveryDelayMs, patch.delivery_delay_ms);
        if (patch.typing_timeout_ms !== undefined) config.typingTimeoutMs = patch.typing_timeout_ms;
        if (patch.availability_interval_ms !== undefined)
          config.availabilityIntervalMs = patch.availability_interval_ms;
        if (patch.attachment_max_bytes !== undefined) config.attachmentMaxBytes = patch.attachment_max_bytes;
        if (patch.attachment_download_timeout_ms !== undefined)
          config.attachmentDownloadTimeoutMs = patch.attachment_download_timeout_ms;
        if (patch.webhook_receipt_timeout_ms !== undefined)
          config.webhook.receiptTimeoutMs = patch.webhook_receipt_timeout_ms;
        if (patch.webhook_max_retries !== undefined) config.webhook.maxRetries = patch.webhook_max_retries;
        if (patch.webhook_retry_base_ms !== undefined)
          config.webhook.retryBaseMs = patch.webhook_retry_base_ms;
        return config;
      });

      registerV3ControlRoutes(control, services, orgFor);
    },
    { prefix: CONTROL },
  );
}
