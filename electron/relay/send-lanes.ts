/**
 * The relay makes the team's changes side by side, one lane per conversation (or line, or contact):
 * a service call that takes its time in one agent's conversation must not hold up every other
 * agent's sends, as one queue for the whole team did. Within a lane they stay one at a time, in the
 * order they came off the stream: the send-time check (send-check.ts) sees the reply before it as
 * sent, and one desktop's changes to one conversation reach the service in the order it made them.
 */
import type { ParsedChange } from '../core/relay-host.ts';

/** How many changes the relay makes at once, across lanes (the sends consumer lets 64 wait). */
export const CHANGES_AT_ONCE = 16;

/** The lane a change waits in: what it changes, so two changes to one thing never overlap. */
export function laneOf(change: ParsedChange | undefined): string {
  if (!change) return 'unreadable';
  switch (change.kind) {
    case 'send':
    case 'edit':
    case 'delete':
    case 'markRead':
    case 'typing':
    case 'shareContact':
      return `chat:${change.chatId}`;
    case 'react':
      return `message:${change.messageId}`;
    case 'createChat':
      return `line:${change.lineNumber}`;
    case 'setForwarding':
      return `line-id:${change.lineId}`;
    case 'createContact':
      return 'contacts';
    case 'updateContact':
    case 'deleteContact':
      return `contact:${change.contactId}`;
  }
}

export class SendLanes {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #limit: number;
  #running = 0;
  #freed: Array<() => void> = [];

  constructor(limit = CHANGES_AT_ONCE) {
    this.#limit = limit;
  }

  /** Resolves once fewer than the limit are in flight: the caller takes the next message then. */
  async room(): Promise<void> {
    while (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#freed.push(resolve));
  }

  /** Runs `work` after everything before it in `lane`; never rejects (work handles its own errors). */
  run(lane: string, work: () => Promise<void>): void {
    this.#running += 1;
    const before = this.#tails.get(lane) ?? Promise.resolve();
    const tail = before.then(work).catch(() => undefined);
    this.#tails.set(lane, tail);
    void tail.then(() => {
      if (this.#tails.get(lane) === tail) this.#tails.delete(lane);
      this.#running -= 1;
      this.#freed.shift()?.();
    });
  }

  /** Resolves when every change started has finished. */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }
}
