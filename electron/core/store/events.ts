import type { Events } from '../../../shared/contract/events.ts';

/**
 * What the store announces after each committed change. They are bridge events as they are: the
 * hosts forward every one of them to the renderer unchanged.
 */
export const STORE_EVENT_NAMES = [
  'chats.changed',
  'chats.removed',
  'chats.replaced',
  'messages.changed',
  'messages.removed',
  'typing.changed',
  'contacts.changed',
  'contacts.removed',
  'lines.changed',
  'calls.changed',
  'scheduled.changed',
  'storage.status',
] as const satisfies ReadonlyArray<keyof Events>;

export type StoreEvents = Pick<Events, (typeof STORE_EVENT_NAMES)[number]>;

export type StoreEventName = keyof StoreEvents;
export type StoreListener<K extends StoreEventName> = (payload: StoreEvents[K]) => void;

/** Completes an announcement before it is delivered (the store adds the changed rows: change-rows.ts). */
export type DescribeChange = <K extends StoreEventName>(name: K, payload: StoreEvents[K]) => StoreEvents[K];

interface Subscriber {
  listener: (payload: never) => void;
  /** Whether it reads the changed rows the store adds (change-rows.ts). */
  rows: boolean;
}

/**
 * A typed emitter that holds events raised inside a transaction until it commits, merging repeats
 * (e.g. one `messages.changed` per chat for a whole sync page).
 */
export class StoreEventBus {
  readonly #listeners = new Map<StoreEventName, Set<Subscriber>>();
  readonly #describe: DescribeChange;
  #pending: Array<[StoreEventName, unknown]> | null = null;

  constructor(describe: DescribeChange = (_name, payload) => payload) {
    this.#describe = describe;
  }

  /**
   * `rows: false`: this listener reads only the ids (and what it asks the store itself), so the
   * changed rows are not read for it: a headless core (the relay, a benchmark's desktop, a window
   * closed) then stores a first sync's 1,000 pages without reading each one back.
   */
  on<K extends StoreEventName>(
    name: K,
    listener: StoreListener<K>,
    options: { rows?: boolean } = {},
  ): () => void {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    const subscriber = { listener: listener as (payload: never) => void, rows: options.rows !== false };
    set.add(subscriber);
    return () => set.delete(subscriber);
  }

  emit<K extends StoreEventName>(name: K, payload: StoreEvents[K]): void {
    if (this.#pending) this.#pending.push([name, payload]);
    else this.#deliver(name, payload);
  }

  /** Announces a change of these chats (their rows, their waiting messages); nothing when there are none. */
  emitForChats(name: 'chats.changed' | 'scheduled.changed', chatIds: readonly number[]): void {
    if (chatIds.length > 0) this.emit(name, { chatIds: [...chatIds] });
  }

  /**
   * Delivers at once, even inside a transaction: for news that must not wait for (or be dropped
   * with) a commit, like the commit itself failing.
   */
  emitNow<K extends StoreEventName>(name: K, payload: StoreEvents[K]): void {
    this.#deliver(name, payload);
  }

  /**
   * Runs `work` with events held back; delivers them (merged) only if it returns. Nested in another
   * batch (a savepoint), what it announced is dropped if it throws: its changes were rolled back.
   */
  batch<T>(work: () => T): T {
    if (this.#pending) {
      const pending = this.#pending;
      const mark = pending.length;
      try {
        return work();
      } catch (error) {
        pending.length = mark;
        throw error;
      }
    }
    this.#pending = [];
    let events: Array<[StoreEventName, unknown]>;
    try {
      const result = work();
      events = this.#pending;
      this.#pending = null;
      for (const [name, payload] of mergeEvents(events)) this.#deliver(name, payload as never);
      return result;
    } finally {
      this.#pending = null;
    }
  }

  #deliver(name: StoreEventName, announced: unknown): void {
    const listeners = this.#listeners.get(name);
    if (!listeners || listeners.size === 0) return;
    // Described once, after the commit, for every listener that reads the rows.
    const subscribers = [...listeners];
    const described = subscribers.some((s) => s.rows) ? this.#describe(name, announced as never) : announced;
    for (const { listener, rows } of subscribers) {
      try {
        listener((rows ? described : announced) as never);
      } catch {
        // A listener's failure must not undo or block a committed change.
      }
    }
  }
}

function mergeEvents(events: Array<[StoreEventName, unknown]>): Array<[StoreEventName, unknown]> {
  const merged: Array<[StoreEventName, unknown]> = [];
  const index = new Map<string, Record<string, unknown>>();
  for (const [name, payload] of events) {
    const p = payload as Record<string, unknown>;
    const listKey = ['chatIds', 'ids', 'keys'].find((k) => Array.isArray(p[k]));
    if (!listKey) {
      merged.push([name, payload]);
      continue;
    }
    const key = `${name}|${'chatId' in p ? String(p.chatId) : ''}`;
    const existing = index.get(key);
    if (existing) {
      const set = new Set([...(existing[listKey] as unknown[]), ...(p[listKey] as unknown[])]);
      existing[listKey] = [...set];
    } else {
      const copy = { ...p, [listKey]: [...(p[listKey] as unknown[])] };
      index.set(key, copy);
      merged.push([name, copy]);
    }
  }
  return merged;
}
