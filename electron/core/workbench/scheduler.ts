import type { ChatSnooze } from '../../../shared/contract/views.ts';
import { createLogger } from '../log/logger.ts';
import type { SendInput } from '../outbox/outbox.ts';
import type { SendRequest } from '../outbox/send-door.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { ScheduledKind, ScheduledSendRow } from '../store/scheduled-sends-repo.ts';

const log = createLogger('scheduler');
/** Timers longer than this are re-armed (setTimeout overflows past ~24.8 days; clocks drift). */
const MAX_TIMER_MS = 60 * 60_000;

export interface SchedulerHooks {
  /** A snoozed conversation came back (its time came, or the customer replied). */
  snoozeWoke?(snooze: ChatSnooze): void;
  /** Messages that fell due while Parley was not running now wait for the agent. */
  overdueWaiting?(chatIds: number[]): void;
}

/** What the scheduler needs to release a message: the outbox's door, the one way a message leaves. */
export interface SendsMessages {
  send(request: SendRequest): string;
}

/**
 * Send later, undo send and snooze, on timers re-armed from the store. A waiting message joins the
 * outbox in ONE transaction with leaving `scheduled_sends`, so it is either still waiting or queued
 * (with its idempotency key), never both: a crash at any point sends it once or not at all. It goes
 * through the outbox's door like any send, so the rules are checked again as it leaves (the customer
 * may have opted out while it waited): a refused release stays waiting, for the agent.
 * The composer's draft is not the scheduler's: the handler that took the message cleared it.
 * Messages that fell due while Parley was not running are not sent late on their own: at start they
 * are marked to wait for the agent's confirmation.
 */
export class WorkbenchScheduler {
  readonly #store: LocalStore;
  readonly #door: SendsMessages;
  readonly #hooks: SchedulerHooks;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #wokeListeners = new Set<(snooze: ChatSnooze) => void>();
  #unsubscribe: (() => void) | undefined;
  #started = false;

  constructor(store: LocalStore, door: SendsMessages, hooks: SchedulerHooks = {}, now = Date.now) {
    this.#store = store;
    this.#door = door;
    this.#hooks = hooks;
    this.#now = now;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const overdue = this.#store.transaction(() => this.#store.scheduled.waitOverdue(this.#now()));
    if (overdue.length > 0) {
      log.info('messages due while Parley was closed wait for confirmation', { count: overdue.length });
      this.#hooks.overdueWaiting?.(overdue);
    }
    this.#unsubscribe = this.#store.events.on(
      'messages.changed',
      ({ chatId, keys }) => this.#wakeOnReply(chatId, keys),
      { rows: false },
    );
    this.#tick();
  }

  stop(): void {
    this.#started = false;
    clearTimeout(this.#timer);
    this.#unsubscribe?.();
  }

  /** Listens for snoozed conversations coming back (the app core notifies the agent). */
  onSnoozeWoke(listener: (snooze: ChatSnooze) => void): () => void {
    this.#wokeListeners.add(listener);
    return () => this.#wokeListeners.delete(listener);
  }

  #announceWoke(snooze: ChatSnooze): void {
    this.#hooks.snoozeWoke?.(snooze);
    for (const listener of this.#wokeListeners) listener(snooze);
  }

  /** Keeps a message waiting until `dueAt` (a scheduled send, or the undo grace period). */
  schedule(input: SendInput & { kind: ScheduledKind; dueAt: number }): ScheduledSendRow {
    const row = this.#store.transaction(() => {
      const added = this.#store.scheduled.add({
        chatId: input.chatId,
        kind: input.kind,
        text: input.text,
        stagedIds: input.stagedIds ?? [],
        attachmentUrls: input.attachmentUrls ?? [],
        options: input.options ?? null,
        dueAt: input.dueAt,
      });
      return added;
    });
    this.#arm();
    return row;
  }

  /** Changes a waiting message's text, files or time; undefined when it has already gone out. */
  change(
    id: number,
    patch: { text?: string; stagedIds?: readonly string[]; dueAt?: number },
  ): ScheduledSendRow | undefined {
    const row = this.#store.transaction(() => this.#store.scheduled.update(id, patch));
    this.#arm();
    return row;
  }

  /**
   * Takes a waiting message back (cancel, undo): it will never be sent. Returns it, or undefined when
   * it already joined the outbox.
   */
  withdraw(id: number): ScheduledSendRow | undefined {
    return this.#store.transaction(() => {
      const row = this.#store.scheduled.get(id);
      if (!row || !this.#store.scheduled.remove(id)) return undefined;
      return row;
    });
  }

  /** Sends a waiting message now; returns its message key, or undefined when it is already gone. */
  sendNow(id: number): string | undefined {
    const key = this.#release(id);
    this.#arm();
    return key;
  }

  /** Re-reads when the next item is due (after a change made outside the scheduler, like a snooze). */
  rearm(): void {
    this.#arm();
  }

  /**
   * Moves one waiting message through the door into the outbox, atomically with removing it: refused
   * (SendRefused), it stays waiting.
   */
  #release(id: number): string | undefined {
    return this.#store.transaction(() => {
      const row = this.#store.scheduled.get(id);
      if (!row || !this.#store.scheduled.remove(id)) return undefined;
      const key = this.#door.send({
        origin: row.kind === 'grace' ? 'undo_release' : 'scheduled_release',
        chatId: row.chatId,
        text: row.text,
        stagedIds: row.stagedIds,
        attachmentUrls: row.attachmentUrls,
        ...(row.options ? { options: row.options } : {}),
      });
      return key;
    });
  }

  #tick(): void {
    if (!this.#started) return;
    const now = this.#now();
    for (const row of this.#store.scheduled.due(now)) {
      try {
        this.#release(row.id);
      } catch (error) {
        // It cannot go out as it is (the rules refuse it now, its chat or a file is gone, the disk is
        // full): the agent decides.
        log.warn('a scheduled message could not join the outbox', { id: row.id, error: String(error) });
        try {
          this.#store.transaction(() => this.#store.scheduled.requireConfirmation(row.id));
        } catch {
          // The store cannot write; the next tick tries again.
        }
      }
    }
    const woke = this.#store.transaction(() => this.#store.snoozes.wakeDue(now));
    for (const snooze of woke) this.#announceWoke(snooze);
    this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    if (!this.#started) return;
    const next = [this.#store.scheduled.nextDueAt(), this.#store.snoozes.nextWakeAt()].filter(
      (at): at is number => at !== null,
    );
    if (next.length === 0) return;
    const delay = Math.min(Math.max(0, Math.min(...next) - this.#now()), MAX_TIMER_MS);
    this.#timer = setTimeout(() => this.#tick(), delay);
    this.#timer.unref?.();
  }

  /** The customer wrote in a snoozed conversation: it comes back now. */
  #wakeOnReply(chatId: number, keys: readonly string[]): void {
    const snooze = this.#store.snoozes.get(chatId);
    if (!snooze || snooze.wokeAt !== null) return;
    const inbound = this.#store.messages
      .byKeys([...keys])
      .filter((m) => !m.fromMe && repliedAfter(m.sentAt, snooze.snoozedAt));
    if (inbound.length === 0) return;
    const woke = this.#store.transaction(() => this.#store.snoozes.wakeOnReply(chatId, this.#now()));
    if (woke) {
      this.#announceWoke(woke);
      this.#arm();
    }
  }
}

/**
 * Whether a customer's message was sent after the snooze, at the message's own precision: V2 gives
 * `sent_at` in whole seconds, so a reply in the second the agent snoozed reads as sent before the
 * snooze's milliseconds. A message in that second counts as after it (the agent cannot have read
 * it before snoozing); one from an earlier second does not.
 */
export function repliedAfter(sentAt: number, snoozedAt: number): boolean {
  if (sentAt > snoozedAt) return true;
  return sentAt % 1000 === 0 && sentAt >= snoozedAt - (snoozedAt % 1000);
}
