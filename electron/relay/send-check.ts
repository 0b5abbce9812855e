/**
 * The team's send-time check around one send on the relay (core/team/README.md, "For the relay's
 * sends consumer"): before it goes, a send that carries `seenSeq` is held when a teammate's reply
 * or a customer's message landed in its chat since; after the service accepted it, the reply is
 * recorded as the chat's activity (what the next send is checked against).
 *
 * "Send anyway" is a new message on the sends stream (the held key's subject is taken for good)
 * naming the held send in `resendOf`: it is checked again with the newer `seenSeq`, and sent to
 * the service with the held send's key, which the service never had (the hold came first). So a
 * double click, two desktops of one agent, or a redelivery after a crash all send it once.
 */
import type { KV } from '@nats-io/kv';
import {
  ChangeOutcomeSchema,
  sendOutcomeKey,
  type ChangeOutcome,
  type ParsedChange,
  type TeamRelay,
} from '../core/relay-host.ts';
import { createLogger } from '../core/log/logger.ts';

const log = createLogger('relay-send-check');

type Send = Extract<ParsedChange, { kind: 'send' }>;

/** What to do with a send: write this outcome (held, refused), or go with this service key. */
export type SendCheck = { outcome: ChangeOutcome } | { go: true; serviceKey: string };

export async function checkTeamSend(
  team: TeamRelay,
  outcomes: KV,
  send: Send,
  address: { agentId: string; key: string },
): Promise<SendCheck> {
  if (send.resendOf !== undefined) {
    const held = await outcomeOf(outcomes, address.agentId, send.resendOf);
    // Sent already (a redelivery of this very answer, or another desktop's): that is its outcome.
    if (held?.state === 'accepted') return { outcome: held };
    if (held?.state !== 'held')
      return {
        outcome: {
          state: 'failed',
          error: {
            code: 'not_held',
            message: 'That message is not waiting to be sent anyway: it was sent or discarded',
            retryable: false,
            field: 'resendOf',
          },
        },
      };
  }
  if (send.seenSeq !== undefined) {
    const decision = await team.checkSend({
      agentId: address.agentId,
      chatId: send.chatId,
      seenSeq: send.seenSeq,
    });
    if (decision.decision === 'hold') {
      const held: ChangeOutcome = { state: 'held', message: decision.message, latestSeq: decision.latestSeq };
      // Held again: the held send's own key says so too, so the next answer starts from this hold.
      if (send.resendOf !== undefined)
        await outcomes.put(sendOutcomeKey(address.agentId, send.resendOf), JSON.stringify(held));
      return { outcome: held };
    }
  }
  return { go: true, serviceKey: send.resendOf ?? address.key };
}

/**
 * After the service accepted a send: the chat's activity, the audit and "replying assigns"; and a
 * "Send anyway" also answers the held send's own key, so nothing can send it again. A failure
 * here is logged, not the send's: the message went.
 */
export async function recordTeamSend(
  team: TeamRelay,
  outcomes: KV,
  send: Send,
  address: { agentId: string },
  accepted: ChangeOutcome,
): Promise<void> {
  const messageId = (accepted.state === 'accepted' && (accepted.result as { id?: unknown })?.id) ?? null;
  try {
    if (messageId !== null)
      await team.recordReply({
        agentId: address.agentId,
        chatId: send.chatId,
        messageId: String(messageId),
        text: send.text || '(attachment)',
      });
    if (send.resendOf !== undefined)
      await outcomes.put(sendOutcomeKey(address.agentId, send.resendOf), JSON.stringify(accepted));
  } catch (error) {
    log.warn('could not record a reply for the team', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

async function outcomeOf(outcomes: KV, agentId: string, key: string): Promise<ChangeOutcome | undefined> {
  const entry = await outcomes.get(sendOutcomeKey(agentId, key));
  if (entry?.operation !== 'PUT') return undefined;
  const parsed = ChangeOutcomeSchema.safeParse(jsonOf(entry.string()));
  return parsed.success ? parsed.data : undefined;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
