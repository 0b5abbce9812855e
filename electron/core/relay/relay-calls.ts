/**
 * How a desktop's relay port talks to the relay: a read is a request/reply on
 * `parley.read.port-*`; a change is one message on `parley.sends.<agent>.<key>` and then its outcome
 * under `<agent>.<key>` (polled by direct get, the one read of the bucket an agent's permissions
 * allow on its own keys). Every reply is untrusted: parsed with the protocol's zod schemas, and one
 * that does not parse is an `invalid_response` error with nothing of it kept. Failures are the
 * errors a direct adapter throws (PartnerApiError), so the outbox retries and gives up on the same.
 */
import { JetStreamApiCodes, JetStreamApiError, jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { SEND_HELD_CODE } from '../../../shared/contract/team-views.ts';
import { PartnerApiError, type PartnerApiErrorKind } from '../api/errors.ts';
import type { CallOptions } from '../api/http.ts';
import { createLogger } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import { CHANGE_RESULTS, type ChangeKind, type ChangeRequest } from './changes.ts';
import { bindRelayIds } from './event-ids.ts';
import {
  ChangeOutcomeSchema,
  PORT_READS,
  ReadErrorSchema,
  ReadReplySchema,
  type PortRead,
  type RemoteIds,
} from './protocol.ts';
import { readSubject, SEND_OUTCOMES_BUCKET, sendOutcomeKey, sendSubject } from './subjects.ts';
import { ORG_API } from './grants.ts';

const log = createLogger('relay-calls');

export interface RelayCallOptions {
  /** How long a read waits for the relay's answer. Default 30 s. */
  readTimeoutMs?: number;
  /** How long a change waits for its outcome before the caller is told to try again. Default 120 s. */
  outcomeTimeoutMs?: number;
}

type ReadData<K extends PortRead> = z.output<(typeof PORT_READS)[K]['reply']>['data'];

/** The agent's connection, or how to get it (a joined desktop opened while its relay was away). */
export type RelayConnection = NatsConnection | (() => NatsConnection);

export function connectionOf(nc: RelayConnection): NatsConnection {
  return typeof nc === 'function' ? nc() : nc;
}

export class RelayCalls {
  readonly #connection: RelayConnection;
  readonly #agentId: string;
  readonly #store: LocalStore;
  readonly #options: Required<RelayCallOptions>;
  #outcomes: Promise<KV> | undefined;

  constructor(nc: RelayConnection, agentId: string, store: LocalStore, options: RelayCallOptions = {}) {
    this.#connection = nc;
    this.#agentId = agentId;
    this.#store = store;
    this.#options = { readTimeoutMs: 30_000, outcomeTimeoutMs: 120_000, ...options };
  }

  /** Throws the link's retryable error while the relay has not answered yet. */
  get #nc(): NatsConnection {
    return connectionOf(this.#connection);
  }

  /** A port read: the relay's answer, validated, its V3 ids bound in the store before it is returned. */
  async read<K extends PortRead>(what: K, input: unknown, options: CallOptions): Promise<ReadData<K>> {
    const reply = await abortable(
      this.#nc
        .request(readSubject(what), JSON.stringify(input), { timeout: this.#options.readTimeoutMs })
        .catch((error: unknown) => {
          throw unreachable(error);
        }),
      options.signal,
    );
    const envelope = ReadReplySchema.safeParse(jsonOf(reply.data));
    if (!envelope.success) throw invalid(`${what}: ${envelope.error.issues[0]?.message ?? 'not a reply'}`);
    if (!envelope.data.ok) throw relayRefused(envelope.data.error);
    const parsed = PORT_READS[what].reply.safeParse({ data: envelope.data.data, ids: envelope.data.ids });
    if (!parsed.success) throw invalid(`${what}: ${describe(parsed.error)}`);
    const { data, ids } = parsed.data as { data: ReadData<K>; ids?: RemoteIds };
    if (ids) this.bind(ids);
    return data;
  }

  /**
   * A change, exactly once: published under its key (a second publish, from this desktop retrying
   * or another one, is refused by the stream: the change was made or is being made), then its outcome.
   */
  async change<K extends ChangeKind>(
    kind: K,
    key: string,
    request: Extract<ChangeRequest, { kind: K }>,
    options: CallOptions,
  ): Promise<z.output<(typeof CHANGE_RESULTS)[K]>> {
    await this.#publish(key, JSON.stringify(request), options);
    const outcome = ChangeOutcomeSchema.safeParse(await this.#outcome(key, options));
    if (!outcome.success) throw invalid(`${kind} outcome: ${describe(outcome.error)}`);
    if (outcome.data.state === 'failed') throw relayRefused(outcome.data.error);
    if (outcome.data.state === 'held') throw heldSend(outcome.data.message);
    const result = CHANGE_RESULTS[kind].safeParse(outcome.data.result);
    if (!result.success) throw invalid(`${kind} result: ${describe(result.error)}`);
    if (outcome.data.ids) this.bind(outcome.data.ids);
    return result.data as z.output<(typeof CHANGE_RESULTS)[K]>;
  }

  /** A send the relay held (what the agent had not seen, and up to where), or undefined. */
  async heldOutcome(key: string): Promise<{ message: string; latestSeq: number } | undefined> {
    this.#outcomes ??= new Kvm(jetstream(this.#nc, { apiPrefix: ORG_API })).open(SEND_OUTCOMES_BUCKET, {
      allow_direct: true,
    });
    const entry = await (await this.#outcomes).get(sendOutcomeKey(this.#agentId, key));
    const outcome =
      entry?.operation === 'PUT' ? ChangeOutcomeSchema.safeParse(jsonOf(entry.value)) : undefined;
    return outcome?.success && outcome.data.state === 'held' ? outcome.data : undefined;
  }

  /** Names each V3 id by the relay's local id, as the relay does (only what differs is written). */
  bind(ids: RemoteIds): void {
    bindRelayIds(this.#store, ids);
  }

  /**
   * Publishes a change under its key until the stream has it. A publish whose answer was lost (the
   * connection dropped) is published again with the same key, within the call, rather than failing
   * the call and leaving the agent to do it again under a new one: the stream refuses the second
   * if the first arrived, and either way the change is stored once.
   */
  async #publish(key: string, body: string, options: CallOptions): Promise<void> {
    const deadline = Date.now() + this.#options.outcomeTimeoutMs;
    for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
      // Before the relay first answered there is no connection: that error goes out as it is.
      const js = jetstream(this.#nc);
      try {
        // Only if the key's subject holds nothing yet: a second publish of it is refused by the
        // server with its own code, which says the first arrived.
        const expect = { lastSubjectSequence: 0 };
        await abortable(js.publish(sendSubject(this.#agentId, key), body, { expect }), options.signal);
        return;
      } catch (error) {
        if (publishedBefore(error)) return;
        const failure = unreachable(error);
        if (!failure.retryable || Date.now() + delay > deadline) throw failure;
        log.info('a change is published again with its key', { reason: failure.message });
      }
      await abortable(new Promise((resolve) => setTimeout(resolve, delay)), options.signal);
    }
  }

  async #outcome(key: string, options: CallOptions): Promise<unknown> {
    this.#outcomes ??= new Kvm(jetstream(this.#nc, { apiPrefix: ORG_API })).open(SEND_OUTCOMES_BUCKET, {
      allow_direct: true,
    });
    const bucket = await this.#outcomes;
    const name = sendOutcomeKey(this.#agentId, key);
    const deadline = Date.now() + this.#options.outcomeTimeoutMs;
    for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
      const entry = await bucket.get(name).catch((error: unknown) => {
        throw unreachable(error);
      });
      if (entry && entry.operation === 'PUT') return jsonOf(entry.value);
      if (Date.now() + delay > deadline)
        throw new PartnerApiError({
          kind: 'timeout',
          code: 'relay_busy',
          retryable: true,
          message: 'The team relay has not finished this yet; it will be tried again',
        });
      await abortable(new Promise((resolve) => setTimeout(resolve, delay)), options.signal);
    }
  }
}

/**
 * The key of a change: the agent's action's own (an outbox job's, `CallOptions.changeKey`), else a
 * new one for this call (a call made once per action: forwarding, the contact card, a contact).
 */
export function changeKey(options: CallOptions = {}): string {
  return options.changeKey ?? crypto.randomUUID();
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(cancelled());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function cancelled(): PartnerApiError {
  return new PartnerApiError({ kind: 'cancelled', retryable: false, message: 'Cancelled' });
}

function unreachable(error: unknown): PartnerApiError {
  if (error instanceof PartnerApiError) return error;
  const timeout = /timeout/i.test(messageOf(error));
  return new PartnerApiError({
    kind: timeout ? 'timeout' : 'network',
    code: 'relay_unreachable',
    retryable: true,
    message: `The team relay did not answer (${messageOf(error)})`,
    cause: error,
  });
}

/** Not sent, not failed: a permanent answer to the outbox (it must not retry a held send by itself). */
function heldSend(message: string): PartnerApiError {
  return new PartnerApiError({ kind: 'validation', code: SEND_HELD_CODE, retryable: false, message });
}

function invalid(detail: string): PartnerApiError {
  return new PartnerApiError({
    kind: 'invalid_response',
    code: 'invalid_relay_reply',
    retryable: false,
    message: `The team relay answered something this app does not understand (${detail.slice(0, 300)})`,
  });
}

/** The relay's refusal (or the service's, passed on) as the error a direct adapter throws. */
function relayRefused(error: z.output<typeof ReadErrorSchema>): PartnerApiError {
  return new PartnerApiError({
    kind: (error.kind as PartnerApiErrorKind | undefined) ?? kindOf(error.code),
    ...(error.status === undefined ? {} : { status: error.status }),
    code: error.code,
    message: error.message,
    retryable: error.retryable,
  });
}

function kindOf(code: string): PartnerApiErrorKind {
  if (code === 'not_found') return 'not_found';
  if (code === 'internal') return 'server';
  return 'validation';
}

function jsonOf(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return undefined;
  }
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'reply'}: ${issue.message}` : 'not valid';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The server refused a publish because the key's subject already holds the change (sent before). */
function publishedBefore(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence;
}
