/**
 * How V3 data is shown and which V3 controls an agent gets: delivery states and failures in words,
 * replies, effects, link cards, edit allowances, the service choice, a line's reputation and a
 * chat's health. Everything degrades to the V2 behaviour when the data is absent (V2 records).
 * Mirrors the core's checks (electron/core/app/handlers.ts) so the UI disables with the same reason.
 */
import { deliveryFailureInfo } from '../../shared/delivery-failures.ts';
import type { ApiVersion, Chat, Line, Message, MessageEffect, MessagePart } from '../../shared/domain.ts';
import type { Permission } from './message-rules.ts';

const ALLOWED: Permission = { allowed: true };
const denied = (reason: string): Permission => ({ allowed: false, reason });

/** V3 when the chat came from V3 or the workspace speaks it; absent data means V2. */
export function apiVersionOf(
  chat: Pick<Chat, 'apiVersion'> | undefined,
  workspace?: { apiVersion?: ApiVersion } | null,
): ApiVersion {
  return chat?.apiVersion === 'v3' || workspace?.apiVersion === 'v3' ? 'v3' : 'v2';
}

export const V3_ONLY_REASON = 'Needs a V3 workspace';

// ── delivery ──────────────────────────────────────────────────────────────────────────────────

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
 * A failed message in words. A V3 delivery failure uses the code's wording; sending again makes a
 * new message with a fresh key (the old key would only return the stored failure), and never for an
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
  // Refused outright with a lasting V3 code (an opt-out, a restricted line): the same send again
  // would be refused again.
  const refusal = message.error;
  if (refusal && !refusal.retryable && /^\d{4}$/.test(refusal.code)) {
    const info = deliveryFailureInfo(refusal.code);
    return { title: info.title, hint: info.hint, code: info.code, action: 'none' };
  }
  return { title: message.error?.message ?? 'Not sent', hint: null, code: null, action: 'retry' };
}

/** The V3 delivery states an outbound bubble shows; others fall back to the V2 wording. */
export function v3DeliveryLabel(
  message: Pick<Message, 'state' | 'readAt' | 'failure' | 'error' | 'id' | 'fromMe'>,
): string | null {
  if (message.failure) return deliveryFailureInfo(message.failure.code).title;
  if (message.state === 'failed') {
    // Not delivered (reason unknown) or refused for a lasting reason: the words of the table.
    const shown = failurePresentation(message);
    if (shown && shown.action !== 'retry') return shown.title;
  }
  switch (message.state) {
    case 'sent':
      return 'Sent';
    case 'read':
      return message.readAt ? `Read ${timeOfDay(message.readAt)}` : 'Read';
    default:
      return null;
  }
}

// ── replies and threads ───────────────────────────────────────────────────────────────────────

/** A one-line quote of a message for a reply preview (composer or bubble). */
export function quoteText(message: Pick<Message, 'text' | 'attachments' | 'parts'>, max = 90): string {
  const link = message.parts?.find((p): p is Extract<MessagePart, { type: 'link' }> => p.type === 'link');
  const text = message.text.trim() || link?.url || '';
  if (text === '') {
    const count = message.attachments.length;
    return count === 0 ? 'A message' : count === 1 ? 'An attachment' : `${count} attachments`;
  }
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** The message a reply quotes, among those loaded (null when it is not on screen). */
export function repliedMessage(
  message: Pick<Message, 'replyTo'>,
  loaded: readonly Message[],
): Message | null {
  const id = message.replyTo?.messageId;
  if (!id) return null;
  return loaded.find((m) => m.v3Id === id) ?? null;
}

/**
 * What the optimistic bubble of a send shows of its V3 options from its first frame: the message it
 * answers (named by its V3 id, as the core will send it) and its effect. Nothing for a V2 send.
 */
export function optimisticV3Fields(
  options: { replyTo?: { messageKey: string; partIndex?: number }; effect?: MessageEffect },
  loaded: readonly Message[],
): Pick<Message, 'replyTo' | 'effect'> {
  const target = options.replyTo && loaded.find((m) => m.key === options.replyTo?.messageKey);
  return {
    ...(target?.v3Id
      ? { replyTo: { messageId: target.v3Id, partIndex: options.replyTo?.partIndex ?? 0 } }
      : {}),
    ...(options.effect ? { effect: options.effect } : {}),
  };
}

/** How many loaded messages answer this one (its thread's size, without it). */
export function replyCount(message: Pick<Message, 'v3Id'>, loaded: readonly Message[]): number {
  if (!message.v3Id) return 0;
  return loaded.filter((m) => m.replyTo?.messageId === message.v3Id).length;
}

export function canReply(message: Pick<Message, 'v3Id' | 'id'>, version: ApiVersion): Permission {
  if (version !== 'v3') return denied(`Replies in a thread: needs a V3 workspace`);
  if (!message.v3Id) return denied('Wait until the message is sent to reply to it');
  return ALLOWED;
}

// ── effects ───────────────────────────────────────────────────────────────────────────────────

const EFFECT_NAMES: Readonly<Record<string, string>> = {
  confetti: 'Confetti',
  fireworks: 'Fireworks',
  lasers: 'Lasers',
  sparkles: 'Sparkles',
  celebration: 'Sparkles',
  hearts: 'Hearts',
  love: 'Hearts',
  balloons: 'Balloons',
  happy_birthday: 'Balloons',
  echo: 'Echo',
  spotlight: 'Spotlight',
  slam: 'Slam',
  loud: 'Loud',
  gentle: 'Gentle',
  invisible: 'Invisible ink',
};

export function effectName(name: string): string {
  return EFFECT_NAMES[name] ?? name.replace(/_/g, ' ');
}

/** The label a bubble wears for its effect: "Sent with Confetti". */
export function effectLabel(effect: MessageEffect | null | undefined): string | null {
  if (!effect?.name) return null;
  return `Sent with ${effectName(effect.name)}`;
}

/** Effects exist on iMessage only, and are sent through V3. */
export function canUseEffects(chat: Pick<Chat, 'service'>, version: ApiVersion): Permission {
  if (version !== 'v3') return denied(`Effects: needs a V3 workspace`);
  if (chat.service !== 'iMessage') return denied('Effects are shown on iMessage only');
  return ALLOWED;
}

// ── link cards ────────────────────────────────────────────────────────────────────────────────

export interface LinkCard {
  url: string;
  host: string;
}

const ONLY_A_URL = /^https?:\/\/\S+$/i;

/**
 * A card for a link message: a V3 link part, or a message whose whole text is one web address. Built
 * from the address alone: nothing is fetched, so no third-party content reaches the app.
 */
export function linkCard(message: Pick<Message, 'text' | 'parts' | 'attachments'>): LinkCard | null {
  const part = message.parts?.find((p): p is Extract<MessagePart, { type: 'link' }> => p.type === 'link');
  const candidate = part?.url ?? (message.attachments.length === 0 ? message.text.trim() : '');
  if (!ONLY_A_URL.test(candidate)) return null;
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return { url: url.href, host: url.hostname.replace(/^www\./, '') };
  } catch {
    return null;
  }
}

// ── edits ─────────────────────────────────────────────────────────────────────────────────────

export const V3_MAX_EDITS = 5;
export const V3_EDIT_WINDOW_MS = 15 * 60_000;

export interface EditAllowance {
  permission: Permission;
  /** What the edit UI says: edits left and until when (V3); null on V2. */
  note: string | null;
}

/**
 * V3 limits edits to 5 within 15 minutes of sending; the service counts them, the app knows only
 * whether the message was edited, so it says "up to" (an honest upper bound). V2 keeps its rules.
 */
export function editAllowance(
  message: Pick<Message, 'sentAt' | 'editedAt'>,
  version: ApiVersion,
  now: number,
): EditAllowance {
  if (version !== 'v3') return { permission: ALLOWED, note: null };
  const until = message.sentAt + V3_EDIT_WINDOW_MS;
  if (now >= until)
    return { permission: denied('Messages can be edited within 15 minutes of sending'), note: null };
  const left = V3_MAX_EDITS - (message.editedAt === null ? 0 : 1);
  return {
    permission: ALLOWED,
    note: `Up to ${left} ${left === 1 ? 'edit' : 'edits'} left, until ${timeOfDay(until)}`,
  };
}

// ── the service a message goes over ──────────────────────────────────────────────────────────

export type ServiceChoice = 'auto' | 'iMessage' | 'RCS' | 'SMS';

export interface ServiceOption {
  value: ServiceChoice;
  label: string;
  permission: Permission;
}

/** The choices for one message, each refused with its reason where it cannot apply. */
export function serviceOptions(
  chat: Pick<Chat, 'handles' | 'isGroup'>,
  version: ApiVersion,
): ServiceOption[] {
  const v2 = version !== 'v3' ? denied(`Choosing a service: needs a V3 workspace`) : null;
  const customers = chat.handles.filter((h) => !h.isMe);
  const hasEmail = customers.some((h) => h.identifier.includes('@'));
  const phoneOnly = hasEmail ? denied('An email address can be reached over iMessage only') : ALLOWED;
  return [
    { value: 'auto', label: 'Automatic', permission: ALLOWED },
    { value: 'iMessage', label: 'iMessage', permission: v2 ?? ALLOWED },
    { value: 'RCS', label: 'RCS', permission: v2 ?? phoneOnly },
    { value: 'SMS', label: 'SMS', permission: v2 ?? phoneOnly },
  ];
}

// ── reputation and health ────────────────────────────────────────────────────────────────────

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

export function versionText(version: ApiVersion): string {
  return version === 'v3' ? 'V3' : 'V2';
}

// ── custom reactions ─────────────────────────────────────────────────────────────────────────

/** Whether a string is exactly one emoji (what a custom reaction may be); the contract checks it too. */
export function isSingleEmoji(value: string): boolean {
  const trimmed = value.trim();
  if (
    !/^\p{Extended_Pictographic}(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f|\p{M})*$/u.test(
      trimmed,
    )
  )
    return false;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return [...segmenter.segment(trimmed)].length === 1;
}

export function canCustomReact(version: ApiVersion): Permission {
  return version === 'v3' ? ALLOWED : denied(`Any emoji as a reaction: needs a V3 workspace`);
}

function timeOfDay(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}
