/**
 * Each chat's newest page as the port's records, kept until the chat changes: a team's desktops
 * joining at once each ask for the same newest pages of the same chats (a first sync reads every
 * chat's), and the relay reads and builds each page once instead of once per desktop.
 *
 * A chat's pages are dropped on whatever the relay's store announces of it (its messages changed or
 * removed, the chat changed, removed or replaced): the same announcements a window relies on to show
 * what is stored. A page built while its chat changed is not kept. The cache holds at most about
 * `maxBytes` of records (the oldest dropped first).
 */
import type { LocalStore, MessageRecord } from '../core/relay-host.ts';

export interface CachedPage {
  messages: MessageRecord[];
  complete: boolean;
}

/** Most records kept, roughly (approximateBytes): a few organizations' newest pages. */
const MAX_CACHED_BYTES = 32 * 1024 * 1024;

export class NewestPageCache {
  /** Each chat's kept pages by size asked, oldest chat first (a Map keeps insertion order). */
  readonly #chats = new Map<number, { pages: Map<number, CachedPage>; bytes: number }>();
  /** Bumped on every change of a chat: a page built across one is not kept. */
  readonly #generation = new Map<number, number>();
  readonly #unwatch: Array<() => void>;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(store: Pick<LocalStore, 'events'>, maxBytes = MAX_CACHED_BYTES) {
    this.#maxBytes = maxBytes;
    const { events } = store;
    const ids = { rows: false };
    this.#unwatch = [
      events.on('messages.changed', ({ chatId }) => this.#drop(chatId), ids),
      events.on('messages.removed', ({ chatId }) => this.#drop(chatId), ids),
      events.on('chats.changed', ({ chatIds }) => chatIds.forEach((id) => this.#drop(id)), ids),
      events.on('chats.removed', ({ chatIds }) => chatIds.forEach((id) => this.#drop(id)), ids),
      events.on('chats.replaced', ({ from, to }) => (this.#drop(from), this.#drop(to)), ids),
    ];
  }

  /** The chat's newest `limit` messages: kept, or built by `build` (and kept if nothing changed meanwhile). */
  async newest(chatId: number, limit: number, build: () => Promise<CachedPage>): Promise<CachedPage> {
    const kept = this.#chats.get(chatId)?.pages.get(limit);
    if (kept) return kept;
    const generation = this.#generation.get(chatId) ?? 0;
    const page = await build();
    if ((this.#generation.get(chatId) ?? 0) !== generation) return page;
    const chat = this.#chats.get(chatId) ?? { pages: new Map<number, CachedPage>(), bytes: 0 };
    if (chat.pages.has(limit)) return page;
    const bytes = approximateBytes(page.messages);
    chat.pages.set(limit, page);
    chat.bytes += bytes;
    this.#chats.set(chatId, chat);
    this.#bytes += bytes;
    for (const oldest of this.#chats.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#forget(oldest);
    }
    return page;
  }

  close(): void {
    this.#unwatch.forEach((unwatch) => unwatch());
    this.#chats.clear();
    this.#bytes = 0;
  }

  #drop(chatId: number): void {
    this.#generation.set(chatId, (this.#generation.get(chatId) ?? 0) + 1);
    this.#forget(chatId);
  }

  #forget(chatId: number): void {
    const chat = this.#chats.get(chatId);
    if (!chat) return;
    this.#chats.delete(chatId);
    this.#bytes -= chat.bytes;
  }
}

/** A generous guess at the JSON size of records: their texts and links, and the rest of each. */
export function approximateBytes(messages: readonly MessageRecord[]): number {
  let bytes = 0;
  for (const m of messages) {
    bytes += 600 + (m.text?.length ?? 0) * 2 + (m.link?.length ?? 0) + 100 * (m.reactions?.length ?? 0);
    for (const a of m.attachments ?? []) bytes += 200 + a.url.length + a.filename.length;
  }
  return bytes;
}
