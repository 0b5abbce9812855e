import type { WorkbenchSettings } from '../../../shared/contract/views.ts';
import { byLongestWait, type WaitingEntry } from '../../../shared/workbench.ts';
import type { Database } from './database.ts';

const DEFAULT_WORKBENCH_SETTINGS: WorkbenchSettings = {
  agentName: '',
  overdueMinutes: 15,
  undoSeconds: 0,
  quietHours: null,
  mutedLineIds: [],
};

/** The workbench's questions of the inbox ("who is waiting on me?") and its per-workspace settings. */
export class WorkbenchRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Conversations (not archived) whose newest message is the customer's, oldest wait first. A
   * reply (even one still in the outbox) or archiving takes a conversation out.
   */
  waiting(): WaitingEntry[] {
    return this.#db
      .all<{ chat_id: number; since: number }>(
        `SELECT c.id AS chat_id, m.sent_at AS since FROM chats c
         JOIN messages m ON m.key = c.last_message_key
         WHERE c.archived = 0 AND c.id > 0 AND m.from_me = 0 AND m.deleted = 0`,
      )
      .map((row) => ({ chatId: row.chat_id, since: row.since }))
      .sort(byLongestWait);
  }

  /** The contact with this phone number or email, if any. */
  contactIdFor(identifier: string): number | null {
    return (
      this.#db.get<{ id: number }>(
        'SELECT id FROM contacts WHERE phone_number = ? OR email = ? ORDER BY id LIMIT 1',
        identifier,
        identifier,
      )?.id ?? null
    );
  }

  /** The contact's most recent conversation (by its number or email), if any. */
  latestChatOfContact(contactId: number): number | null {
    return (
      this.#db.get<{ id: number }>(
        `SELECT c.id FROM contacts p JOIN handles h ON h.is_me = 0 AND h.identifier IN (p.phone_number, p.email)
         JOIN chats c ON c.id = h.chat_id WHERE p.id = ? ORDER BY c.last_activity_at DESC LIMIT 1`,
        contactId,
      )?.id ?? null
    );
  }

  settings(): WorkbenchSettings {
    const rows = this.#db.all<{ key: string; value: string }>('SELECT key, value FROM workbench_settings');
    const stored = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    return {
      agentName:
        typeof stored.agentName === 'string' ? stored.agentName : DEFAULT_WORKBENCH_SETTINGS.agentName,
      overdueMinutes:
        typeof stored.overdueMinutes === 'number'
          ? stored.overdueMinutes
          : DEFAULT_WORKBENCH_SETTINGS.overdueMinutes,
      undoSeconds:
        typeof stored.undoSeconds === 'number' ? stored.undoSeconds : DEFAULT_WORKBENCH_SETTINGS.undoSeconds,
      quietHours:
        stored.quietHours && typeof stored.quietHours === 'object'
          ? (stored.quietHours as WorkbenchSettings['quietHours'])
          : DEFAULT_WORKBENCH_SETTINGS.quietHours,
      mutedLineIds: Array.isArray(stored.mutedLineIds)
        ? stored.mutedLineIds.filter((id): id is number => typeof id === 'number')
        : DEFAULT_WORKBENCH_SETTINGS.mutedLineIds,
    };
  }

  updateSettings(patch: Partial<WorkbenchSettings>): WorkbenchSettings {
    this.#db.transaction(() => {
      for (const [key, value] of Object.entries(patch))
        // null is a value here (quiet hours off); only undefined leaves a setting as it is
        if (value !== undefined)
          this.#db.run(
            'INSERT INTO workbench_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
            key,
            JSON.stringify(value),
          );
    });
    return this.settings();
  }
}
