/**
 * What a desktop had seen of each chat's activity when its agent sent (the send-time check's
 * `seenSeq`): the desktop follows the team stream's `parley.team.activity.>` (the newest entry of
 * every chat first, then live) and notes when each entry reached it. A send carries the newest
 * entry of its chat that had reached the desktop before the message was written (queued), so a
 * teammate's reply arriving while the agent typed, or while the desktop was offline with the
 * message waiting in its outbox, is not counted as seen: the relay holds the send.
 */
import { DeliverPolicy } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';
import { TEAM_STREAM } from '../relay/team-subjects.ts';
import { follow, lastSeq } from './stream-read.ts';

const log = createLogger('team-seen');

const ACTIVITY_SUBJECTS = 'parley.team.activity.>';
/** Per chat, the entries kept (a send looks back only to when it was written). */
const KEPT_PER_CHAT = 50;

interface Arrival {
  seq: number;
  /** When this desktop had it (ms, this machine's clock; the server's for what predates the follow). */
  at: number;
}

export class SeenActivity {
  readonly #byChat = new Map<number, Arrival[]>();
  readonly #startSeq: number;
  readonly #now: () => number;
  #follow: { stop(): Promise<void> } | undefined;

  static async start(nc: NatsConnection, now: () => number = Date.now): Promise<SeenActivity> {
    const seen = new SeenActivity(await lastSeq(nc, TEAM_STREAM), now);
    seen.#follow = await follow(
      nc,
      TEAM_STREAM,
      { filter_subjects: ACTIVITY_SUBJECTS, deliver_policy: DeliverPolicy.LastPerSubject },
      (message) => seen.#arrived(message.subject, message.seq, message.at),
      log,
    );
    return seen;
  }

  private constructor(startSeq: number, now: () => number) {
    this.#startSeq = startSeq;
    this.#now = now;
  }

  /**
   * The newest activity of `chatId` that had reached this desktop at `writtenAt`. With none, the
   * one before the oldest it knows (every later one is unseen), or, for a chat with no activity
   * since the follow began, the stream's end then.
   */
  seenSeqAt(chatId: number, writtenAt: number): number {
    const arrivals = this.#byChat.get(chatId);
    if (!arrivals || arrivals.length === 0) return this.#startSeq;
    const seen = arrivals.filter((arrival) => arrival.at <= writtenAt).at(-1);
    return seen ? seen.seq : arrivals[0]!.seq - 1;
  }

  /** The newest activity of a chat this desktop has (0: none). */
  latest(chatId: number): number {
    return this.#byChat.get(chatId)?.at(-1)?.seq ?? 0;
  }

  async stop(): Promise<void> {
    await this.#follow?.stop();
  }

  #arrived(subject: string, seq: number, storedAt: number): void {
    const chatId = Number(subject.slice(ACTIVITY_SUBJECTS.length - 1));
    if (!Number.isSafeInteger(chatId) || chatId <= 0) return;
    const arrivals = this.#byChat.get(chatId) ?? [];
    arrivals.push({ seq, at: seq <= this.#startSeq ? storedAt : this.#now() });
    if (arrivals.length > KEPT_PER_CHAT) arrivals.shift();
    this.#byChat.set(chatId, arrivals);
  }
}
