/**
 * Messages a V2 delivery dated to the second, waiting to be dated to the millisecond by a read of
 * their chat (ChatReader.settleTimes). Within one second, only the service's millisecond times give
 * its order: a burst delivered out of order, or a message delivered after a read of the chat dated
 * its neighbours, would otherwise stand in arrival order.
 *
 * A chat is read once its burst has passed (a second with no new delivery dated to the second), and
 * within a few seconds under a steady stream, so a hundred messages cost a read or two, not one each.
 */
import { forEachLimited } from '../util.ts';
import type { ChatReader } from './chat-reader.ts';

/** A chat is read this long after its last delivery dated to the second… */
const QUIET_MS = 1_000;
/** …or this long after its first, whichever comes first. */
const MOST_WAIT_MS = 4_000;

export class TimeSettling {
  readonly #chats = new Map<number, { first: number; last: number }>();

  /** A delivery dated a message of `chatId` to the second; true when the chat was not waiting yet. */
  note(chatId: number, now = Date.now()): boolean {
    const waiting = this.#chats.get(chatId);
    if (waiting) waiting.last = now;
    else this.#chats.set(chatId, { first: now, last: now });
    return waiting === undefined;
  }

  /** When the next read is due (Infinity: none). */
  get nextAt(): number {
    let next = Infinity;
    for (const { first, last } of this.#chats.values())
      next = Math.min(next, last + QUIET_MS, first + MOST_WAIT_MS);
    return next;
  }

  isDue(now: number): boolean {
    return this.nextAt <= now;
  }

  /** Reads every chat due by `now`, `concurrency` at a time; a chat whose read failed waits again. */
  async settleDue(now: number, chats: ChatReader, concurrency: number): Promise<void> {
    const due = [...this.#chats]
      .filter(([, { first, last }]) => Math.min(last + QUIET_MS, first + MOST_WAIT_MS) <= now)
      .map(([chatId]) => chatId);
    for (const chatId of due) this.#chats.delete(chatId);
    await forEachLimited(due, concurrency, async (chatId) => {
      try {
        await chats.settleTimes(chatId);
      } catch (error) {
        this.note(chatId);
        throw error;
      }
    });
  }
}
