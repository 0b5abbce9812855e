/**
 * The team layer's relay side: one per relay process, beside its sends and reads.
 *
 *   agent ─ parley.act.<agent>.<action> ─▶ validated, applied (CAS), audited ─▶ reply
 *   event log ─ customer message ─▶ chat activity (team stream) ─▶ reopen a done chat / round-robin
 *   sends consumer ─ accepted send ─▶ recordReply: chat activity, audit "sent", reply assigns
 *   sends consumer ─ before sending ─▶ checkSend: hold or go (send-conflict.ts)
 *
 * Two relays of one organization answer actions as one queue group and share one durable consumer
 * on the event log, so each action and each customer message is handled once; assignments are
 * compare-and-set, so even two relays racing cannot both win. What each action request goes
 * through, from its subject to its answer, is team-action-router.ts.
 */
import { jetstream, type ConsumerMessages, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import { serveRequests, type Reply } from '../relay/responder.ts';
import { followCustomerMessages } from './customer-message.ts';
import {
  activitySubject,
  ASSIGNMENTS_BUCKET,
  assignmentKey,
  CANNED_REPLIES_BUCKET,
  ROSTER_KEY,
  TEAM_ACTION_QUEUE,
  TEAM_ACTION_SUBJECTS,
  TEAM_BUCKET,
  TEAM_STREAM,
} from '../relay/team-subjects.ts';
import { recordAudit } from './audit.ts';
import { availableAgents } from './presence-view.ts';
import { PresenceWatcher } from './presence.ts';
import { assignInTurn } from './round-robin.ts';
import { decideSend, previewOf, type SendDecision, type SequencedActivity } from './send-conflict.ts';
import { readToEnd } from './stream-read.ts';
import { routeTeamAction } from './team-action-router.ts';
import { changeTeamSettings, readTeamSettings } from './team-settings.ts';
import { assign, type ActionReply, type TeamActionContext } from './team-actions.ts';
import {
  Assignment,
  ChatActivityEntry,
  decode,
  decodeOrSkip,
  encode,
  MAX_TEAM_MESSAGE_BYTES,
  type Roster,
  type TeamRole,
  type TeamSettings,
} from './wire.ts';

const log = createLogger('team-relay');

/** How often the roster desktops show is compared with the directory (agents added or removed). */
const ROSTER_CHECK_MS = 2_000;

export interface TeamRelayOptions {
  /** The relay's engine: the team's streams and buckets. */
  nc: NatsConnection;
  /** The relay's responder: agents' actions are answered on it (core/relay/responder.ts). */
  responder: NatsConnection;
  /**
   * The team's agents (the relay's directory), read on every action: a removed agent is refused,
   * and one whose role does not allow an action (team-roles.ts). No role: an agent.
   */
  agents: () => ReadonlyArray<{ id: string; name: string; role?: TeamRole | undefined }>;
  now?: () => number;
  /** Presence staleness for round-robin (default: presence.ts's). */
  presenceStaleAfterMs?: number;
}

export class TeamRelay {
  readonly #options: TeamRelayOptions;
  readonly #ctx: TeamActionContext;
  readonly #team: KV;
  readonly #presence: PresenceWatcher;
  #actions: Subscription | undefined;
  #activity: ConsumerMessages | undefined;
  #roster = '';
  #rosterTimer: NodeJS.Timeout | undefined;
  readonly #running = new Set<Promise<unknown>>();

  static async start(options: TeamRelayOptions): Promise<TeamRelay> {
    const { nc } = options;
    const kvm = new Kvm(nc);
    const [assignments, cannedReplies, team] = await Promise.all(
      [ASSIGNMENTS_BUCKET, CANNED_REPLIES_BUCKET, TEAM_BUCKET].map((name) => kvm.open(name)),
    );
    const presence = await PresenceWatcher.start(
      nc,
      options.presenceStaleAfterMs ? { staleAfterMs: options.presenceStaleAfterMs } : {},
    );
    const relay = new TeamRelay(
      options,
      {
        js: jetstream(nc),
        assignments: assignments!,
        cannedReplies: cannedReplies!,
        agents: () => new Map(options.agents().map((a) => [a.id, a.name])),
        now: options.now ?? Date.now,
      },
      team!,
      presence,
    );
    await relay.#publishRoster();
    relay.#rosterTimer = setInterval(() => void relay.#publishRoster(), ROSTER_CHECK_MS);
    relay.#rosterTimer.unref();
    await relay.#serveActions();
    await relay.#followCustomerMessages();
    return relay;
  }

  private constructor(
    options: TeamRelayOptions,
    ctx: TeamActionContext,
    team: KV,
    presence: PresenceWatcher,
  ) {
    this.#options = options;
    this.#ctx = ctx;
    this.#team = team;
    this.#presence = presence;
  }

  get js(): JetStreamClient {
    return this.#ctx.js;
  }

  /** The team's settings (defaults until an admin changed them). */
  settings(): Promise<TeamSettings> {
    return readTeamSettings(this.#team);
  }

  /** A change to the settings, audited as `by`'s (an admin's request, or the relay itself). */
  updateSettings(change: Partial<TeamSettings>, by = 'relay'): Promise<TeamSettings> {
    return changeTeamSettings({ team: this.#team, js: this.#ctx.js }, change, by, this.#ctx.now());
  }

  /**
   * For the relay's sends consumer, once the service accepted an agent's reply: the chat's activity
   * (what other agents' sends are checked against), the audit log, and "replying assigns".
   */
  async recordReply(reply: {
    agentId: string;
    chatId: number;
    messageId: string;
    text: string;
  }): Promise<void> {
    const { agentId, chatId, messageId } = reply;
    const at = await this.#recordActivity(
      { kind: 'reply', chatId, agentId, messageId },
      reply.text,
      `reply-${messageId}`,
    );
    await recordAudit(this.#ctx.js, {
      action: 'sent',
      by: reply.agentId,
      chatId: reply.chatId,
      detail: `message ${reply.messageId}`.slice(0, 500),
      at,
    });
    if ((await this.settings()).replyAssignsToReplier)
      await assign(this.#ctx, reply.agentId, { action: 'claim', chatId: reply.chatId });
  }

  /**
   * The send-time conflict check, for the relay's sends consumer before it sends: the chat's
   * activity after what the agent had seen (`seenSeq`), decided by send-conflict.ts. A send that
   * says nothing of what it saw (a client that skipped its desktop's door) is checked against the
   * chat's latest activity: held unless that is its agent's own reply, so leaving `seenSeq` out
   * never gets a send past the check.
   */
  async checkSend(send: {
    agentId: string;
    chatId: number;
    seenSeq?: number | undefined;
  }): Promise<SendDecision> {
    const newer =
      send.seenSeq === undefined
        ? await this.#latestActivity(send.chatId)
        : await this.#activityAfter(send.chatId, send.seenSeq);
    const names = this.#ctx.agents();
    return decideSend({
      sender: send.agentId,
      seenSeq: send.seenSeq ?? 0,
      newer,
      now: this.#ctx.now(),
      nameOf: (id) => names.get(id) ?? 'A teammate',
    });
  }

  async #activityAfter(chatId: number, seenSeq: number): Promise<SequencedActivity[]> {
    const stored = await readToEnd(this.#options.nc, TEAM_STREAM, {
      subject: activitySubject(chatId),
      startSeq: seenSeq + 1,
    });
    return stored.flatMap(({ seq, data }) => {
      const entry = decodeOrSkip(ChatActivityEntry, data, log, `activity #${seq}`);
      return entry ? [{ seq, entry }] : [];
    });
  }

  async #latestActivity(chatId: number): Promise<SequencedActivity[]> {
    const jsm = await this.#ctx.js.jetstreamManager();
    const last = await jsm.streams.getMessage(TEAM_STREAM, { last_by_subj: activitySubject(chatId) });
    const entry = last ? decodeOrSkip(ChatActivityEntry, last.data, log, `activity #${last.seq}`) : undefined;
    return last && entry ? [{ seq: last.seq, entry }] : [];
  }

  /** A customer's message reached the relay: recorded as chat activity, then the team's rules. */
  async onCustomerMessage(message: {
    eventId: string;
    chatId: number;
    messageId: string;
    text: string;
  }): Promise<void> {
    const { chatId, messageId } = message;
    await this.#recordActivity(
      { kind: 'customer_message', chatId, messageId },
      message.text,
      `customer-${message.eventId}`,
    );
    const settings = await this.settings();
    const current = await this.#ctx.assignments.get(assignmentKey(message.chatId));
    const assignment = current?.operation === 'PUT' ? decode(Assignment, current.value) : undefined;
    if (assignment?.ok && assignment.value.status === 'done' && settings.customerMessageReopens)
      await assign(this.#ctx, 'relay', {
        action: 'reopen',
        chatId: message.chatId,
        expectedRevision: current!.revision,
      });
    else if (!current && settings.roundRobin) await this.#assignInTurn(message.chatId);
  }

  async stop(): Promise<void> {
    clearInterval(this.#rosterTimer);
    await this.#actions?.drain().catch(() => undefined);
    await this.#activity?.close();
    await this.#presence.stop();
    await Promise.allSettled(this.#running);
  }

  /** The directory's agents into the team bucket, when they changed (desktops watch it for names). */
  async #publishRoster(): Promise<void> {
    const roster: Roster = {
      agents: this.#options.agents().map(({ id, name, role }) => ({ id, name, role: role ?? 'agent' })),
    };
    const signature = JSON.stringify(roster);
    if (signature === this.#roster) return;
    try {
      await this.#team.put(ROSTER_KEY, encode(roster));
      this.#roster = signature;
    } catch (error) {
      log.warn('could not publish the team roster', { error: String(error) });
    }
  }

  /** One entry of a chat's activity, de-duplicated by `msgID` (a redelivery records nothing new). */
  async #recordActivity(
    entry: Omit<ChatActivityEntry, 'preview' | 'at'>,
    text: string,
    msgID: string,
  ): Promise<number> {
    const at = this.#ctx.now();
    const full: ChatActivityEntry = { ...entry, preview: previewOf(text), at };
    await this.#ctx.js.publish(activitySubject(entry.chatId), encode(full), { msgID });
    return at;
  }

  #track(work: Promise<unknown>): void {
    this.#running.add(work);
    const done = () => void this.#running.delete(work);
    work.then(done, done);
  }

  #assignInTurn(chatId: number): Promise<void> {
    return assignInTurn(
      this.#ctx,
      {
        team: this.#team,
        agentIds: this.#options.agents().map((a) => a.id),
        available: new Set(availableAgents(this.#presence.current)),
        log,
      },
      chatId,
    );
  }

  async #serveActions(): Promise<void> {
    // Each action on its own (the responder does not wait for one before the next): two claims at
    // once really race, and compare-and-set settles it.
    this.#actions = serveRequests(
      this.#options.responder,
      {
        subject: TEAM_ACTION_SUBJECTS,
        queue: TEAM_ACTION_QUEUE,
        maxBytes: MAX_TEAM_MESSAGE_BYTES,
        what: 'team action',
        unavailable: {
          code: 'team_unavailable',
          message: 'The team relay could not do that just now: try again',
        },
      },
      (msg, asker) => {
        const acting = this.#act(msg, asker);
        this.#track(acting);
        return acting as Promise<Reply>;
      },
    );
    await this.#options.responder.flush();
  }

  #act(msg: Msg, asker: string): Promise<ActionReply> {
    return routeTeamAction(msg, asker, {
      ctx: this.#ctx,
      engine: this.#options.nc,
      agents: () => this.#options.agents(),
      publishRoster: () => this.#publishRoster(),
      settings: () => this.settings(),
      updateSettings: (change, by) => this.updateSettings(change, by),
    });
  }

  /** Customers' messages, from now on (one durable consumer shared by the organization's relays). */
  async #followCustomerMessages(): Promise<void> {
    const { messages, done } = await followCustomerMessages(
      this.#options.nc,
      (message) => this.onCustomerMessage(message),
      log,
    );
    this.#activity = messages;
    this.#track(done);
  }
}
