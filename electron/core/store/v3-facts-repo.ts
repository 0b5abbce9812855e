import type {
  ChatHealth,
  DeliveryFailure,
  LineReputation,
  MessageEffect,
  MessageReplyTo,
} from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';
import { placeholders } from './rows.ts';

/** The extras of a V3 reaction that the reactions table has no column for. */
export interface V3ReactionExtras {
  partIndex: number;
  customEmoji: string | null;
}

/** What a V3 message carries beyond the messages table: its reply target, effect and link part. */
export interface V3MessageExtras {
  replyTo: MessageReplyTo | null;
  effect: MessageEffect | null;
  /** The address of a link part (a link is the only part of its message; its text is the address). */
  link?: string | null;
}

/** A V3 line's phone-number record (PUT /phone_numbers/{id} names it by this id). */
export interface V3LineRecord {
  v3Id: string;
}

interface Facts {
  'line-reputation': LineReputation;
  'line-record': V3LineRecord;
  'chat-health': ChatHealth;
  failure: DeliveryFailure;
  reaction: V3ReactionExtras;
  message: V3MessageExtras;
}

/**
 * What V3 states that V2 has no place for (`v3_facts`, migration 6), keyed by the local id it
 * belongs to: a line's reputation, a chat's health, the failure of a message not stored yet, the part
 * and custom emoji of a reaction, the reply target and effect of a message. Written by the V3 event
 * applier and the V3 messaging adapter; a change announces its line or chat like the repos that own
 * them. The chats, lines and messages repos read them back in batches (`many`) into the domain objects.
 */
/** SQLite's default limit on bound parameters is far above this; timelines hydrate up to 1,000. */
const CHUNK = 500;

export class V3FactsRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;

  constructor(db: Database, events: StoreEventBus) {
    this.#db = db;
    this.#events = events;
  }

  lineReputation(lineId: number): LineReputation | null {
    return this.#get('line-reputation', lineId);
  }

  setLineReputation(lineId: number, value: LineReputation): void {
    this.#set('line-reputation', lineId, value);
    this.#events.emit('lines.changed', { ids: [lineId] });
  }

  chatHealth(chatId: number): ChatHealth | null {
    return this.#get('chat-health', chatId);
  }

  setChatHealth(chatId: number, value: ChatHealth): void {
    this.#set('chat-health', chatId, value);
    this.#events.emit('chats.changed', { chatIds: [chatId] });
  }

  failure(messageId: number): DeliveryFailure | null {
    return this.#get('failure', messageId);
  }

  /** A `message.failed` that arrived before its message (which then stores it: messages.setFailure). */
  setFailure(messageId: number, value: DeliveryFailure): void {
    this.#set('failure', messageId, value);
  }

  /** Announced by the caller (the line sync writes the line itself). */
  setLineRecord(lineId: number, value: V3LineRecord): void {
    if (this.#get('line-record', lineId)?.v3Id !== value.v3Id) this.#set('line-record', lineId, value);
  }

  lineRecord(lineId: number): V3LineRecord | null {
    return this.#get('line-record', lineId);
  }

  /** A listed chat's health; unchanged health is not written again (a sync lists every chat). */
  updateChatHealth(chatId: number, value: ChatHealth): void {
    const stored = this.chatHealth(chatId);
    if (stored && stored.status === value.status && stored.docUrl === value.docUrl) return;
    this.setChatHealth(chatId, value);
  }

  reaction(reactionId: number): V3ReactionExtras | null {
    return this.#get('reaction', reactionId);
  }

  setReaction(reactionId: number, value: V3ReactionExtras): void {
    this.#set('reaction', reactionId, value);
  }

  /**
   * A message's reply target, effect and link; only a message with one of them is written (most have
   * none), and only when it changed. Announced by the message write that goes with it.
   */
  setMessage(messageId: number, value: V3MessageExtras): void {
    const stored = this.#get('message', messageId);
    if (!stored && !value.replyTo && !value.effect && !value.link) return;
    if (stored && JSON.stringify(stored) === JSON.stringify(value)) return;
    this.#set('message', messageId, value);
  }

  /** The facts of one kind for many ids at once (the repos' hydration). */
  many<K extends keyof Facts>(kind: K, ids: readonly number[]): Map<number, Facts[K]> {
    const found = new Map<number, Facts[K]>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      for (const row of this.#db.all<{ id: number; json: string }>(
        `SELECT id, json FROM v3_facts WHERE kind = ? AND id IN (${placeholders(chunk.length)})`,
        kind,
        ...chunk,
      ))
        found.set(row.id, JSON.parse(row.json) as Facts[K]);
    }
    return found;
  }

  /** The V3 ids of many messages (`v3_ids`), for hydration. */
  messageV3Ids(messageIds: readonly number[]): Map<number, string> {
    const found = new Map<number, string>();
    for (let i = 0; i < messageIds.length; i += CHUNK) {
      const chunk = messageIds.slice(i, i + CHUNK);
      for (const row of this.#db.all<{ local_id: number; v3_id: string }>(
        `SELECT local_id, v3_id FROM v3_ids WHERE kind = 'message' AND local_id IN (${placeholders(chunk.length)})`,
        ...chunk,
      ))
        found.set(row.local_id, row.v3_id);
    }
    return found;
  }

  #get<K extends keyof Facts>(kind: K, id: number): Facts[K] | null {
    const row = this.#db.get<{ json: string }>(
      'SELECT json FROM v3_facts WHERE kind = ? AND id = ?',
      kind,
      id,
    );
    return row ? (JSON.parse(row.json) as Facts[K]) : null;
  }

  #set<K extends keyof Facts>(kind: K, id: number, value: Facts[K]): void {
    this.#db.run(
      `INSERT INTO v3_facts (kind, id, json) VALUES (?, ?, ?)
       ON CONFLICT (kind, id) DO UPDATE SET json = excluded.json`,
      kind,
      id,
      JSON.stringify(value),
    );
  }
}

/** What the chats, lines and messages repos read V3 facts through: only on a V3 workspace. */
export interface V3Overlay {
  readonly facts: V3FactsRepo;
  /** The workspace speaks V3: its domain objects carry `apiVersion: 'v3'` and the V3 facts. */
  readonly active: boolean;
}
