/**
 * A message's delivery as an agent reads it: whether it is still on its way, its status in words,
 * and, when it failed, why and what can be done (Retry, Send again, Discard). One wording for every
 * state, whichever API version the message came through; a delivery failure's code is worded by
 * shared/delivery-failures.ts.
 */
import { deliveryFailureInfo } from '../../shared/delivery-failures.ts';
import type { Message, MessageState } from '../../shared/domain.ts';
import { formatTimeOfDay } from './format.ts';

/** States in which the service has not yet confirmed delivery and Parley keeps trying. */
const IN_FLIGHT: ReadonlySet<MessageState> = new Set([
  'queued',
  'sending',
  'service_unavailable',
  'paused',
  'rate_limit_exceeded',
]);

export function isInFlight(message: Pick<Message, 'state'>): boolean {
  return IN_FLIGHT.has(message.state);
}

export function isFailed(message: Pick<Message, 'state'>): boolean {
  return message.state === 'failed';
}

/**
 * What a failed message offers: the same send again (outbox, same key), a new send, nothing, or
 * (held by the team relay) what the composer's banner offers: "Send anyway" or "Discard".
 */
export type FailureAction = 'retry' | 'send-again' | 'none' | 'held';

export interface FailurePresentation {
  title: string;
  hint: string | null;
  /** The service's code, shown small for support; null for local (outbox) failures. */
  code: string | null;
  action: FailureAction;
}

/**
 * A failed message in words. A delivery failure uses the code's wording; sending again makes a new
 * message with a fresh key (the old key would only return the stored failure), and never for an
 * opt-out or another lasting refusal. An outbox failure (never accepted) retries under its own key.
 */
export function failurePresentation(
  message: Pick<Message, 'state' | 'failure' | 'error' | 'id' | 'fromMe'>,
): FailurePresentation | null {
  if (message.failure) {
    const info = deliveryFailureInfo(message.failure.code);
    return {
      title: info.title,
      hint:
        info.hint ??
        (message.failure.reason && message.failure.reason !== info.title ? message.failure.reason : null),
      code: info.code,
      action: info.retryWithNewKey ? 'send-again' : 'none',
    };
  }
  if (message.state !== 'failed') return null;
  // Accepted, then not delivered, with no reason known (a poll saw it failed; only live events say
  // why): a new send, which the core refuses when the chat has opted out.
  if (message.fromMe && message.id !== null)
    return {
      title: 'Not delivered',
      hint: 'The service did not say why',
      code: null,
      action: 'send-again',
    };
  // Refused outright with a lasting delivery code (an opt-out, a restricted line): the same send
  // again would be refused again.
  const refusal = message.error;
  if (refusal && !refusal.retryable && /^\d{4}$/.test(refusal.code)) {
    const info = deliveryFailureInfo(refusal.code);
    return { title: info.title, hint: info.hint, code: info.code, action: 'none' };
  }
  return { title: message.error?.message ?? 'Not sent', hint: null, code: null, action: 'retry' };
}

/** The status line of an outbound message; `now` for the age of a pending one. */
export function deliveryWords(
  message: Pick<Message, 'state' | 'readAt' | 'failure' | 'error' | 'id' | 'fromMe' | 'sentAt'>,
  now: number,
  offline: boolean,
): string {
  // A delivery failure the service reported says so whatever state the message was left in.
  if (message.failure) return deliveryFailureInfo(message.failure.code).title;
  switch (message.state) {
    case 'queued':
      return offline ? 'Queued: sends when back online' : 'Queued';
    case 'sending':
      // The core keeps the last transient failure (5xx, 429, offline) while it waits to try again.
      return message.error ? `Retrying… (${message.error.message})` : 'Sending…';
    case 'pending':
      return `Sent · not delivered yet (${ageText(now - message.sentAt)})`;
    case 'sent':
      return 'Sent';
    case 'delivered':
      return 'Delivered';
    case 'read':
      return message.readAt ? `Read ${formatTimeOfDay(message.readAt)}` : 'Read';
    case 'service_unavailable':
      return 'Service unavailable: retrying…';
    case 'rate_limit_exceeded':
      return 'Rate limited: retrying…';
    case 'paused':
      return 'Line paused: will send when it resumes';
    case 'failed':
      // Not delivered (reason unknown), refused for a lasting reason, or the outbox's own error.
      return failurePresentation(message)?.title ?? 'Not sent';
    default:
      return String(message.state);
  }
}

function ageText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}
