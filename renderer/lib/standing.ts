/**
 * A line's reputation and a chat's health as the service reports them: the warning above the
 * composer, sending turned off in an opted-out chat, and the words for each status. Only a workspace
 * with the `standing` capability (capabilities.ts) reports them; elsewhere they are absent and
 * nothing shows.
 */
import type { Chat, Line } from '../../shared/domain.ts';
import { ALLOWED, denied, type Permission } from './permission.ts';

export interface SendingWarning {
  level: 'warning' | 'critical';
  text: string;
  docUrl: string | null;
}

/** A warning above the composer when the line's reputation or the chat's health is at risk. */
export function sendingWarning(
  chat: Pick<Chat, 'health'>,
  line: Pick<Line, 'reputation' | 'phoneNumber'> | null | undefined,
): SendingWarning | null {
  const reputation = line?.reputation;
  if (reputation?.status === 'CRITICAL')
    return {
      level: 'critical',
      text: 'This line’s reputation is critical: sending may be restricted. Send only what the customer expects.',
      docUrl: reputation.docUrl,
    };
  if (reputation?.status === 'AT_RISK')
    return {
      level: 'warning',
      text: 'This line’s reputation is at risk: avoid unsolicited messages and links.',
      docUrl: reputation.docUrl,
    };
  const health = chat.health;
  if (health?.status === 'CRITICAL')
    return {
      level: 'critical',
      text: 'This chat’s health is critical: the recipient may be about to opt out.',
      docUrl: health.docUrl,
    };
  if (health?.status === 'AT_RISK')
    return {
      level: 'warning',
      text: 'This chat’s health is at risk: keep messages expected and relevant.',
      docUrl: health.docUrl,
    };
  return null;
}

/** Sending stops in an opted-out chat: the recipient asked not to be messaged (the core refuses too). */
export function sendPermission(chat: Pick<Chat, 'health'>): Permission {
  if (chat.health?.status === 'OPTED_OUT')
    return denied('The recipient asked you to stop messaging them. Sending is turned off for this chat.');
  return ALLOWED;
}

/** The words for a health or reputation status. */
export function standingText(status: string | null | undefined): string {
  switch (status) {
    case 'HEALTHY':
      return 'Healthy';
    case 'AT_RISK':
      return 'At risk';
    case 'CRITICAL':
      return 'Critical';
    case 'OPTED_OUT':
      return 'Opted out';
    case null:
    case undefined:
      return 'Not reported';
    default:
      return status;
  }
}
