import { randomUUID } from 'node:crypto';
import { deliveryFailureInfo } from '../../../shared/delivery-failures.ts';
import type { Message, MessageError } from '../../../shared/domain.ts';
import { stagedAttachmentId, stagedResource } from '../../../shared/contract/staged.ts';
import { EMPTY_MESSAGE, isSendable } from '../../../shared/message-rules.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../api/retry-policy.ts';
import { createLogger, drop } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { OutboxRow } from '../store/outbox-repo.ts';
import { isStorageError } from '../store/storage-errors.ts';
import type { MessagingService, ReactionChoice } from '../sync/messaging.ts';
import type { Reconciler } from '../sync/reconciler.ts';
import { assertNever } from '../util.ts';
import { JOB_SCHEMAS, sendOptions, type JobKind, type JobPayload, type SendOptions } from './jobs.ts';
import { AttachmentRejected, type Staging } from './staging.ts';

const log = createLogger('outbox');
const WATCHDOG_MS = 2_000;

export interface SendInput {
  chatId: number;
  text: string;
  stagedIds?: string[];
  attachmentUrls?: string[];
  /**
   * The message's one identity, minted by whoever shows it first (the renderer's echo): its key here,
   * the job's and the service's idempotency key. Minted here when absent.
   */
  clientKey?: string;
  /** V3 send options, kept with the job for the client call. */
  options?: SendOptions;
}

/** A client key already names another message: sending under it would merge two messages. */
export class ClientKeyInUse extends Error {
  constructor() {
    super('This message key is already used by a different message');
    this.name = 'ClientKeyInUse';
  }
}

/** A failed message that sending again cannot help (an opt-out, a lasting refusal), or cannot carry. */
export class NotSendableAgain extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotSendableAgain';
  }
}

export interface NewChatInput {
  lineId: number;
  recipients: string[];
  displayName?: string | null;
  text: string;
  stagedIds?: string[];
  attachmentUrls?: string[];
}

export interface OutboxHooks {
  /** A send was accepted: the sync engine watches its delivery status. */
  accepted?(messageKey: string): void;
  /** A new chat replaced its provisional id. */
  chatCreated?(provisionalChatId: number, chatId: number): void;
}

/**
 * Exactly-once sends. Each send is written as a job together with its optimistic message and an
 * idempotency key, in one transaction, before the first attempt. Jobs of a chat run in order;
 * retries (also after a crash or restart) reuse the key, so the service never sends twice; the
 * service's message replaces the optimistic one, matched by that key. Permanent failures keep the
 * message with its reason until the user retries or discards it.
 */
export class Outbox {
  readonly #store: LocalStore;
  readonly #api: MessagingService;
  readonly #reconciler: Reconciler;
  readonly #staging: Staging;
  readonly #hooks: OutboxHooks;
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
    this.#store = store;
    this.#api = api;
    this.#reconciler = reconciler;
    this.#staging = staging;
    this.#hooks = hooks;
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
   * Queues a message; returns the optimistic message's key (the client key). Sending the same client
   * key again is a repeat of that send: it returns the existing message's key and queues nothing.
   */
  send(input: SendInput): string {
    const line = this.#lineOfChat(input.chatId);
    const key = input.clientKey ?? newKey();
    const stagedIds = input.stagedIds ?? [];
    const payload: JobPayload<'send_message'> = {
      chatId: input.chatId,
      text: input.text,
      stagedIds,
      attachmentUrls: input.attachmentUrls ?? [],
      ...(input.options ? { options: input.options } : {}),
    };
    this.#validateContent(payload.text, stagedIds, payload.attachmentUrls);
    const queued = this.#store.transaction(() => {
      const used = this.#store.messages.byIdempotencyKey(key);
      if (used) {
        if (!this.#isRepeat(used, payload)) throw new ClientKeyInUse();
        return used.key;
      }
      this.#store.messages.insertLocal({
        key,
        chatId: input.chatId,
        text: input.text,
        sentAt: Date.now(),
        sender: line,
        idempotencyKey: key,
        attachments: this.#stagedAttachments(stagedIds),
        replyTo: input.options?.replyTo ?? null,
        effect: input.options?.effect ?? null,
      });
      this.#store.outbox.enqueue({
        kind: 'send_message',
        queue: `chat:${input.chatId}`,
        payload,
        idempotencyKey: key,
        messageKey: key,
      });
      this.#store.drafts.set(input.chatId, '', []);
      return key;
    });
    this.#kick();
    return queued;
  }

  /** Whether a send under a used client key is the same message again (a retried call), not another. */
  #isRepeat(
    used: { key: string; chatId: number; text: string },
    payload: JobPayload<'send_message'>,
  ): boolean {
    if (used.chatId !== payload.chatId || used.text !== payload.text) return false;
    const job = this.#store.outbox.byMessageKey(used.key);
    const queued = job?.kind === 'send_message' ? this.#parse(job)?.payload : undefined;
    if (!queued || !('stagedIds' in queued)) return true;
    return (
      sameList(queued.stagedIds, payload.stagedIds) && sameList(queued.attachmentUrls, payload.attachmentUrls)
    );
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
    const existing = this.#store.chats.findByParticipants(line.id, recipients);
    if (existing !== undefined && existing > 0) {
      return { chatId: existing, messageKey: this.send({ ...input, chatId: existing }) };
    }
    const key = newKey();
    const stagedIds = input.stagedIds ?? [];
    this.#validateContent(input.text, stagedIds, input.attachmentUrls ?? []);
    // Negative, so it never meets a service id; small enough that its handles' ids (×100) stay safe integers.
    const provisionalChatId = -(Math.floor(Date.now() / 1000) * 1000 + Math.floor(Math.random() * 1000));
    const payload: JobPayload<'create_chat'> = {
      provisionalChatId,
      lineNumber: line.phoneNumber,
      recipients,
      displayName: input.displayName?.trim() || null,
      text: input.text,
      stagedIds,
      attachmentUrls: input.attachmentUrls ?? [],
    };
    this.#store.transaction(() => {
      this.#store.chats.upsert([
        {
          id: provisionalChatId,
          lineId: line.id,
          displayName: payload.displayName ?? recipients.join(', '),
          isGroup: recipients.length > 1,
          messageCount: 1,
          handles: [line.phoneNumber, ...recipients].map((identifier, i) => ({
            id: provisionalChatId * 100 - i,
            identifier,
            service: 'SMS',
            joinedAt: Date.now(),
            isMe: i === 0,
          })),
        },
      ]);
      this.#store.messages.insertLocal({
        key,
        chatId: provisionalChatId,
        text: input.text,
        sentAt: Date.now(),
        sender: line.phoneNumber,
        idempotencyKey: key,
        attachments: this.#stagedAttachments(stagedIds),
      });
      this.#store.outbox.enqueue({
        kind: 'create_chat',
        queue: `new:${line.id}:${[...recipients].sort().join(',')}`,
        payload,
        idempotencyKey: key,
        messageKey: key,
      });
    });
    this.#kick();
    return { chatId: provisionalChatId, messageKey: key };
  }

  react(messageId: number, reaction: ReactionChoice, operation: 'add' | 'remove'): void {
    const message = this.#store.messages.byId(messageId);
    if (!message) throw new Error(`message ${messageId} is not known`);
    const { kind } = reaction;
    const customEmoji = reaction.kind === 'custom' ? reaction.customEmoji : null;
    this.#store.transaction(() => {
      // Shown at once; the job makes it true on the service.
      if (operation === 'add') {
        const id = -Date.now();
        this.#store.messages.addReaction({
          id,
          messageId,
          kind,
          fromMe: true,
          sender: '',
          at: Date.now(),
          ...(customEmoji === null ? {} : { partIndex: 0, customEmoji }),
        });
      } else {
        this.#store.messages.removeReaction(messageId, kind, true, null, customEmoji);
      }
      this.#store.outbox.enqueue({
        kind: 'react',
        queue: `chat:${message.chatId}`,
        payload: { messageId, kind, ...(customEmoji === null ? {} : { customEmoji }), operation },
      });
    });
    this.#kick();
  }

  edit(messageKey: string, text: string): void {
    const message = this.#store.messages.get(messageKey);
    if (!message?.fromMe || message.id === null) throw new Error('only sent messages of yours can be edited');
    if (text.trim() === '') throw new Error('an edit cannot be empty');
    this.#store.transaction(() => {
      this.#store.messages.editText(messageKey, text, Date.now());
      this.#store.outbox.enqueue({
        kind: 'edit',
        queue: `chat:${message.chatId}`,
        payload: { chatId: message.chatId, messageId: message.id, text },
      });
    });
    this.#kick();
  }

  delete(messageKey: string): void {
    const message = this.#store.messages.get(messageKey);
    if (!message) return;
    if (message.id === null) return this.discard(messageKey);
    if (!message.fromMe) throw new Error('only messages of yours can be deleted');
    const messageId = message.id;
    this.#store.transaction(() => {
      this.#store.messages.remove(message.chatId, [messageKey]);
      this.#store.outbox.enqueue({
        kind: 'delete',
        queue: `chat:${message.chatId}`,
        payload: { chatId: message.chatId, messageId },
      });
    });
    this.#kick();
  }

  /**
   * A failed send goes again. Never accepted (a failed job): the same job, with the same idempotency
   * key. Accepted and then not delivered (V3: `message.failed`, or a poll that saw it failed): a new
   * send with a new key, since the old key would only return the stored failure; the failed copy is
   * deleted here and on the service in the same step, so a second call finds nothing to send.
   */
  retry(messageKey: string): void {
    const job = this.#store.outbox.byMessageKey(messageKey);
    if (job?.state === 'failed') {
      this.#store.transaction(() => {
        this.#store.outbox.requeue(job.id);
        this.#store.messages.setState(messageKey, 'queued');
      });
      this.#kick();
      return;
    }
    const message = this.#store.messages.get(messageKey);
    if (!job && message?.fromMe && message.id !== null && message.state === 'failed') this.#sendAnew(message);
  }

  #sendAnew(failed: Message): void {
    this.#assertSendableAgain(failed);
    // The reply and effect it was sent with, as a send takes them (a received effect name may be one
    // this app does not send: then it goes without).
    const kept = sendOptions.safeParse({
      ...(failed.replyTo ? { replyTo: failed.replyTo } : {}),
      ...(failed.effect ? { effect: failed.effect } : {}),
    });
    const options: SendOptions = kept.success ? kept.data : {};
    const failedId = failed.id as number;
    this.#store.transaction(() => {
      this.#store.messages.remove(failed.chatId, [failed.key]);
      this.#store.outbox.enqueue({
        kind: 'delete',
        queue: `chat:${failed.chatId}`,
        payload: { chatId: failed.chatId, messageId: failedId },
      });
      // Like `send`, but the composer's draft is not this message's to clear.
      const key = newKey();
      this.#store.messages.insertLocal({
        key,
        chatId: failed.chatId,
        text: failed.text,
        sentAt: Date.now(),
        sender: this.#lineOfChat(failed.chatId),
        idempotencyKey: key,
        attachments: [],
        replyTo: options.replyTo ?? null,
        effect: options.effect ?? null,
      });
      const payload: JobPayload<'send_message'> = {
        chatId: failed.chatId,
        text: failed.text,
        stagedIds: [],
        attachmentUrls: [],
        ...(Object.keys(options).length > 0 ? { options } : {}),
      };
      this.#store.outbox.enqueue({
        kind: 'send_message',
        queue: `chat:${failed.chatId}`,
        payload,
        idempotencyKey: key,
        messageKey: key,
      });
    });
    this.#kick();
  }

  /** The spec's advice per code (never after an opt-out); an unexplained failure, unless the chat opted out. */
  #assertSendableAgain(failed: Message): void {
    if (failed.failure) {
      const info = deliveryFailureInfo(failed.failure.code);
      if (!info.retryWithNewKey) throw new NotSendableAgain(`Sending again cannot help: ${info.title}`);
    }
    if (this.#store.chats.health(failed.chatId)?.status === 'OPTED_OUT')
      throw new NotSendableAgain('The recipient asked you to stop messaging them');
    if (failed.attachments.length > 0)
      throw new NotSendableAgain('A message with attachments cannot be sent again: attach the files anew');
  }

  /** Gives up a failed or queued send: the optimistic message and its staged files go. */
  discard(messageKey: string): void {
    const job = this.#store.outbox.byMessageKey(messageKey);
    if (job && this.#running.has(job.id)) throw new Error('the message is being sent right now');
    const message = this.#store.messages.get(messageKey);
    const staged = job ? this.#parse(job)?.payload : undefined;
    this.#store.transaction(() => {
      if (job) this.#store.outbox.complete(job.id);
      if (message && message.id === null) this.#store.messages.remove(message.chatId, [messageKey]);
      if (message && message.chatId < 0) this.#store.chats.remove([message.chatId]);
    });
    // Leftover files are harmless; a failure to remove them must not surface as an unhandled rejection.
    if (staged && 'stagedIds' in staged) drop(this.#staging.release(staged.stagedIds), log);
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

  #parse(job: OutboxRow): { kind: JobKind; payload: JobPayload<JobKind> } | undefined {
    const schema = JOB_SCHEMAS[job.kind as JobKind];
    const parsed = schema?.safeParse(job.payload);
    return parsed?.success ? { kind: job.kind as JobKind, payload: parsed.data } : undefined;
  }

  /** Never rejects: it runs detached from a timer, and every way it can end is recorded. */
  async #run(job: OutboxRow): Promise<void> {
    try {
      const parsed = this.#parse(job);
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
        await this.#execute(job, parsed);
        this.#store.outbox.complete(job.id);
      } catch (error) {
        this.#handleFailure(job, error);
      }
    } catch (error) {
      this.#interrupt(job, error);
    }
  }

  async #execute(job: OutboxRow, job_: { kind: JobKind; payload: JobPayload<JobKind> }): Promise<void> {
    const options = { signal: this.#abort.signal, priority: 'user' as const };
    const key = job.idempotencyKey ?? undefined;
    switch (job_.kind) {
      case 'send_message': {
        const p = job_.payload as JobPayload<'send_message'>;
        const message = await this.#api.send(
          p.chatId,
          {
            text: p.text,
            ...(key ? { idempotencyKey: key } : {}),
            files: this.#files(p.stagedIds),
            attachmentUrls: p.attachmentUrls,
            ...p.options,
          },
          options,
        );
        this.#reconciler.applySent(p.chatId, message, key as string);
        await this.#staging.release(p.stagedIds);
        if (job.messageKey) this.#hooks.accepted?.(job.messageKey);
        return;
      }
      case 'create_chat': {
        const p = job_.payload as JobPayload<'create_chat'>;
        const created = await this.#api.createChat(
          {
            lineNumber: p.lineNumber,
            recipients: p.recipients,
            displayName: p.displayName,
            content: {
              text: p.text,
              ...(key ? { idempotencyKey: key } : {}),
              files: this.#files(p.stagedIds),
              attachmentUrls: p.attachmentUrls,
            },
          },
          options,
        );
        this.#store.transaction(() => {
          this.#reconciler.applyCreatedChat(
            created.chat,
            created.message,
            key as string,
            job.messageKey as string,
          );
          this.#store.chats.remove([p.provisionalChatId]);
        });
        await this.#staging.release(p.stagedIds);
        this.#hooks.chatCreated?.(p.provisionalChatId, created.chat.id);
        if (job.messageKey) this.#hooks.accepted?.(job.messageKey);
        return;
      }
      case 'react': {
        const p = job_.payload as JobPayload<'react'>;
        const choice: ReactionChoice =
          p.kind === 'custom' ? { kind: 'custom', customEmoji: p.customEmoji as string } : { kind: p.kind };
        if (p.operation === 'add') {
          const reaction = await this.#api.react(p.messageId, choice, 'add', options);
          // V3 only acknowledges: the shown reaction stays until a sync or event confirms it.
          if (reaction) {
            this.#store.transaction(() => {
              this.#store.messages.removeReaction(p.messageId, p.kind, true, null);
              this.#store.messages.addReaction({ ...reaction, fromMe: true, at: Date.now() });
            });
          }
        } else {
          await this.#api.react(p.messageId, choice, 'remove', options);
        }
        return;
      }
      case 'edit': {
        const p = job_.payload as JobPayload<'edit'>;
        const fresh = await this.#api.edit(p.chatId, p.messageId, p.text, options);
        this.#reconciler.applyMessages(p.chatId, [fresh]);
        return;
      }
      case 'delete': {
        const p = job_.payload as JobPayload<'delete'>;
        await this.#api.delete(p.chatId, p.messageId, options);
        return;
      }
      default:
        assertNever(job_.kind);
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
    this.#store.transaction(() => {
      this.#store.outbox.markFailed(job.id, reason);
      // A refused reaction must not stay on screen as if it had been sent.
      const react = job.kind === 'react' ? JOB_SCHEMAS.react.safeParse(job.payload) : undefined;
      if (react?.success && react.data.operation === 'add')
        this.#store.messages.removeUnconfirmedReaction(react.data.messageId, react.data.kind);
      if (job.messageKey) this.#store.messages.setState(job.messageKey, 'failed', reason);
    });
    log.warn('send failed', { job: job.id, kind: job.kind, code: reason.code });
  }

  #files(stagedIds: readonly string[]): Array<{ path: string; filename: string; mimeType: string }> {
    return stagedIds.map((id) => {
      const file = this.#staging.get(id);
      if (!file) throw new AttachmentRejected('An attachment of this message is no longer available');
      return { path: file.path, filename: file.filename, mimeType: file.mimeType };
    });
  }

  #stagedAttachments(stagedIds: readonly string[]) {
    return stagedIds.map((id) => {
      const file = this.#staging.get(id);
      if (!file) throw new AttachmentRejected('An attachment was not staged');
      return {
        id: stagedAttachmentId(id),
        url: stagedResource(id),
        filename: file.filename,
        mimeType: file.mimeType,
        size: file.size,
      };
    });
  }

  #validateContent(text: string, stagedIds: readonly string[], urls: readonly string[]): void {
    if (!isSendable({ text, attachmentCount: stagedIds.length + urls.length }))
      throw new Error(EMPTY_MESSAGE);
  }

  #lineOfChat(chatId: number): string {
    const chat = this.#store.chats.get(chatId);
    if (!chat) throw new Error(`chat ${chatId} is not known`);
    const line = this.#store.lines.get(chat.lineId);
    return line?.phoneNumber ?? chat.handles.find((h) => h.isMe)?.identifier ?? '';
  }
}

/** Key shared by the job, the optimistic message and the service's idempotency check. */
function newKey(): string {
  return `p${randomUUID().replaceAll('-', '')}`;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
