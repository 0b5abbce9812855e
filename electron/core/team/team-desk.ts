/**
 * The team layer of a desktop joined to its team's relay, for the bridge's `team.*` methods: it
 * starts and stops with the joined session (presence heartbeats while open, deleted on quit), turns
 * the team's watches into `team.changed` and mentions of this agent into `team.mention`, and puts
 * the send-time check's `seenSeq` on each send (seen-activity.ts). Held sends are answered here:
 * "Send anyway" sends once under a key derived from the hold, "Discard" drops the message. The
 * watches it starts, one by one, are in desk-watches.ts.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type {
  TeamAssignment,
  TeamChanged,
  TeamChatActivity,
  TeamMentionNotice,
  TeamNote as TeamNoteView,
  TeamState,
} from '../../../shared/contract/team-views.ts';
import { createLogger } from '../log/logger.ts';
import type { ServiceSession } from '../session.ts';
import { within } from '../util.ts';
import type { RelayMessaging, TeamSendPlan } from '../relay/relay-messaging.ts';
import type { AssignRequest } from './assignment-rules.ts';
import { assignmentView, noteView, repliesView } from './desk-views.ts';
import { answerHeld, TeamRefusal, unwrap } from './held-sends.ts';
import { startDeskWatches, type DeskParts } from './desk-watches.ts';
import type { PresencePublisher } from './presence.ts';
import { TeamClient } from './team-client.ts';
import { TeamPicture } from './team-picture.ts';
import { TeamSettings, type Assignment, type Availability } from './wire.ts';

const log = createLogger('team-desk');

/** How long a send waits for the team layer to be ready before it goes without the check. */
const READY_WAIT_MS = 5_000;
/** How long quitting waits for each part of the team layer to stop. */
const STOP_WAIT_MS = 2_000;

export interface TeamDeskOptions {
  /** The agent's connection, or how to get it once `connected` (a joined desktop opened offline). */
  nc: NatsConnection | (() => NatsConnection);
  /** The team layer starts when this resolves: the relay answered. */
  connected?: Promise<unknown>;
  agentId: string;
  session: Pick<ServiceSession, 'store' | 'outbox' | 'messaging'>;
  /** The relay's port (joined sessions): sends carry the check through it. */
  relayMessaging?: RelayMessaging;
  heartbeatMs?: number;
  idleAwayMs?: number;
  staleAfterMs?: number;
}

type Listener<T> = (payload: T) => void;

export class TeamDesk {
  #client: TeamClient | undefined;
  readonly #picture: TeamPicture;
  readonly #options: TeamDeskOptions;
  readonly #changed = new Set<Listener<TeamChanged>>();
  readonly #mentioned = new Set<Listener<TeamMentionNotice>>();
  readonly #stops: Array<() => Promise<void>> = [];
  #ready: Promise<void> | undefined;
  /** The watches' parts the desk asks of (desk-watches.ts), each set once it started. */
  readonly #parts: DeskParts = {};
  #chosen: Availability = 'available';
  /** What this desktop reported per chat (the service's typing indicator follows `typing` only). */
  readonly #activity = new Map<number, TeamChatActivity>();
  /** "Send anyway" plans by the held message's key, kept for the outbox's retries of that send. */
  readonly #anyway = new Map<string, TeamSendPlan>();
  #stopped = false;
  /** Whether the team layer began starting (the relay had answered). */
  #began = false;

  constructor(options: TeamDeskOptions) {
    this.#options = options;
    this.#picture = new TeamPicture(options.agentId, () => options.session.store.chats.ids());
    if (options.relayMessaging)
      options.relayMessaging.planSend = (chatId, key) => this.#planSend(chatId, key);
  }

  get agentId(): string {
    return this.#options.agentId;
  }

  /** The team's client on the agent's connection (before the relay first answered: its error). */
  get client(): TeamClient {
    this.#client ??= new TeamClient(this.#nc(), this.#options.agentId);
    return this.#client;
  }

  #nc(): NatsConnection {
    const { nc } = this.#options;
    return typeof nc === 'function' ? nc() : nc;
  }

  onChanged(listener: Listener<TeamChanged>): () => void {
    this.#changed.add(listener);
    return () => this.#changed.delete(listener);
  }

  onMention(listener: Listener<TeamMentionNotice>): () => void {
    this.#mentioned.add(listener);
    return () => this.#mentioned.delete(listener);
  }

  /** Starts every watch; a part that fails is logged and the rest runs (the relay may be older). */
  start(): Promise<void> {
    this.#ready ??= Promise.resolve(this.#options.connected).then(() => this.#start());
    return this.#ready;
  }

  /** Quitting or switching: presence goes at once (teammates do not wait for staleness). */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    // A team layer still waiting for its relay to answer has nothing to stop.
    if (this.#began) await within(this.#ready ?? Promise.resolve(), READY_WAIT_MS);
    // Each part gets a moment to say goodbye, no more: on a connection the relay closed (the agent was
    // removed), a watcher's close or a presence delete may never answer, and quitting must not wait.
    for (const stop of this.#stops.reverse())
      await within(
        stop().catch(() => undefined),
        STOP_WAIT_MS,
      );
    for (const [chatId, activity] of this.#activity)
      if (activity === 'typing') await within(this.#customerTyping(chatId, false), STOP_WAIT_MS);
  }

  /** The newest activity of a chat this desktop has seen arrive (0: none yet). */
  latestActivity(chatId: number): number {
    return this.#parts.seen?.latest(chatId) ?? 0;
  }

  async state(): Promise<TeamState> {
    await this.#whenReady();
    return this.#picture.state(this.#chosen);
  }

  async setAvailability(availability: Availability): Promise<void> {
    this.#chosen = availability;
    await (await this.#presenceOut()).setAvailability(availability);
  }

  /** The renderer's report: input, and what the agent does in which chat (one chat at a time). */
  async activity(chatId: number | undefined, activity: TeamChatActivity | null | undefined): Promise<void> {
    const publisher = await this.#presenceOut();
    await publisher.noteInput();
    if (chatId === undefined || activity === undefined) return;
    const leaving = [...this.#activity.keys()].filter((id) => id !== chatId && activity !== null);
    for (const other of leaving) await this.#setActivity(publisher, other, null);
    await this.#setActivity(publisher, chatId, activity);
  }

  /** The composer's own typing call (`chats.typing`): on a team, only while the agent writes a reply. */
  async composerTyping(chatId: number, typing: boolean): Promise<void> {
    if (typing && this.#activity.get(chatId) !== 'typing') return;
    await this.#customerTyping(chatId, typing);
  }

  async assign(chatId: number, to: string | null, note: string | undefined): Promise<TeamAssignment> {
    const owner = this.#picture.ownerOf(chatId);
    const request: AssignRequest =
      to === null
        ? { action: 'unassign', chatId }
        : to === this.agentId
          ? { action: 'claim', chatId }
          : note && owner === this.agentId
            ? { action: 'hand_off', chatId, to, note }
            : { action: 'assign', chatId, to };
    return this.#assignment(request);
  }

  takeOver(chatId: number): Promise<TeamAssignment> {
    return this.#assignment({ action: 'take_over', chatId });
  }

  setDone(chatId: number, done: boolean): Promise<TeamAssignment> {
    return this.#assignment({ action: done ? 'close' : 'reopen', chatId });
  }

  async listNotes(chatId: number): Promise<TeamNoteView[]> {
    const notes = await this.client.readNotes(chatId);
    return notes.map(({ seq, note }) => noteView(seq, note, this.agentId));
  }

  async addNote(chatId: number, text: string): Promise<TeamNoteView> {
    const reply = unwrap(await this.client.writeNote(chatId, text));
    const mentions = Array.isArray(reply.mentions) ? (reply.mentions as string[]) : [];
    const note = {
      chatId,
      author: this.agentId,
      authorName: this.#picture.nameOf(this.agentId),
      text,
      mentions,
      at: Date.now(),
    };
    return noteView(Number(reply.seq), note, this.agentId);
  }

  async listReplies() {
    await this.#whenReady();
    return repliesView(this.#parts.replies?.entries ?? new Map(), this.#picture.nameOf);
  }

  async saveReply(reply: { id?: string | undefined; title: string; body: string }) {
    const saved = unwrap(
      await this.client.saveTeamReply({
        ...(reply.id ? { id: reply.id } : {}),
        title: reply.title,
        body: reply.body,
      }),
    );
    const id = String(saved.id);
    return {
      id,
      title: reply.title,
      body: reply.body,
      updatedBy: this.agentId,
      updatedByName: this.#picture.nameOf(this.agentId),
      updatedAt: Date.now(),
    };
  }

  async removeReply(id: string): Promise<void> {
    unwrap(await this.client.deleteTeamReply(id));
  }

  async updateSettings(change: Partial<TeamSettings>): Promise<TeamSettings> {
    const reply = unwrap(await this.client.updateSettings(change));
    const parsed = TeamSettings.safeParse(reply.settings);
    return parsed.success ? parsed.data : this.#picture.settings;
  }

  answerHeld(key: string, answer: 'sendAnyway' | 'discard'): Promise<void> {
    return answerHeld({
      key,
      answer,
      session: this.#options.session,
      relayMessaging: this.#options.relayMessaging,
      plans: this.#anyway,
    });
  }

  async #start(): Promise<void> {
    if (this.#stopped) return;
    this.#began = true;
    const { agentId, session, heartbeatMs, idleAwayMs, staleAfterMs } = this.#options;
    await startDeskWatches({
      nc: this.#nc(),
      client: this.client,
      agentId,
      session,
      picture: this.#picture,
      heartbeatMs,
      idleAwayMs,
      staleAfterMs,
      stopped: () => this.#stopped,
      parts: this.#parts,
      stops: this.#stops,
      emit: (change) => this.#emit(change),
      mention: (notice) => {
        for (const listener of this.#mentioned) listener(notice);
      },
    });
  }

  async #whenReady(): Promise<void> {
    await within(this.start(), READY_WAIT_MS);
  }

  async #presenceOut(): Promise<PresencePublisher> {
    await this.#whenReady();
    const publisher = this.#parts.publisher;
    if (!publisher)
      throw new TeamRefusal(
        'team_unavailable',
        "Your team's relay does not answer just now: try again",
        true,
      );
    return publisher;
  }

  async #setActivity(
    publisher: PresencePublisher,
    chatId: number,
    activity: TeamChatActivity | null,
  ): Promise<void> {
    const before = this.#activity.get(chatId);
    if (activity === null) this.#activity.delete(chatId);
    else this.#activity.set(chatId, activity);
    await publisher.setChatActivity(chatId, activity);
    // Only a reply being written shows on the customer's phone; a team note never does.
    if ((before === 'typing') !== (activity === 'typing'))
      await this.#customerTyping(chatId, activity === 'typing');
  }

  async #customerTyping(chatId: number, typing: boolean): Promise<void> {
    await this.#options.session.messaging
      .typing(chatId, typing, {})
      .catch((error: unknown) => log.info('typing indicator not sent', { error: String(error) }));
  }

  async #assignment(request: AssignRequest): Promise<TeamAssignment> {
    const reply = unwrap(await this.client.assign(request));
    return assignmentView(reply.assignment as Assignment, this.#picture.nameOf);
  }

  async #planSend(chatId: number, key: string): Promise<TeamSendPlan> {
    const anyway = this.#anyway.get(key);
    if (anyway) return anyway;
    await this.#whenReady();
    const seen = this.#parts.seen;
    if (!seen) return {};
    const written = this.#options.session.store.messages.get(key)?.sentAt ?? Date.now();
    return { seenSeq: seen.seenSeqAt(chatId, written) };
  }

  #emit(change: TeamChanged): void {
    if (Object.keys(change).length === 0 || this.#stopped) return;
    for (const listener of this.#changed) listener(change);
  }
}
