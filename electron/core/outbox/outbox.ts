import type { MessageError } from '../../../shared/domain.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../api/retry-policy.ts';
import { createLogger, drop } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { OutboxRow } from '../store/outbox-repo.ts';
import { isStorageError } from '../store/storage-errors.ts';
import type { MessagingService, ReactionChoice } from '../sync/messaging.ts';
import type { Reconciler } from '../sync/reconciler.ts';
import { queueCreateChat, type NewChatInput } from './jobs/create-chat.ts';
import { queueDelete } from './jobs/delete.ts';
import { queueEdit } from './jobs/edit.ts';
import { parseJob } from './jobs/index.ts';
import type { JobContext, OutboxHooks } from './jobs/job-type.ts';
import { queueReaction } from './jobs/react.ts';
import { queueSendMessage, type SendInput } from './jobs/send-message.ts';
import { sendAgain } from './send-again.ts';
import { admitSend } from './send-door.ts';
import { refuseEmpty } from './send-rules.ts';
import { AttachmentRejected, type Staging } from './staging.ts';

export type { NewChatInput } from './jobs/create-chat.ts';
export type { OutboxHooks } from './jobs/job-type.ts';
export type { SendInput } from './jobs/send-message.ts';
export { NotSendableAgain } from './send-rules.ts';

const log = createLogger('outbox');
const WATCHDOG_MS = 2_000;

/**
 * Exactly-once sends. Each send is written as a job together with its optimistic message and an
 * idempotency key, in one transaction, before the first attempt. Jobs of a chat run in order;
 * retries (also after a crash or restart) reuse the key, so the service never sends twice; the
 * service's message replaces the optimistic one, matched by that key. Permanent failures keep the
 * message with its reason until the user retries or discards it.
 *
 * This is the engine: it queues, schedules, retries and records. What each kind of job is lives in
 * jobs/ (one file per kind); the rules a message must pass to leave are checked before it gets
 * here, at the door (send-door.ts), by every way a message leaves.
 */
export class Outbox {
  readonly #context: JobContext;
  readonly #store: LocalStore;
  readonly #staging: Staging;
  readonly #running = new Set<number>();
  /**
   * Jobs whose run ended in a failed store write (disk full, read-only folder): their rows may still
   * say `running`, so they are queued again once the store can write.
   */
  readonly #interrupted = new Set<number>();
  #recovered = false;
  readonly #abort = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #started = false;

  constructor(
    store: LocalStore,
    api: MessagingService,
    reconciler: Reconciler,
    staging: Staging,
    hooks: OutboxHooks = {},
  ) {
    this.#context = { store, api, reconciler, staging, hooks };
    this.#store = store;
    this.#staging = staging;
  }

  /** Picks up jobs left by an earlier run (a crash leaves them `running`: they are queued again). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    try {
      this.#recover();
    } catch (error) {
      // The store cannot write yet (e.g. the disk is full): the pump tries again.
      log.warn('outbox could not pick up interrupted jobs yet', { error: String(error) });
    }
    this.#kick();
  }

  /** Stops starting jobs; resolves when those in flight have ended (they stay persisted either way). */
  async stop(timeoutMs = 5_000): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    const deadline = Date.now() + timeoutMs;
    while (this.#running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    this.#abort.abort(new Error('outbox stopped'));
  }

  get idle(): boolean {
    return (
      this.#running.size === 0 &&
      this.#interrupted.size === 0 &&
      this.#store.outbox.ready(Number.MAX_SAFE_INTEGER, 1).length === 0
    );
  }

  /**
   * Queues a message the door has checked; returns the optimistic message's key (the client key).
   * Sending the same client key again is a repeat of that send: the existing key, nothing queued.
   * The composer's draft is the caller's: the handler that took it clears it.
   */
  send(input: SendInput): string {
    const key = queueSendMessage(this.#context, input);
    this.#kick();
    return key;
  }

  /**
   * Starts a conversation. When the chat exists locally the message goes to it; otherwise a
   * provisional chat (negative id) holds the optimistic message until the service answers.
   */
  startChat(input: NewChatInput): { chatId: number; messageKey: string } {
    const line = this.#store.lines.get(input.lineId);
    if (!line) throw new Error(`line ${input.lineId} is not known`);
    const recipients = [...new Set(input.recipients)];
    if (recipients.length === 0) throw new Error('a new chat needs at least one recipient');
    refuseEmpty(input.text, (input.stagedIds?.length ?? 0) + (input.attachmentUrls?.length ?? 0));
    const existing = this.#store.chats.findByParticipants(line.id, recipients);
    if (existing !== undefined && existing > 0) {
      // A conversation that exists already: the message is a send to it, through the door like any.
      const request = { ...input, origin: 'new_chat' as const, chatId: existing };
      return { chatId: existing, messageKey: this.send(admitSend(this.#store, this.#staging, request)) };
    }
    const started = queueCreateChat(this.#context, line, recipients, input);
    this.#kick();
    return started;
  }

  react(messageId: number, reaction: ReactionChoice, operation: 'add' | 'remove'): void {
    queueReaction(this.#context, messageId, reaction, operation);
    this.#kick();
  }

  edit(messageKey: string, text: string): void {
    queueEdit(this.#context, messageKey, text);
    this.#kick();
  }

  delete(messageKey: string): void {
    if (this.#store.messages.get(messageKey)?.id === null) return this.discard(messageKey);
    queueDelete(this.#context, messageKey);
    this.#kick();
  }

  /** Send again (send-again.ts): through the door's rules, refused with NotSendableAgain. */
  retry(messageKey: string): void {
    if (sendAgain(this.#context, messageKey)) this.#kick();
  }

  /** Gives up a failed or queued send: the optimistic message and its staged files go. */
  discard(messageKey: string): void {
    const job = this.#store.outbox.byMessageKey(messageKey);
    if (job && this.#running.has(job.id)) throw new Error('the message is being sent right now');
    const message = this.#store.messages.get(messageKey);
    const staged = job ? parseJob(job)?.payload : undefined;
    this.#store.transaction(() => {
      if (job) this.#store.outbox.complete(job.id);
      if (message && message.id === null) this.#store.messages.remove(message.chatId, [messageKey]);
      if (message && message.chatId < 0) this.#store.chats.remove([message.chatId]);
    });
    // Leftover files are harmless; a failure to remove them must not surface as an unhandled rejection.
    if (hasStagedFiles(staged)) drop(this.#staging.release(staged.stagedIds), log);
  }

  #kick(): void {
    if (!this.#started) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#pump(), 0);
  }

  #pump(): void {
    if (!this.#started) return;
    let wait: number | null;
    try {
      wait = this.#startDueJobs();
    } catch (error) {
      // Runs from a timer: nothing may escape. The store failed (the disk is full, the folder
      // read-only — the store reports that itself); every job is still persisted, so try again later.
      log.warn('outbox paused: the local store failed', { error: String(error) });
      wait = WATCHDOG_MS;
    }
    if (wait === null) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#pump(), wait);
    this.#timer.unref?.();
  }

  /** Starts the jobs that are due; returns when to look again (null: nothing left to do). */
  #startDueJobs(): number | null {
    if (!this.#recovered) this.#recover();
    for (const id of this.#interrupted) {
      this.#store.outbox.markWaiting(id, 0, null);
      this.#interrupted.delete(id);
    }
    for (const job of this.#store.outbox.ready(Date.now())) {
      if (this.#running.has(job.id)) continue;
      this.#store.outbox.markRunning(job.id);
      this.#running.add(job.id);
      void this.#run(job).finally(() => {
        this.#running.delete(job.id);
        this.#kick();
      });
    }
    // Always re-arm while work remains: a job waiting behind a running one, or one that fell due
    // while this pump ran, is picked up by the next pass (at least every WATCHDOG_MS).
    const next = this.#store.outbox.nextDueAt();
    if (next === null && this.#running.size === 0) return null;
    return next === null ? WATCHDOG_MS : Math.min(WATCHDOG_MS, Math.max(10, next - Date.now()));
  }

  /** Jobs a crash left `running` are queued again. */
  #recover(): void {
    const recovered = this.#store.outbox.recoverInterrupted();
    this.#recovered = true;
    if (recovered > 0) log.info('recovered interrupted jobs', { recovered });
  }

  /**
   * A store write of this job's run failed. Sends reuse their idempotency key, so running it again
   * later never sends twice, even if the service had accepted it before the write failed.
   */
  #interrupt(job: OutboxRow, error: unknown): void {
    this.#interrupted.add(job.id);
    log.warn('send interrupted by the local store; it will be retried', {
      job: job.id,
      kind: job.kind,
      error: String(error),
    });
  }

  /** Never rejects: it runs detached from a timer, and every way it can end is recorded. */
  async #run(job: OutboxRow): Promise<void> {
    try {
      const parsed = parseJob(job);
      if (!parsed) {
        this.#fail(job, {
          code: 'corrupt_job',
          message: 'This queued item could not be read',
          retryable: false,
        });
        return;
      }
      if (job.messageKey) this.#store.messages.setState(job.messageKey, 'sending');
      try {
        await parsed.type.run(this.#context, job, parsed.payload, {
          signal: this.#abort.signal,
          priority: 'user',
          // Every attempt of a job is the same change (a retry after a lost answer, or a restart).
          ...(job.idempotencyKey ? { changeKey: job.idempotencyKey } : {}),
        });
        this.#store.outbox.complete(job.id);
      } catch (error) {
        this.#handleFailure(job, error);
      }
    } catch (error) {
      this.#interrupt(job, error);
    }
  }

  #handleFailure(job: OutboxRow, error: unknown): void {
    // The local store failed, not the send: not the message's fault, so never a permanent failure.
    if (isStorageError(error)) return this.#interrupt(job, error);
    if (this.#abort.signal.aborted) {
      // Shutting down: the job stays queued for the next run.
      this.#store.outbox.markWaiting(job.id, 0, null);
      return;
    }
    const permanent =
      error instanceof AttachmentRejected ||
      (isPartnerApiError(error) ? !error.retryable : !(error instanceof TypeError));
    const reason: MessageError = {
      code: isPartnerApiError(error)
        ? error.code
        : error instanceof AttachmentRejected
          ? error.code
          : 'send_failed',
      message: error instanceof Error ? error.message : String(error),
      retryable: !permanent,
    };
    if (permanent) {
      this.#fail(job, reason);
      return;
    }
    // Transient (offline, 5xx, 429): keep trying, never give up on something the user sent.
    const retryAfterMs = isPartnerApiError(error) && error.retryAfter ? error.retryAfter * 1000 : 0;
    const attempt = job.attempts + 1; // the row was read before markRunning counted this attempt
    const delay = Math.max(retryAfterMs, backoffDelayMs(attempt, DEFAULT_BACKOFF));
    this.#store.transaction(() => {
      this.#store.outbox.markWaiting(job.id, Date.now() + delay, reason);
      if (job.messageKey) this.#store.messages.setState(job.messageKey, 'sending', reason);
    });
    log.warn('send will be retried', {
      job: job.id,
      kind: job.kind,
      attempt,
      delayMs: delay,
      code: reason.code,
    });
  }

  #fail(job: OutboxRow, reason: MessageError): void {
    if (job.messageKey && this.#store.messages.get(job.messageKey)?.id != null) {
      // A poll already found the service's copy of this send (matched to it): it was sent after all.
      this.#store.outbox.complete(job.id);
      log.warn('send answered with a failure, but the service has the message', {
        job: job.id,
        code: reason.code,
      });
      return;
    }
    const parsed = parseJob(job);
    this.#store.transaction(() => {
      this.#store.outbox.markFailed(job.id, reason);
      if (parsed) parsed.type.failed?.(this.#context, parsed.payload);
      if (job.messageKey) this.#store.messages.setState(job.messageKey, 'failed', reason);
    });
    log.warn('send failed', { job: job.id, kind: job.kind, code: reason.code });
  }
}

function hasStagedFiles(payload: unknown): payload is { stagedIds: string[] } {
  return typeof payload === 'object' && payload !== null && 'stagedIds' in payload;
}
