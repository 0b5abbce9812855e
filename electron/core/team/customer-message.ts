/**
 * Customers' messages in the relay's event log, as the team layer records them for the send-time
 * check: one event read (`customerMessageOf`), and the log followed by one durable consumer shared
 * by the organization's relays, from their first start on (`followCustomerMessages`).
 */
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../log/logger.ts';
import { checkLogged } from '../relay/event-log-checks.ts';
import { LIVE_PULL } from '../relay/live-pull.ts';
import { EVENT_LOG_STREAM } from '../relay/subjects.ts';

const ACTIVITY_CONSUMER = 'parley-team-activity';
/** A message that could not be recorded comes back this long after. */
const RETRY_MS = 5_000;

export type CustomerMessage = NonNullable<ReturnType<typeof customerMessageOf>>;

/** Hands each customer's message to `onMessage`; acknowledged once it resolves, again if it throws. */
export async function followCustomerMessages(
  nc: NatsConnection,
  onMessage: (message: CustomerMessage) => Promise<void>,
  log: Logger,
): Promise<{ messages: ConsumerMessages; done: Promise<void> }> {
  await (
    await jetstreamManager(nc)
  ).consumers.add(EVENT_LOG_STREAM, {
    durable_name: ACTIVITY_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
  });
  const messages = await (
    await jetstream(nc).consumers.get(EVENT_LOG_STREAM, ACTIVITY_CONSUMER)
  ).consume(LIVE_PULL);
  const done = (async () => {
    for await (const msg of messages) {
      const checked = checkLogged(msg.subject, msg.data, msg.headers?.get('Nats-Msg-Id'));
      const message = checked.ok ? customerMessageOf(checked.event) : undefined;
      try {
        if (message) await onMessage(message);
        msg.ack();
      } catch (error) {
        log.warn('could not record a customer message for the team', {
          error: error instanceof Error ? error.message : String(error),
        });
        msg.nak(RETRY_MS);
      }
    }
  })().catch((error: unknown) => log.warn('stopped following customer messages', { error: String(error) }));
  return { messages, done };
}

type LoggedEvent = Extract<ReturnType<typeof checkLogged>, { ok: true }>['event'];

/**
 * A customer's message in a logged event: V2's `message.received`, and V3's where the chat id is
 * the number desktops know it by (a V3 chat named by another id needs the relay's id mapping).
 */
export function customerMessageOf(
  event: LoggedEvent,
): { eventId: string; chatId: number; messageId: string; text: string } | undefined {
  if (event.type !== 'message.received') return undefined;
  const data = event.data as {
    id: number | string;
    chat_id?: number;
    chatId?: string;
    text?: string;
    parts?: Array<{ type?: string; value?: string }>;
  };
  const chatId = Number(data.chat_id ?? data.chatId);
  if (!Number.isSafeInteger(chatId) || chatId <= 0) return undefined;
  const text =
    data.text ?? (data.parts ?? []).map((part) => (part.type === 'text' ? (part.value ?? '') : '')).join(' ');
  return { eventId: event.eventId, chatId, messageId: String(data.id), text: text || '(attachment)' };
}
