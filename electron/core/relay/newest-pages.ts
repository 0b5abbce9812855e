/**
 * The newest page of many chats in one read (`port-newest`). A first sync asks for one chat's newest
 * messages at a time from each of its workers; through the relay no rate limit paces them, and a
 * request/reply per chat costs both sides more than the page itself (a round trip, a socket write
 * each way, an envelope parsed). So what the workers ask in one turn of the event loop goes as one
 * read, and its one reply answers them all, each page validated as any reply is (relay-calls.ts).
 *
 * The relay may answer fewer chats than asked (its reply has a size budget): the rest are asked
 * again. A relay that does not know the read is asked chat by chat from then on.
 */
import { PartnerApiError } from '../api/errors.ts';
import type { CallOptions } from '../api/http.ts';
import type { MessageRecord } from '../store/records.ts';
import type { MessagesPage } from '../sync/messaging.ts';
import { MAX_NEWEST_CHATS } from './protocol.ts';

export interface NewestReply {
  pages: Array<{ chatId: number; messages: MessageRecord[]; complete: boolean }>;
  notFound: number[];
}

export interface NewestPagesReads {
  /** `port-newest`: the newest `limit` messages of each chat. */
  many(input: { chatIds: number[]; limit: number }, options: CallOptions): Promise<NewestReply>;
  /** One chat's newest page (`port-messages`), for a relay that does not answer `port-newest`. */
  one(chatId: number, limit: number, options: CallOptions): Promise<MessagesPage>;
}

interface Waiting {
  chatId: number;
  options: CallOptions;
  resolve: (page: MessagesPage) => void;
  reject: (error: unknown) => void;
}

export class NewestPages {
  readonly #reads: NewestPagesReads;
  /** Asked this turn, by page size. */
  readonly #asked = new Map<number, Waiting[]>();
  #flushScheduled = false;
  #unsupported = false;

  constructor(reads: NewestPagesReads) {
    this.#reads = reads;
  }

  page(chatId: number, limit: number, options: CallOptions): Promise<MessagesPage> {
    if (this.#unsupported) return this.#reads.one(chatId, limit, options);
    return new Promise((resolve, reject) => {
      const asked = this.#asked.get(limit) ?? [];
      asked.push({ chatId, options, resolve, reject });
      this.#asked.set(limit, asked);
      if (asked.length >= MAX_NEWEST_CHATS) {
        this.#asked.delete(limit);
        void this.#read(limit, asked);
      } else if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#flushScheduled = false;
    const asked = [...this.#asked];
    this.#asked.clear();
    for (const [limit, waiting] of asked) void this.#read(limit, waiting);
  }

  async #read(limit: number, waiting: Waiting[]): Promise<void> {
    const byChat = new Map<number, Waiting[]>();
    for (const w of waiting) byChat.set(w.chatId, [...(byChat.get(w.chatId) ?? []), w]);
    const options = (waiting[0] as Waiting).options;
    let reply: NewestReply;
    try {
      reply = await this.#reads.many({ chatIds: [...byChat.keys()], limit }, options);
    } catch (error) {
      if (error instanceof PartnerApiError && error.code === 'unknown_read') {
        this.#unsupported = true;
        for (const w of waiting) this.#reads.one(w.chatId, limit, w.options).then(w.resolve, w.reject);
      } else for (const w of waiting) w.reject(error);
      return;
    }
    for (const { chatId, messages, complete } of reply.pages) {
      for (const w of byChat.get(chatId) ?? []) w.resolve({ messages, complete });
      byChat.delete(chatId);
    }
    for (const chatId of reply.notFound) {
      for (const w of byChat.get(chatId) ?? []) w.reject(notFound());
      byChat.delete(chatId);
    }
    // Left out of this reply (its size budget): asked again. An answer of nothing at all would
    // ask forever, so it fails them instead.
    const left = [...byChat.values()].flat();
    if (left.length === 0) return;
    if (reply.pages.length === 0 && reply.notFound.length === 0)
      for (const w of left)
        w.reject(
          new PartnerApiError({
            kind: 'invalid_response',
            code: 'invalid_relay_reply',
            retryable: false,
            message: 'The team relay answered none of the chats asked for',
          }),
        );
    else for (const w of left) this.page(w.chatId, limit, w.options).then(w.resolve, w.reject);
  }
}

/** What `port-messages` says of a chat the relay does not have. */
function notFound(): PartnerApiError {
  return new PartnerApiError({
    kind: 'not_found',
    status: 404,
    code: 'not_found',
    retryable: false,
    message: 'The relay has no such chat',
  });
}
