/**
 * What a desktop had seen of each chat's activity when its agent sent (the send-time check's
 * `seenSeq`): the desktop follows the team stream's `parley.team.activity.>` (the newest entry of
 * every chat first, then live) and notes when each entry was on the agent's screen: when it
 * reached the desktop and the message it names was in the desktop's store (its timeline). A send
 * carries the newest entry of its chat seen before the message was written (queued), so a
 * teammate's reply arriving while the agent typed, or while the desktop was offline with the
 * message waiting in its outbox, is not counted as seen: the relay holds the send.
 *
 * The store matters because the two travel apart: the relay records a reply as activity the moment
 * the service accepts it, while the message itself reaches teammates' timelines through the event
 * log a moment later. A send written in between had not seen the reply, though its activity had
 * arrived (seen as Sam's reply not held in the end-to-end test, once in four runs).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import { ORG_API } from '../relay/grants.ts';
import { keepFollowing } from '../relay/keep-following.ts';
import { TEAM_STREAM } from '../relay/team-subjects.ts';
import { lastSeq } from './stream-read.ts';
import { ChatActivityEntry, decode } from './wire.ts';

const log = createLogger('team-seen');

const ACTIVITY_SUBJECTS = 'parley.team.activity.>';
/** Per chat, the entries kept (a send looks back only to when it was written). */
const KEPT_PER_CHAT = 50;

interface Arrival {
  seq: number;
  /** The message it names, while it is not on this desktop yet. */
  awaited?: number | undefined;
  /** When the agent could see it (ms, this machine's clock; the server's for what predates the follow). */
  at?: number | undefined;
}

export interface SeenActivityOptions {
  /** This desktop's agent: its own replies are seen by definition. */
  agentId: string;
  /** Whether a message (by the id desktops and the relay share) is in the desktop's store. */
  isShown: (chatId: number, messageId: number) => boolean;
  now?: () => number;
}

export class SeenActivity {
  readonly #byChat = new Map<number, Arrival[]>();
  readonly #startSeq: number;
  readonly #options: SeenActivityOptions;
  readonly #now: () => number;
  #follow: { stop(): Promise<void> } | undefined;

  static async start(nc: NatsConnection, options: SeenActivityOptions): Promise<SeenActivity> {
    const seen = new SeenActivity(await lastSeq(nc, TEAM_STREAM, ORG_API), options);
    seen.#follow = await keepFollowing(nc, {
      agentId: options.agentId,
      slot: 'activity',
      // Followed anew, the last of each chat comes again: what is known already is not told twice.
      onMessage: (message) =>
        seen.#arrived(message.subject, message.seq, message.time.getTime(), message.data),
      log,
    });
    return seen;
  }

  private constructor(startSeq: number, options: SeenActivityOptions) {
    this.#startSeq = startSeq;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The newest activity of `chatId` the agent could see at `writtenAt`, with everything before it
   * seen too: the one before the first it could not (every later one is unseen). For a chat with
   * no activity since the follow began, the stream's end then.
   */
  seenSeqAt(chatId: number, writtenAt: number): number {
    const arrivals = this.#byChat.get(chatId);
    if (!arrivals || arrivals.length === 0) return this.#startSeq;
    const unseen = arrivals.find((arrival) => arrival.at === undefined || arrival.at > writtenAt);
    return unseen ? unseen.seq - 1 : arrivals.at(-1)!.seq;
  }

  /** The newest activity of a chat this desktop has (0: none). */
  latest(chatId: number): number {
    return this.#byChat.get(chatId)?.at(-1)?.seq ?? 0;
  }

  /** The desktop's store has new messages in a chat: activity waiting for them is seen now. */
  messagesArrived(chatId: number): void {
    for (const arrival of this.#byChat.get(chatId) ?? [])
      if (arrival.awaited !== undefined && this.#options.isShown(chatId, arrival.awaited)) {
        arrival.awaited = undefined;
        arrival.at = this.#now();
      }
  }

  async stop(): Promise<void> {
    await this.#follow?.stop();
  }

  #arrived(subject: string, seq: number, storedAt: number, data: Uint8Array): void {
    const chatId = Number(subject.slice(ACTIVITY_SUBJECTS.length - 1));
    if (!Number.isSafeInteger(chatId) || chatId <= 0) return;
    const arrivals = this.#byChat.get(chatId) ?? [];
    if (seq <= (arrivals.at(-1)?.seq ?? 0)) return; // known already (a follow made anew)
    const awaited = seq <= this.#startSeq ? undefined : this.#awaitedMessage(chatId, data);
    arrivals.push(
      awaited === undefined ? { seq, at: seq <= this.#startSeq ? storedAt : this.#now() } : { seq, awaited },
    );
    if (arrivals.length > KEPT_PER_CHAT) arrivals.shift();
    this.#byChat.set(chatId, arrivals);
  }

  /**
   * The message an entry names, when it is not in the store yet. None to wait for: the agent's own
   * reply, a message already there, or one named by an id the store does not use (an entry from an
   * older relay: seen on arrival, as before).
   */
  #awaitedMessage(chatId: number, data: Uint8Array): number | undefined {
    const parsed = decode(ChatActivityEntry, data);
    if (!parsed.ok || parsed.value.agentId === this.#options.agentId) return undefined;
    const messageId = Number(parsed.value.messageId);
    if (!Number.isSafeInteger(messageId) || messageId <= 0) return undefined;
    return this.#options.isShown(chatId, messageId) ? undefined : messageId;
  }
}
