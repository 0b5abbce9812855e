import type { SendOptions } from './send-options.ts';
import type { Database } from './database.ts';
import type { StoreEventBus } from './events.ts';

export type ScheduledKind = 'scheduled' | 'grace';

/** A waiting message as stored: its staged files are referenced by id until it joins the outbox. */
export interface ScheduledSendRow {
  id: number;
  chatId: number;
  kind: ScheduledKind;
  text: string;
  stagedIds: string[];
  attachmentUrls: string[];
  /** V3: the send's reply target, effect and preferred service, passed on when it joins the outbox. */
  options: SendOptions | null;
  dueAt: number;
  needsConfirmation: boolean;
  createdAt: number;
}

interface RawRow {
  id: number;
  chat_id: number;
  kind: ScheduledKind;
  text: string;
  staged_ids_json: string;
  attachment_urls_json: string;
  options_json: string | null;
  due_at: number;
  needs_confirmation: number;
  created_at: number;
}

const toRow = (r: RawRow): ScheduledSendRow => ({
  id: r.id,
  chatId: r.chat_id,
  kind: r.kind,
  text: r.text,
  stagedIds: JSON.parse(r.staged_ids_json) as string[],
  attachmentUrls: JSON.parse(r.attachment_urls_json) as string[],
  options: r.options_json ? (JSON.parse(r.options_json) as SendOptions) : null,
  dueAt: r.due_at,
  needsConfirmation: r.needs_confirmation === 1,
  createdAt: r.created_at,
});

/**
 * Messages that have not joined the outbox yet: scheduled ones and those in their undo grace
 * period. A row leaves this table in the same transaction that enqueues it (see SendScheduler), so
 * a message is either here or in the outbox, never both. Every change is announced by the chats it
 * touched (`scheduled.changed`), after the commit.
 */
export class ScheduledSendsRepo {
  readonly #db: Database;
  readonly #events: StoreEventBus;

  constructor(db: Database, events: StoreEventBus) {
    this.#db = db;
    this.#events = events;
  }

  add(item: {
    chatId: number;
    kind: ScheduledKind;
    text: string;
    stagedIds: readonly string[];
    attachmentUrls: readonly string[];
    options?: SendOptions | null;
    dueAt: number;
  }): ScheduledSendRow {
    const id = this.#db.run(
      `INSERT INTO scheduled_sends (chat_id, kind, text, staged_ids_json, attachment_urls_json, options_json, due_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      item.chatId,
      item.kind,
      item.text,
      JSON.stringify(item.stagedIds),
      JSON.stringify(item.attachmentUrls),
      item.options ? JSON.stringify(item.options) : null,
      item.dueAt,
      Date.now(),
    ).lastInsertRowid;
    this.#events.emitForChats('scheduled.changed', [item.chatId]);
    return this.get(id) as ScheduledSendRow;
  }

  get(id: number): ScheduledSendRow | undefined {
    const row = this.#db.get<RawRow>('SELECT * FROM scheduled_sends WHERE id = ?', id);
    return row ? toRow(row) : undefined;
  }

  forChat(chatId: number): ScheduledSendRow[] {
    return this.#db
      .all<RawRow>('SELECT * FROM scheduled_sends WHERE chat_id = ? ORDER BY due_at, id', chatId)
      .map(toRow);
  }

  all(): ScheduledSendRow[] {
    return this.#db.all<RawRow>('SELECT * FROM scheduled_sends ORDER BY due_at, id').map(toRow);
  }

  /** Items due by `now` that may go out on their own (not waiting for the agent). */
  due(now: number): ScheduledSendRow[] {
    return this.#db
      .all<RawRow>(
        'SELECT * FROM scheduled_sends WHERE needs_confirmation = 0 AND due_at <= ? ORDER BY due_at, id',
        now,
      )
      .map(toRow);
  }

  /** When the next item falls due (for the scheduler's timer). */
  nextDueAt(): number | null {
    return (
      this.#db.get<{ at: number | null }>(
        'SELECT MIN(due_at) AS at FROM scheduled_sends WHERE needs_confirmation = 0',
      )?.at ?? null
    );
  }

  /** Marks items that fell due before `now` as waiting for the agent; returns their chats. */
  waitOverdue(now: number): number[] {
    const chats = this.#db
      .all<{ chat_id: number }>(
        'SELECT DISTINCT chat_id FROM scheduled_sends WHERE needs_confirmation = 0 AND due_at <= ?',
        now,
      )
      .map((r) => r.chat_id);
    this.#db.run(
      'UPDATE scheduled_sends SET needs_confirmation = 1 WHERE needs_confirmation = 0 AND due_at <= ?',
      now,
    );
    this.#events.emitForChats('scheduled.changed', chats);
    return chats;
  }

  /** This item waits for the agent (it could not go out on its own). */
  requireConfirmation(id: number): void {
    const row = this.get(id);
    if (!row) return;
    this.#db.run('UPDATE scheduled_sends SET needs_confirmation = 1 WHERE id = ?', id);
    this.#events.emitForChats('scheduled.changed', [row.chatId]);
  }

  update(
    id: number,
    patch: { text?: string; stagedIds?: readonly string[]; dueAt?: number },
  ): ScheduledSendRow | undefined {
    this.#db.run(
      `UPDATE scheduled_sends SET text = COALESCE(?, text), staged_ids_json = COALESCE(?, staged_ids_json),
         due_at = COALESCE(?, due_at), needs_confirmation = CASE WHEN ? IS NULL THEN needs_confirmation ELSE 0 END
       WHERE id = ?`,
      patch.text ?? null,
      patch.stagedIds ? JSON.stringify(patch.stagedIds) : null,
      patch.dueAt ?? null,
      patch.dueAt ?? null,
      id,
    );
    const updated = this.get(id);
    if (updated) this.#events.emitForChats('scheduled.changed', [updated.chatId]);
    return updated;
  }

  /** Removes an item; false when it was already gone (sent or cancelled). */
  remove(id: number): boolean {
    const row = this.get(id);
    if (!row || this.#db.run('DELETE FROM scheduled_sends WHERE id = ?', id).changes === 0) return false;
    this.#events.emitForChats('scheduled.changed', [row.chatId]);
    return true;
  }

  /** Staged files still referenced by a waiting message (they must not be cleaned up). */
  referencedStagedIds(): Set<string> {
    const ids = new Set<string>();
    for (const r of this.#db.all<{ staged_ids_json: string }>('SELECT staged_ids_json FROM scheduled_sends'))
      for (const id of JSON.parse(r.staged_ids_json) as string[]) ids.add(id);
    return ids;
  }
}
