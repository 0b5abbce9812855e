import type { Database } from './database.ts';
import type { AttachmentRecord, ReactionRecord } from './records.ts';

/**
 * Writes of what hangs on a message: its attachments (by message key) and reactions (by message
 * id). Shared by the message writes of `MessagesRepo`; announcing is the caller's.
 */
export class MessageParts {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  replaceAttachments(key: string, attachments: readonly AttachmentRecord[]): void {
    this.#db.run('DELETE FROM attachments WHERE message_key = ?', key);
    this.insertAttachments(key, attachments);
  }

  insertAttachments(key: string, attachments: readonly AttachmentRecord[]): void {
    attachments.forEach((a, position) =>
      this.#db.run(
        `INSERT INTO attachments (id, message_key, position, url, filename, mime_type, size) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET message_key = excluded.message_key, url = excluded.url, size = COALESCE(excluded.size, size)`,
        a.id,
        key,
        position,
        a.url,
        a.filename,
        a.mimeType,
        a.size,
      ),
    );
  }

  /**
   * The service's list replaces ours, except reactions added here that the service has not
   * confirmed yet (negative ids): the outbox swaps them for the real ones, or removes them on failure.
   */
  replaceReactions(messageId: number, reactions: readonly ReactionRecord[]): void {
    this.#db.run('DELETE FROM reactions WHERE message_id = ? AND id > 0', messageId);
    for (const r of reactions) this.writeReaction(r);
  }

  writeReaction(r: ReactionRecord): void {
    // The service's copy of a reaction added here replaces the one shown while it was unconfirmed.
    if (r.fromMe && r.id > 0)
      this.#db.run(
        'DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 1 AND id < 0',
        r.messageId,
        r.kind,
      );
    this.#db.run(
      `INSERT OR REPLACE INTO reactions (id, message_id, kind, from_me, sender, at, part_index, custom_emoji)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      r.id,
      r.messageId,
      r.kind,
      r.fromMe ? 1 : 0,
      r.sender,
      r.at,
      r.partIndex ?? null,
      r.customEmoji ?? null,
    );
  }

  /** A `custom` reaction is told from the others by its emoji. Returns whether one was removed. */
  removeReaction(
    messageId: number,
    kind: string,
    fromMe: boolean,
    sender: string | null,
    customEmoji: string | null,
  ): boolean {
    const emoji = customEmoji === null ? '' : ' AND custom_emoji = ?';
    const emojiParam = customEmoji === null ? [] : [customEmoji];
    const result = fromMe
      ? this.#db.run(
          `DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 1${emoji}`,
          messageId,
          kind,
          ...emojiParam,
        )
      : this.#db.run(
          `DELETE FROM reactions WHERE message_id = ? AND kind = ? AND from_me = 0 AND sender = ?${emoji}`,
          messageId,
          kind,
          sender ?? '',
          ...emojiParam,
        );
    return result.changes > 0;
  }
}
