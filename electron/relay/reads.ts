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
import { READ_SUBJECTS, type LocalStore } from '../core/index.ts';

const log = createLogger('relay-reads');

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

export interface ReadError {
  code: 'unknown_read' | 'too_large' | 'malformed_json' | 'invalid_request' | 'internal';
  message: string;
  retryable: boolean;
  field: string | null;
}

export type ReadReply = { ok: true; data: unknown } | { ok: false; error: ReadError };

/** Answers reads until the returned subscription is drained; one queue group across relays. */
export function serveReads(nc: NatsConnection, store: () => LocalStore | undefined): Subscription {
  return nc.subscribe(READ_SUBJECTS, {
    queue: 'parley-relay',
    callback: (error, msg) => {
      if (error) return log.warn('read subscription failed', { error: error.message });
      if (!msg.reply) return; // a publish, not a request: nobody to answer, nothing to do
      msg.respond(JSON.stringify(answer(msg, store())));
    },
  });
}

function answer(msg: Msg, store: LocalStore | undefined): ReadReply {
  const what = msg.subject.slice(READ_SUBJECTS.length - 1);
  if (!Object.hasOwn(READS, what))
    return refuse(
      'unknown_read',
      `There is no read named "${what}" (known: ${Object.keys(READS).join(', ')})`,
    );
  if (msg.data.length > MAX_READ_REQUEST_BYTES)
    return refuse('too_large', `A read request is at most ${MAX_READ_REQUEST_BYTES} bytes`);
  let json: unknown;
  try {
    json =
      msg.data.length === 0 ? {} : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(msg.data));
  } catch {
    return refuse('malformed_json', 'The read request is not JSON');
  }
  const read = READS[what as ReadName];
  const parsed = read.input.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || null;
    return refuse(
      'invalid_request',
      `The read request is not valid: ${z.prettifyError(parsed.error)}`,
      field,
    );
  }
  if (!store)
    return refuse('internal', 'The relay is still opening its store; try again shortly', null, true);
  try {
    return { ok: true, data: (read.run as (s: LocalStore, input: unknown) => unknown)(store, parsed.data) };
  } catch (error) {
    log.error('a read failed', { what, error: error instanceof Error ? error.message : String(error) });
    return refuse('internal', 'The relay could not read its store; try again shortly', null, true);
  }
}

function refuse(
  code: ReadError['code'],
  message: string,
  field: string | null = null,
  retryable = false,
): ReadReply {
  return { ok: false, error: { code, message, retryable, field } };
}
