import type { DraftOptions } from '../../../shared/domain.ts';
import type { Database } from './database.ts';

/** A chat's unsent message, all of it: what gives a draft back gives back every part. */
export interface Draft {
  chatId: number;
  text: string;
  stagedIds: string[];
  attachmentUrls: string[];
  /** V3: the reply target, effect and service chosen for it (empty: none). */
  options: DraftOptions;
  updatedAt: number;
}

/** The parts of a draft beyond its text and staged files (absent: none). */
export type DraftExtras = Partial<Pick<Draft, 'attachmentUrls' | 'options'>>;

interface DraftRow {
  chat_id: number;
  text: string;
  staged_json: string;
  attachment_urls_json: string;
  options_json: string | null;
  updated_at: number;
}

const toDraft = (row: DraftRow): Draft => ({
  chatId: row.chat_id,
  text: row.text,
  stagedIds: JSON.parse(row.staged_json) as string[],
  attachmentUrls: JSON.parse(row.attachment_urls_json) as string[],
  options: row.options_json ? (JSON.parse(row.options_json) as DraftOptions) : {},
  updatedAt: row.updated_at,
});

/** Unsent text, staged files, links and V3 options per chat, kept across restarts. */
export class DraftsRepo {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }
  get(chatId: number): Draft | undefined {
    const row = this.#db.get<DraftRow>('SELECT * FROM drafts WHERE chat_id = ?', chatId);
    return row ? toDraft(row) : undefined;
  }
  /** Replaces the chat's draft with this one; an empty one (nothing typed, attached or chosen) is removed. */
  set(chatId: number, text: string, stagedIds: readonly string[], extras: DraftExtras = {}): void {
    const attachmentUrls = extras.attachmentUrls ?? [];
    const options = extras.options ?? {};
    const chosen = Object.values(options).some((value) => value !== undefined);
    if (text === '' && stagedIds.length === 0 && attachmentUrls.length === 0 && !chosen) {
      this.#db.run('DELETE FROM drafts WHERE chat_id = ?', chatId);
      return;
    }
    this.#db.run(
      `INSERT OR REPLACE INTO drafts (chat_id, text, staged_json, attachment_urls_json, options_json, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      chatId,
      text,
      JSON.stringify(stagedIds),
      JSON.stringify(attachmentUrls),
      chosen ? JSON.stringify(options) : null,
      Date.now(),
    );
  }
  all(): Draft[] {
    return this.#db.all<DraftRow>('SELECT * FROM drafts').map(toDraft);
  }
}
