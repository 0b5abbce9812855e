import type { ChatHealth, DeliveryFailure, LineReputation } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';

/** The extras of a V3 reaction that the reactions table has no column for. */
export interface V3ReactionExtras {
  partIndex: number;
  customEmoji: string | null;
}

interface Facts {
  'line-reputation': LineReputation;
  'chat-health': ChatHealth;
  failure: DeliveryFailure;
  reaction: V3ReactionExtras;
}

/**
 * What V3 states that V2 has no place for (`v3_facts`, migration 6), keyed by the local id it
 * belongs to: a line's reputation, a chat's health, the failure of a message not stored yet, the part
 * and custom emoji of a reaction. Written by the V3 event applier; a change announces its line or chat
 * like the repos that own them.
 */
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

  reaction(reactionId: number): V3ReactionExtras | null {
    return this.#get('reaction', reactionId);
  }

  setReaction(reactionId: number, value: V3ReactionExtras): void {
    this.#set('reaction', reactionId, value);
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
