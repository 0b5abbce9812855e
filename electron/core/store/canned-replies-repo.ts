import type { CannedAttachment, CannedReply } from '../../../shared/contract/views.ts';
import type { Database } from './database.ts';

export interface CannedFileInput {
  filename: string;
  mimeType: string;
  data: Uint8Array;
}

export interface CannedReplyInput {
  title: string;
  body: string;
  group: string;
}

interface ReplyRow {
  id: number;
  title: string;
  body: string;
  group_name: string;
  updated_at: number;
}

interface FileRow {
  id: number;
  reply_id: number;
  filename: string;
  mime_type: string;
  size: number;
}

/** Canned replies and the files that go with them (kept in the database, so they travel in one file). */
export class CannedRepliesRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every reply, by group then title. */
  list(): CannedReply[] {
    const rows = this.#db.all<ReplyRow>(
      'SELECT id, title, body, group_name, updated_at FROM canned_replies ORDER BY group_name COLLATE NOCASE, title COLLATE NOCASE, id',
    );
    const files = this.#files();
    return rows.map((row) => toReply(row, files.get(row.id) ?? []));
  }

  get(id: number): CannedReply | undefined {
    const row = this.#db.get<ReplyRow>(
      'SELECT id, title, body, group_name, updated_at FROM canned_replies WHERE id = ?',
      id,
    );
    return row ? toReply(row, this.#files(id).get(id) ?? []) : undefined;
  }

  create(input: CannedReplyInput, files: readonly CannedFileInput[] = []): number {
    const now = Date.now();
    const { lastInsertRowid: id } = this.#db.run(
      'INSERT INTO canned_replies (title, body, group_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      input.title,
      input.body,
      input.group,
      now,
      now,
    );
    this.#addFiles(id, files);
    return id;
  }

  /** Replaces the text and keeps only `keepFileIds` of its files, then adds `files`. */
  update(
    id: number,
    input: CannedReplyInput,
    keepFileIds: readonly number[],
    files: readonly CannedFileInput[],
  ): boolean {
    const { changes } = this.#db.run(
      'UPDATE canned_replies SET title = ?, body = ?, group_name = ?, updated_at = ? WHERE id = ?',
      input.title,
      input.body,
      input.group,
      Date.now(),
      id,
    );
    if (changes === 0) return false;
    const keep = new Set(keepFileIds);
    for (const file of this.#files(id).get(id) ?? [])
      if (!keep.has(file.id)) this.#db.run('DELETE FROM canned_reply_files WHERE id = ?', file.id);
    this.#addFiles(id, files);
    return true;
  }

  remove(id: number): boolean {
    return this.#db.run('DELETE FROM canned_replies WHERE id = ?', id).changes > 0;
  }

  removeAll(): void {
    this.#db.run('DELETE FROM canned_replies');
  }

  /** A reply's files with their bytes (to stage them into a draft, or to export them). */
  filesOf(id: number): Array<CannedFileInput & { id: number }> {
    return this.#db
      .all<{ id: number; filename: string; mime_type: string; data: Uint8Array }>(
        'SELECT id, filename, mime_type, data FROM canned_reply_files WHERE reply_id = ? ORDER BY position, id',
        id,
      )
      .map((row) => ({ id: row.id, filename: row.filename, mimeType: row.mime_type, data: row.data }));
  }

  #addFiles(replyId: number, files: readonly CannedFileInput[]): void {
    const start =
      this.#db.get<{ n: number | null }>(
        'SELECT MAX(position) + 1 AS n FROM canned_reply_files WHERE reply_id = ?',
        replyId,
      )?.n ?? 0;
    files.forEach((file, i) =>
      this.#db.run(
        'INSERT INTO canned_reply_files (reply_id, position, filename, mime_type, data) VALUES (?, ?, ?, ?, ?)',
        replyId,
        start + i,
        file.filename,
        file.mimeType,
        file.data,
      ),
    );
  }

  #files(replyId?: number): Map<number, CannedAttachment[]> {
    const rows = this.#db.all<FileRow>(
      `SELECT id, reply_id, filename, mime_type, length(data) AS size FROM canned_reply_files
       ${replyId === undefined ? '' : 'WHERE reply_id = ?'} ORDER BY reply_id, position, id`,
      ...(replyId === undefined ? [] : [replyId]),
    );
    const byReply = new Map<number, CannedAttachment[]>();
    for (const row of rows) {
      const list = byReply.get(row.reply_id) ?? [];
      list.push({ id: row.id, filename: row.filename, mimeType: row.mime_type, size: row.size });
      byReply.set(row.reply_id, list);
    }
    return byReply;
  }
}

function toReply(row: ReplyRow, attachments: CannedAttachment[]): CannedReply {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    group: row.group_name,
    attachments,
    updatedAt: row.updated_at,
  };
}
