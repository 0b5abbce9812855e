/**
 * Changing a message already sent: editing it (one rule, with the service's window where the
 * workspace has one) and deleting it for everyone.
 */
import type { Chat, Message } from '../../shared/domain.ts';
import { formatTimeOfDay } from './format.ts';
import { ALLOWED, denied, type Permission } from './permission.ts';

/** The service's limits where it has them (capabilities.ts `editWindow`). */
export const MAX_EDITS = 5;
export const EDIT_WINDOW_MS = 15 * 60_000;

export interface EditAllowance {
  permission: Permission;
  /** What the Edit action says when allowed: edits left and until when (a window); else null. */
  note: string | null;
}

/**
 * Whether the agent may edit a message, and what the Edit action says. Their own sent text, never
 * SMS. Where the service limits edits (5 within 15 minutes of sending) it counts them, and the app
 * knows only whether the message was edited, so it says "up to" (an honest upper bound).
 */
export function editAllowance(
  message: Pick<Message, 'fromMe' | 'id' | 'text' | 'sentAt' | 'editedAt'>,
  chat: Pick<Chat, 'service'> | undefined,
  limits: { editWindow: boolean },
  now: number,
): EditAllowance {
  const refused = (reason: string): EditAllowance => ({ permission: denied(reason), note: null });
  if (!message.fromMe) return refused('Only messages you sent can be edited');
  if (chat?.service === 'SMS') return refused('SMS messages cannot be edited');
  if (message.id === null) return refused('Wait until the message is sent to edit it');
  if (message.text.trim() === '') return refused('Only text can be edited');
  if (!limits.editWindow) return { permission: ALLOWED, note: null };
  const until = message.sentAt + EDIT_WINDOW_MS;
  if (now >= until) return refused('Messages can be edited within 15 minutes of sending');
  const left = MAX_EDITS - (message.editedAt === null ? 0 : 1);
  return {
    permission: ALLOWED,
    note: `Up to ${left} ${left === 1 ? 'edit' : 'edits'} left, until ${formatTimeOfDay(until)}`,
  };
}

export function canDelete(message: Pick<Message, 'fromMe' | 'id' | 'state'>): Permission {
  if (!message.fromMe) return denied('Only messages you sent can be deleted');
  if (message.id === null)
    return message.state === 'failed' || message.state === 'queued'
      ? denied('Discard it instead: it was never sent')
      : denied('Wait until the message is sent to delete it');
  return ALLOWED;
}
