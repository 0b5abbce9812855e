/**
 * The relay's one way of answering a desktop's request: its reads (`parley.read.*`), what it serves
 * (`parley.info`) and the team's actions (`parley.team.action.*`). In this order:
 *
 * 1. A message with no reply subject is a publish, not a request: nothing to answer, nothing done.
 * 2. The answer goes only to an inbox (`_INBOX.…`, where every desktop's replies arrive). A reply
 *    subject a client named is not checked by nats-server against anything (facts: NATS isolation
 *    2.9, Q1), so a request naming a stream's API, a bucket's key or another subject the relay's
 *    connection may publish to is dropped unanswered and its handler never runs.
 * 3. A request over `maxBytes` is refused (`too_large`) before its handler sees it.
 * 4. With `perAgent`, an agent with that many requests being answered gets `rate_limited` at once.
 * 5. The handler's answer is sent in the one envelope every desktop parses:
 *    `{ ok: true, …payload }` or `{ ok: false, error: { code, message, retryable, field } }`; a
 *    handler that throws is answered with the server's `unavailable` refusal (retryable) and
 *    logged, never left unanswered.
 *
 * Why not @nats-io/services: it is a pre-release (3.0.0-25), it answers through `msg.respond` exactly
 * as this does (the same reply-subject question), and its discovery subjects ($SRV.*) would be
 * more to permission and nothing a desktop uses.
 */
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { createLogger } from '../log/logger.ts';

const log = createLogger('relay-responder');

/** What a refusal says; the house shape of an error in words. */
export interface ReplyError {
  code: string;
  message: string;
  retryable: boolean;
  field: string | null;
  /** A service error's kind and status (port reads), so the desktop throws what a direct adapter would. */
  kind?: string;
  status?: number;
}

export type Reply = ({ ok: true } & Record<string, unknown>) | { ok: false; error: ReplyError };

/** Where every desktop's replies arrive (nats.js's default inbox prefix, and each agent's own). */
const INBOX_PREFIX = '_INBOX.';

export function refusal(
  code: string,
  message: string,
  options: { field?: string | null; retryable?: boolean } = {},
): Reply {
  return {
    ok: false,
    error: { code, message, retryable: options.retryable ?? false, field: options.field ?? null },
  };
}

export interface ResponderOptions {
  /** What the subscription answers (a subject, or a wildcard of them). */
  subject: string;
  /** Shared by the organization's relays: each request is answered by one. */
  queue: string;
  /** Longest request body taken; longer ones are refused before the handler runs. */
  maxBytes: number;
  /** What a failure says it was (the log). */
  what: string;
  /** The refusal said when the handler throws (retryable). */
  unavailable: { code: string; message: string };
  /**
   * Fair share: at most this many requests of one agent are answered at once; more are refused at
   * once with a retryable `rate_limited` (as a service's 429), so one desktop cannot starve the team.
   */
  perAgent?: { maxInFlight: number; agentOf: (msg: Msg) => string | undefined };
}

/** Whether `reply` is a subject the relay may answer on (an inbox). */
export function isInbox(reply: string | undefined): boolean {
  return reply !== undefined && reply.startsWith(INBOX_PREFIX) && reply.length > INBOX_PREFIX.length;
}

/** Answers `options.subject` with `handle` until the returned subscription is drained. */
export function serveRequests(
  nc: NatsConnection,
  options: ResponderOptions,
  handle: (msg: Msg) => Promise<Reply> | Reply,
): Subscription {
  /** Requests being answered, per agent. */
  const inFlight = new Map<string, number>();
  return nc.subscribe(options.subject, {
    queue: options.queue,
    callback: (error, msg) => {
      if (error) return log.warn('request subscription failed', { what: options.what, error: error.message });
      if (msg.reply === undefined || msg.reply === '') return;
      if (!isInbox(msg.reply)) {
        log.warn('a request named a reply subject that is not an inbox: dropped', {
          what: options.what,
          subject: msg.subject.slice(0, 100),
          reply: msg.reply.slice(0, 100),
        });
        return;
      }
      const agent = options.perAgent?.agentOf(msg) ?? '';
      const busy = inFlight.get(agent) ?? 0;
      if (options.perAgent && busy >= options.perAgent.maxInFlight) {
        msg.respond(JSON.stringify(RATE_LIMITED));
        return;
      }
      inFlight.set(agent, busy + 1);
      void answer(msg, options, handle)
        .then((reply) => msg.respond(JSON.stringify(reply)))
        .finally(() => {
          const left = (inFlight.get(agent) ?? 1) - 1;
          if (left === 0) inFlight.delete(agent);
          else inFlight.set(agent, left);
        });
    },
  });
}

const RATE_LIMITED: Reply = {
  ok: false,
  error: {
    code: 'rate_limited',
    message: "Your team's relay is answering this desktop's other requests: try again in a moment",
    retryable: true,
    field: null,
    kind: 'rate_limited',
    status: 429,
  },
};

async function answer(
  msg: Msg,
  options: ResponderOptions,
  handle: (msg: Msg) => Promise<Reply> | Reply,
): Promise<Reply> {
  if (msg.data.length > options.maxBytes)
    return refusal('too_large', `A request is at most ${options.maxBytes} bytes`);
  try {
    return await handle(msg);
  } catch (error) {
    log.warn('a request failed', {
      what: options.what,
      subject: msg.subject.slice(0, 100),
      error: error instanceof Error ? error.message : String(error),
    });
    return refusal(options.unavailable.code, options.unavailable.message, { retryable: true });
  }
}
