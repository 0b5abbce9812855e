/**
 * Reads answered from the relay's store over request/reply (`parley.read.<what>`): no request
 * reaches the service, so however many desktops page at once, the service's rate limit is not
 * touched. Every request is untrusted: it is size-checked, parsed as JSON and validated by its
 * read's schema before the store is asked anything, and anything else gets a clear error reply.
 *
 *   request:  JSON (the read's input)          reply: { ok: true, data } | { ok: false, error }
 *
 * `error` has the house shape {code, message, retryable, field}. Reads change nothing, so a bad
 * request can change nothing either.
 */
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { z } from 'zod';
import { createLogger } from '../core/log/logger.ts';
import {
  isPartnerApiError,
  READ_SUBJECTS,
  serveRequests,
  type LocalStore,
  type Reply,
  type ReplyError,
} from '../core/relay-host.ts';
import { isPortRead, PORT_READ_HANDLERS, ReadFailure, type ReadContext } from './port-reads.ts';

const log = createLogger('relay-reads');

/**
 * Reads of one agent answered at once; more get a retryable `rate_limited`. Above what Parley's own
 * desktop asks at its busiest (its sync keeps up to RELAY_READ_CONCURRENCY, 100, chats' reads in
 * flight: core/team/joined-session.ts), far below a flood that would starve the team.
 */
export const MAX_READS_IN_FLIGHT_PER_AGENT = 128;

/** A read request is a handful of fields; anything bigger is not one. */
export const MAX_READ_REQUEST_BYTES = 16 * 1024;
const MAX_PAGE = 200;

const Page = { limit: z.number().int().min(1).max(MAX_PAGE).default(50) };

/** One schema per read, and what it answers from the store. */
const READS = {
  lines: { input: z.object({}).strict(), run: (store: LocalStore) => store.lines.list() },
  chats: {
    input: z.object({ offset: z.number().int().min(0).default(0), ...Page }).strict(),
    run: (store: LocalStore, input: { offset: number; limit: number }) =>
      store.chats.list({ offset: input.offset, limit: input.limit }),
  },
  messages: {
    input: z
      .object({
        chatId: z.number().int().positive(),
        before: z
          .object({ sentAt: z.number().int(), key: z.string().min(1).max(200) })
          .strict()
          .optional(),
        ...Page,
      })
      .strict(),
    run: (
      store: LocalStore,
      input: { chatId: number; limit: number; before?: { sentAt: number; key: string } | undefined },
    ) =>
      store.messages.page(input.chatId, {
        limit: input.limit,
        ...(input.before ? { before: input.before } : {}),
      }),
  },
} as const;

export type ReadName = keyof typeof READS;

export type ReadError = ReplyError & {
  code: 'unknown_read' | 'too_large' | 'malformed_json' | 'invalid_request' | 'internal' | (string & {});
};

export type ReadReply = { ok: true; data: unknown; ids?: unknown } | { ok: false; error: ReadError };

/** What reads run against; undefined while the relay is still opening its store. */
export type ReadSource = () => Omit<ReadContext, 'agentId'> | undefined;

/** Answers reads until the returned subscription is drained; one queue group across relays. */
export function serveReads(nc: NatsConnection, source: ReadSource): Subscription {
  return serveRequests(
    nc,
    {
      subject: READ_SUBJECTS,
      queue: 'parley-relay',
      maxBytes: MAX_READ_REQUEST_BYTES,
      what: 'read',
      unavailable: { code: 'internal', message: 'The relay could not read its store; try again shortly' },
      maxInFlightPerAgent: MAX_READS_IN_FLIGHT_PER_AGENT,
    },
    (msg, asker) => answer(msg, asker, source()) as Promise<Reply>,
  );
}

const KNOWN = [...Object.keys(READS), ...Object.keys(PORT_READ_HANDLERS)];

/** `asker`: the agent the server vouches asked (responder.ts `askerOf`), whose files a read may touch. */
async function answer(
  msg: Msg,
  asker: string,
  source: Omit<ReadContext, 'agentId'> | undefined,
): Promise<ReadReply> {
  const what = msg.subject.slice(READ_SUBJECTS.length - 1);
  if (!Object.hasOwn(READS, what) && !isPortRead(what))
    return refuse('unknown_read', `There is no read named "${what}" (known: ${KNOWN.join(', ')})`);
  let json: unknown;
  try {
    json =
      msg.data.length === 0 ? {} : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(msg.data));
  } catch {
    return refuse('malformed_json', 'The read request is not JSON');
  }
  const read = isPortRead(what) ? PORT_READ_HANDLERS[what] : READS[what as ReadName];
  const parsed = (read.input as z.ZodType).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || null;
    return refuse(
      'invalid_request',
      `The read request is not valid: ${z.prettifyError(parsed.error)}`,
      field,
    );
  }
  if (!source)
    return refuse('internal', 'The relay is still opening its store; try again shortly', null, true);
  try {
    if (isPortRead(what)) {
      const run = read.run as (context: ReadContext, input: unknown) => unknown;
      const { data, ids } = (await run({ ...source, agentId: asker }, parsed.data)) as {
        data: unknown;
        ids?: unknown;
      };
      return { ok: true, data, ...(ids ? { ids } : {}) };
    }
    const run = read.run as (store: LocalStore, input: unknown) => unknown;
    return { ok: true, data: run(source.session.store, parsed.data) };
  } catch (error) {
    return failed(what, error);
  }
}

/** A read that failed: the service's own error as it said it, anything else in the relay's words. */
function failed(what: string, error: unknown): ReadReply {
  if (error instanceof ReadFailure)
    return {
      ok: false,
      error: { ...refuseError(error.code, error.message), kind: error.kind, status: error.status },
    };
  if (isPartnerApiError(error))
    return {
      ok: false,
      error: {
        ...refuseError(error.code, error.message, null, error.retryable),
        kind: error.kind,
        status: error.status,
      },
    };
  log.error('a read failed', { what, error: error instanceof Error ? error.message : String(error) });
  return refuse('internal', 'The relay could not read its store; try again shortly', null, true);
}

function refuse(
  code: ReadError['code'],
  message: string,
  field: string | null = null,
  retryable = false,
): ReadReply {
  return { ok: false, error: refuseError(code, message, field, retryable) };
}

function refuseError(
  code: string,
  message: string,
  field: string | null = null,
  retryable = false,
): ReadError {
  return { code, message, retryable, field };
}
