/**
 * Sends on the relay: one durable consumer on the sends stream (shared by every relay of the
 * organization, so each send goes to exactly one), each message validated as untrusted, sent once
 * to the service with the desktop's idempotency key, and its outcome written to the outcomes bucket
 * under `<agent>.<key>`, where the sending desktop watches.
 *
 * Exactly once: the stream refuses a second message on the same subject (the key), the consumer
 * acknowledges only after the outcome is written, and a redelivery after a crash sends again with
 * the same key, which the service answers with the message it already has. A failure the service
 * calls retryable (network, 429, 5xx) is retried later (nak with a delay); any other is written as
 * the outcome and the send is done.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import {
  SENDS_STREAM,
  isPartnerApiError,
  parseSendSubject,
  sendOutcomeKey,
  type MessageRecord,
  type MessagingService,
} from '../core/index.ts';
import { createLogger } from '../core/log/logger.ts';
import { openSendOutcomes } from './streams.ts';

const log = createLogger('relay-sends');

const RELAY_SENDS_CONSUMER = 'parley-relay-sends';
/** A retryable failure comes back this long after (the service asked for patience). */
const RETRY_DELAY_MS = 5_000;

/** What a desktop publishes on `parley.sends.<agent>.<key>`. */
export const SendRequest = z
  .object({
    chatId: z.number().int().positive(),
    text: z.string().max(20_000),
    attachmentUrls: z
      .array(z.url({ protocol: /^https$/ }))
      .max(10)
      .default([]),
  })
  .strict()
  .refine((send) => send.text.trim() !== '' || send.attachmentUrls.length > 0, {
    message: 'A send needs text or an attachment',
    path: ['text'],
  });
export type SendRequest = z.input<typeof SendRequest>;

export type SendOutcome =
  | { state: 'accepted'; message: MessageRecord }
  | { state: 'failed'; error: { code: string; message: string; retryable: false; field: string | null } };

export interface RelaySends {
  stop(): Promise<void>;
}

/** Starts sending what desktops publish; `messaging` is the relay session's port to the service. */
export async function serveSends(nc: NatsConnection, messaging: MessagingService): Promise<RelaySends> {
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(SENDS_STREAM, {
    durable_name: RELAY_SENDS_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(60_000),
    max_ack_pending: 64,
  });
  const outcomes = await openSendOutcomes(nc);
  const messages = await (await jetstream(nc).consumers.get(SENDS_STREAM, RELAY_SENDS_CONSUMER)).consume();
  const done = (async () => {
    for await (const msg of messages) await handle(msg, messaging, outcomes);
  })().catch((error: unknown) => log.warn('sends stopped', { error: messageOf(error) }));
  return {
    async stop() {
      await messages.close();
      await done;
    },
  };
}

async function handle(msg: JsMsg, messaging: MessagingService, outcomes: KV): Promise<void> {
  const address = parseSendSubject(msg.subject);
  if (!address) {
    log.warn('ignored a message that is not a send', { subject: msg.subject.slice(0, 100) });
    return msg.term();
  }
  const outcomeKey = sendOutcomeKey(address.agentId, address.key);
  const write = async (outcome: SendOutcome): Promise<void> => {
    try {
      await outcomes.put(outcomeKey, JSON.stringify(outcome));
      msg.ack();
    } catch (error) {
      // Sent, but the desktop cannot hear it yet: again later, the service's key keeps it one message.
      log.warn('could not write a send outcome', { error: messageOf(error) });
      msg.nak(RETRY_DELAY_MS);
    }
  };
  const parsed = parseSend(msg.data);
  if (!parsed.ok) return write({ state: 'failed', error: { ...parsed.error, retryable: false } });
  const send = parsed.send;
  try {
    const message = await messaging.send(
      send.chatId,
      { text: send.text, files: [], attachmentUrls: send.attachmentUrls, idempotencyKey: address.key },
      { priority: 'user' },
    );
    await write({ state: 'accepted', message });
  } catch (error) {
    if (isPartnerApiError(error) && error.retryable) {
      log.info('a send will be retried', { code: error.code });
      return msg.nak(error.retryAfter ? error.retryAfter * 1000 : RETRY_DELAY_MS);
    }
    const code = isPartnerApiError(error) ? error.code : 'send_failed';
    await write({
      state: 'failed',
      error: { code, message: messageOf(error), retryable: false, field: null },
    });
  }
}

function parseSend(
  data: Uint8Array,
):
  | { ok: true; send: z.output<typeof SendRequest> }
  | { ok: false; error: { code: string; message: string; field: string | null } } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return { ok: false, error: { code: 'invalid_send', message: 'The send is not JSON', field: null } };
  }
  const result = SendRequest.safeParse(json);
  if (result.success) return { ok: true, send: result.data };
  return {
    ok: false,
    error: {
      code: 'invalid_send',
      message: `The send is not valid: ${z.prettifyError(result.error)}`,
      field: result.error.issues[0]?.path.join('.') || null,
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
