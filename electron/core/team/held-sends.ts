/**
 * Answering a send the relay held (send-time check): the message stays in its chat, failed with
 * SEND_HELD_CODE and the words of what the agent had not seen, until the agent answers.
 *
 * "Send anyway" sends the same job again through the outbox (its door's rules again), published
 * under `<key>_a<latestSeq>` (the held key's subject is taken for good in the sends stream) with
 * `seenSeq` = the hold's `latestSeq` and `resendOf` = the held key; the relay sends it with the held
 * key, which the service never had. One hold, one derived key: a double click, a retry after a
 * network error or the agent's other desktop publish the same subject, which the stream keeps
 * once; held again (more came meanwhile), the next answer derives a new key from the newer hold.
 * "Discard" drops the message and its files, as `messages.discard` does.
 */
import { createHash } from 'node:crypto';
import { SEND_HELD_CODE } from '../../../shared/contract/team-views.ts';
import type { RelayMessaging, TeamSendPlan } from '../relay/relay-messaging.ts';
import type { ServiceSession } from '../session.ts';
import type { ActionReply } from './team-actions.ts';

/** A team request refused, in the bridge's words (team-handlers.ts passes it on as it is). */
export class TeamRefusal extends Error {
  override name = 'TeamRefusal';
  readonly code: string;
  readonly retryable: boolean;
  readonly field: string | undefined;
  constructor(code: string, message: string, retryable = false, field?: string) {
    super(message);
    this.code = code;
    this.retryable = retryable;
    this.field = field;
  }
}

/** The relay's answer to a team action: its fields, or its refusal thrown as a TeamRefusal. */
export function unwrap(reply: ActionReply): Record<string, unknown> {
  if (reply.ok) return reply;
  const { code, message, retryable, field } = reply.error;
  throw new TeamRefusal(code, message, retryable, field ?? undefined);
}

const NOT_HELD = 'No message is waiting for an answer by that key: it was sent or discarded';

export async function answerHeld(options: {
  key: string;
  answer: 'sendAnyway' | 'discard';
  session: Pick<ServiceSession, 'store' | 'outbox'>;
  relayMessaging: RelayMessaging | undefined;
  plans: Map<string, TeamSendPlan>;
}): Promise<void> {
  const { key, session, plans } = options;
  const stillHeld = () => {
    const message = session.store.messages.get(key);
    if (!message || message.state !== 'failed' || message.error?.code !== SEND_HELD_CODE)
      throw new TeamRefusal('not_found', NOT_HELD);
  };
  stillHeld();
  if (options.answer === 'discard') {
    plans.delete(key);
    session.outbox.discard(key);
    return;
  }
  const held = await options.relayMessaging?.heldOutcome(key);
  if (!held) throw new TeamRefusal('not_found', NOT_HELD);
  stillHeld(); // answered twice at once (a double click): the first answer is the one
  plans.set(key, { subjectKey: anywayKey(key, held.latestSeq), seenSeq: held.latestSeq, resendOf: key });
  session.outbox.retry(key);
}

/** The subject key of "Send anyway" after the hold at `latestSeq` (a subject token, ≤ 128 characters). */
export function anywayKey(key: string, latestSeq: number): string {
  const suffix = `_a${latestSeq}`;
  const base = key.length + suffix.length <= 128 ? key : createHash('sha256').update(key).digest('hex');
  return `${base}${suffix}`;
}
