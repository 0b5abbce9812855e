/**
 * Control API additions for V3: V3 ids wherever a chat or message is named, send failures (next
 * sends or per customer), chat health (OPTED_OUT included) and line reputation.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  HEALTH_STATUSES,
  REPUTATION_STATUSES,
  type Chat,
  type Message,
  type Org,
} from '../../domain/model.ts';
import { emitLineStatusV3 } from '../../domain/v3/events.ts';
import { SEND_FAILURE_CODES } from '../../domain/v3/failures.ts';
import { fromV3Id, isUuid, v3Id } from '../../domain/v3/ids.ts';
import type { SandboxServices } from '../context.ts';
import { ApiError } from '../errors.ts';
import { handleParam } from '../params.ts';
import { chatOf, messageOf } from './scope.ts';

/** A V2 integer id or a V3 UUID. */
export const anyId = z.union([z.number().int(), z.string().min(1)]);

const v2Id = (org: Org, kind: 'chat' | 'message', raw: string | number): string =>
  typeof raw === 'string' && isUuid(raw) ? String(fromV3Id(org, kind, raw) ?? 0) : String(raw);

export function controlChat(org: Org, raw: string | number): Chat {
  return chatOf(org, v2Id(org, 'chat', raw));
}

export function controlMessage(org: Org, raw: string | number): { chat: Chat; message: Message } {
  return messageOf(org, v2Id(org, 'message', raw));
}

const failureCode = z
  .number()
  .int()
  .refine((c) => SEND_FAILURE_CODES.includes(c), { message: `one of ${SEND_FAILURE_CODES.join(', ')}` });
const sendFailures = z.object({ code: failureCode, times: z.number().int().min(1).max(1000).default(1) });
const customerFailure = z.object({ fail_code: failureCode.nullable() });
const healthBody = z.object({ status: z.enum(HEALTH_STATUSES) });
const reputationBody = z.object({ reputation: z.enum(REPUTATION_STATUSES) });

export function registerV3ControlRoutes(
  control: FastifyInstance,
  { world }: SandboxServices,
  orgFor: (request: FastifyRequest) => Org,
): void {
  /** The next `times` sends of the organization fail with `code` (one each). */
  control.post('/send-failures', async (request) => {
    const org = orgFor(request);
    const input = sendFailures.parse(request.body ?? {});
    for (let i = 0; i < input.times; i++) org.nextSendFailures.push(input.code);
    return { next_send_failures: org.nextSendFailures };
  });
  control.delete('/send-failures', async (request) => {
    orgFor(request).nextSendFailures = [];
    return { ok: true };
  });

  /** Every send to this customer fails with `fail_code` (null clears). */
  control.put('/customers/:identifier/failure', async (request) => {
    const identifier = handleParam(
      decodeURIComponent((request.params as { identifier: string }).identifier),
      'identifier',
    );
    const persona = world.persona(identifier);
    persona.failCode = customerFailure.parse(request.body ?? {}).fail_code;
    return { identifier, fail_code: persona.failCode };
  });

  control.put('/chats/:id/health', async (request) => {
    const org = orgFor(request);
    const chat = controlChat(org, (request.params as { id: string }).id);
    chat.health = { status: healthBody.parse(request.body ?? {}).status, updatedAt: world.clock.now() };
    return { id: chat.id, v3_id: v3Id(org, 'chat', chat.id), health_status: chat.health.status };
  });

  /** A line's reputation; a change is announced as phone_number.status_updated (V3). */
  control.put('/lines/:id/reputation', async (request) => {
    const org = orgFor(request);
    const line = org.lines.find((l) => String(l.id) === (request.params as { id: string }).id);
    if (!line) throw new ApiError(404, 'not_found', 'Line not found');
    const next = reputationBody.parse(request.body ?? {}).reputation;
    const previous = line.reputation;
    if (next !== previous) {
      line.reputation = next;
      line.reputationUpdatedAt = world.clock.now();
      emitLineStatusV3(world, org, line, previous);
    }
    return { id: line.id, v3_id: v3Id(org, 'line', line.id), reputation: line.reputation };
  });

  /** What a V3 id names (for tests that cross versions). */
  control.get('/v3-ids/:uuid', async (request) => {
    const org = orgFor(request);
    const uuid = (request.params as { uuid: string }).uuid;
    for (const kind of ['chat', 'message', 'handle', 'line', 'subscription'] as const) {
      const id = isUuid(uuid) ? fromV3Id(org, kind, uuid) : undefined;
      if (id !== undefined) return { kind, id };
    }
    throw new ApiError(404, 'not_found', 'No entity has this V3 id');
  });
}
