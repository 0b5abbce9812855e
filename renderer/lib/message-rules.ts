/**
 * What an agent may do with a message, and why not when they may not: the UI disables an action
 * with the reason rather than hiding it. Mirrors the core's own checks (handlers.ts).
 */
import type { Chat, Message, MessageState } from '../../shared/domain.ts';

export type Permission = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: Permission = { allowed: true };
const denied = (reason: string): Permission => ({ allowed: false, reason });

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

export function canEdit(message: Message, chat: Pick<Chat, 'service'> | undefined): Permission {
  if (!message.fromMe) return denied('Only messages you sent can be edited');
  if (chat?.service === 'SMS') return denied('SMS messages cannot be edited');
  if (message.id === null) return denied('Wait until the message is sent to edit it');
  if (message.text.trim() === '') return denied('Only text can be edited');
  return ALLOWED;
}

export function canDelete(message: Message): Permission {
  if (!message.fromMe) return denied('Only messages you sent can be deleted');
  if (message.id === null)
    return message.state === 'failed' || message.state === 'queued'
      ? denied('Discard it instead: it was never sent')
      : denied('Wait until the message is sent to delete it');
  return ALLOWED;
}

export function canReact(message: Message): Permission {
  if (message.id === null) return denied('Wait until the message is sent to react');
  return ALLOWED;
}

/** A short status line for outbound messages; `now` for the age of pending ones. */
export function deliveryLabel(message: Message, now: number, offline: boolean): string {
  switch (message.state) {
    case 'queued':
      return offline ? 'Queued: sends when back online' : 'Queued';
    case 'sending':
      // The core keeps the last transient failure (5xx, 429, offline) while it waits to try again.
      return message.error ? `Retrying… (${message.error.message})` : 'Sending…';
    case 'pending':
      return `Sent · not delivered yet (${ageText(now - message.sentAt)})`;
    case 'delivered':
      return 'Delivered';
    case 'service_unavailable':
      return 'Service unavailable: retrying…';
    case 'rate_limit_exceeded':
      return 'Rate limited: retrying…';
    case 'paused':
      return 'Line paused: will send when it resumes';
    case 'failed':
      return message.error?.message ?? 'Not sent';
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
