import type { Database } from './database.ts';

export interface StagedFile {
  id: string;
  path: string;
  filename: string;
  mimeType: string;
  size: number;
  createdAt: number;
}

interface RawRow {
  id: string;
  path: string;
  filename: string;
  mime_type: string;
  size: number;
  created_at: number;
}

const toStagedFile = (row: RawRow): StagedFile => ({
  id: row.id,
  path: row.path,
  filename: row.filename,
  mimeType: row.mime_type,
  size: row.size,
  createdAt: row.created_at,
});

/** Files picked for a message before it is sent (copied into the workspace, see outbox/staging.ts). */
export class StagedFilesRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  add(file: StagedFile): void {
    this.#db.run(
      'INSERT INTO staged_files (id, path, filename, mime_type, size, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      file.id,
      file.path,
      file.filename,
      file.mimeType,
      file.size,
      file.createdAt,
    );
  }
  get(id: string): StagedFile | undefined {
    const row = this.#db.get<RawRow>('SELECT * FROM staged_files WHERE id = ?', id);
    return row ? toStagedFile(row) : undefined;
  }
  remove(id: string): void {
    this.#db.run('DELETE FROM staged_files WHERE id = ?', id);
  }
  all(): StagedFile[] {
    return this.#db.all<RawRow>('SELECT * FROM staged_files').map(toStagedFile);
  }
}
