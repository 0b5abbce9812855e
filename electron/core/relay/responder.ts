/**
 * The relay's one way of answering a desktop's request: its reads (`parley.read.*`), what it serves
 * (`parley.info`), the team's actions (`parley.act.*.*`) and follows (`parley.follow.*`). It runs
 * on the relay's responder connection, whose user may publish nothing but an answer
 * (electron/relay/nats-accounts.ts). In this order:
 *
 * 1. A message with no reply subject is a publish, not a request: nothing to answer, nothing done.
 * 2. Who asked is the server's word, never a subject the asker chose (`askerOf`): a request reaches
 *    the relay through the import of the asker's own account, which rewrites its reply to `_R_.…`
 *    (routed back into that account only) and writes `Nats-Request-Info` naming the account. A
 *    request without both (one from inside the relay's own account, or a forged header that was
 *    not overwritten) is dropped unanswered and its handler never runs.
 * 3. A request over `maxBytes` is refused (`too_large`) before its handler sees it.
 * 4. With `maxInFlightPerAgent`, an agent with that many requests being answered gets
 *    `rate_limited` at once.
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

/** Where a request that crossed from an agent's account is answered (nats-server's response map). */
const RESPONSE_PREFIX = '_R_.';
/** The header nats-server writes on a request that crossed accounts through a `share` import. */
const REQUEST_INFO = 'Nats-Request-Info';
/** An agent's account is `A_<agent id>` (core/relay/grants.ts `agentAccount`). */
const AGENT_ACCOUNT = /^A_([A-Za-z0-9_-]{1,128})$/;

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
  maxInFlightPerAgent?: number;
}

/**
 * The agent that asked, as the server vouches for it; undefined for a request that did not cross
 * from an agent's account (then nothing is answered). The account alone names the agent: its one
 * user is that agent's key (electron/relay/nats-accounts.ts). `name`, chosen by the client, is
 * never read.
 */
export function askerOf(msg: Msg): string | undefined {
  if (!msg.reply?.startsWith(RESPONSE_PREFIX)) return undefined;
  const values = msg.headers?.values(REQUEST_INFO) ?? [];
  if (values.length !== 1) return undefined;
  let info: unknown;
  try {
    info = JSON.parse(values[0] as string);
  } catch {
    return undefined;
  }
  const account = (info as { acc?: unknown } | null)?.acc;
  return typeof account === 'string' ? AGENT_ACCOUNT.exec(account)?.[1] : undefined;
}

/** Answers `options.subject` with `handle` until the returned subscription is drained. */
export function serveRequests(
  nc: NatsConnection,
  options: ResponderOptions,
  handle: (msg: Msg, asker: string) => Promise<Reply> | Reply,
): Subscription {
  /** Requests being answered, per agent. */
  const inFlight = new Map<string, number>();
  return nc.subscribe(options.subject, {
    queue: options.queue,
    callback: (error, msg) => {
      if (error) return log.warn('request subscription failed', { what: options.what, error: error.message });
      if (msg.reply === undefined || msg.reply === '') return;
      const agent = askerOf(msg);
      if (agent === undefined) {
        log.warn('a request that did not come from an agent’s account: dropped', {
          what: options.what,
          subject: msg.subject.slice(0, 100),
          reply: msg.reply.slice(0, 100),
        });
        return;
      }
      const busy = inFlight.get(agent) ?? 0;
      if (options.maxInFlightPerAgent !== undefined && busy >= options.maxInFlightPerAgent) {
        msg.respond(JSON.stringify(RATE_LIMITED));
        return;
      }
      inFlight.set(agent, busy + 1);
      void answer(msg, agent, options, handle)
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
  asker: string,
  options: ResponderOptions,
  handle: (msg: Msg, asker: string) => Promise<Reply> | Reply,
): Promise<Reply> {
  if (msg.data.length > options.maxBytes)
    return refusal('too_large', `A request is at most ${options.maxBytes} bytes`);
  try {
    return await handle(msg, asker);
  } catch (error) {
    log.warn('a request failed', {
      what: options.what,
      subject: msg.subject.slice(0, 100),
      error: error instanceof Error ? error.message : String(error),
    });
    return refusal(options.unavailable.code, options.unavailable.message, { retryable: true });
  }
}
