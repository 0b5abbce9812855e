/**
 * The team's send-time check around one send on the relay (core/team/README.md, "For the relay's
 * sends consumer"): before it goes, a send is held when a teammate's reply or a customer's message
 * landed in its chat since its `seenSeq` (without one, when the chat's latest activity is not its
 * own agent's reply); after the service accepted it, the reply is
 * recorded as the chat's activity (what the next send is checked against).
 *
 * "Send anyway" is a new message on the sends stream (the held key's subject is taken for good)
 * naming the held send in `resendOf`: it is checked again with the newer `seenSeq`, and sent to
 * the service with the held send's key, which the service never had (the hold came first). So a
 * double click, two desktops of one agent, or a redelivery after a crash all send it once.
 */
import type { KV } from '@nats-io/kv';
import {
  Assignment,
  assignmentKey,
  ChangeOutcomeSchema,
  composerState,
  recordAudit,
  sendOutcomeKey,
  type ChangeOutcome,
  type ParsedChange,
  type TeamRelay,
} from '../core/relay-host.ts';
import { createLogger } from '../core/log/logger.ts';

const log = createLogger('relay-send-check');

type Send = Extract<ParsedChange, { kind: 'send' }>;

/** Who is on the team now (the relay's agent directory), by id, with their names. */
export type TeamAgents = () => ReadonlyMap<string, string>;

/**
 * The team's rules for a change, which the relay applies itself (no desktop is trusted to): an agent
 * removed from the team makes nothing, even what it queued before (`removed`); with "only the
 * assignee's composer" on, a send in a conversation another agent owns is refused (`not_assignee`).
 * A refusal is audited. Returns the outcome to write, or undefined when the rules let it go.
 */
export async function refusedByTeam(
  team: TeamRelay,
  assignments: KV,
  change: ParsedChange,
  agentId: string,
  agents: TeamAgents | undefined,
): Promise<ChangeOutcome | undefined> {
  if (agents && !agents().has(agentId))
    return refuse(team, agentId, undefined, {
      code: 'removed',
      message: 'You were removed from this team: nothing you queued is sent. Ask for a new join code',
      detail: `${change.kind}: the agent is no longer on the team`,
    });
  if (change.kind !== 'send') return undefined;
  const settings = await team.settings();
  if (!settings.assigneeOnlyComposer) return undefined;
  const entry = await assignments.get(assignmentKey(change.chatId));
  const parsed = entry?.operation === 'PUT' ? Assignment.safeParse(jsonOf(entry.string())) : undefined;
  const state = composerState(parsed?.success ? parsed.data : undefined, agentId, settings);
  if (state.enabled) return undefined;
  const owner = agents?.().get(state.owner) ?? 'A teammate';
  return refuse(team, agentId, change.chatId, {
    code: 'not_assignee',
    message: `${owner} owns this conversation: only they reply while "only the assignee replies" is on. Take it over to reply`,
    detail: `send: the conversation is ${owner}'s`,
  });
}

async function refuse(
  team: TeamRelay,
  agentId: string,
  chatId: number | undefined,
  refusal: { code: string; message: string; detail: string },
): Promise<ChangeOutcome> {
  await recordAudit(team.js, {
    action: 'refused',
    by: agentId,
    ...(chatId === undefined ? {} : { chatId }),
    detail: refusal.detail,
    at: Date.now(),
  }).catch((error: unknown) =>
    log.warn('could not audit a refusal', { error: error instanceof Error ? error.message : String(error) }),
  );
  return {
    state: 'failed',
    error: { code: refusal.code, message: refusal.message, retryable: false, field: null },
  };
}

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
  // Every send is checked: one that says nothing of what it saw, against the chat's latest.
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
