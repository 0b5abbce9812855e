import type { ApiVersion, Chat, Contact, Message } from '../../../shared/domain.ts';
import { CannedRepliesRepo } from './canned-replies-repo.ts';
import { ChatsRepo } from './chats-repo.ts';
import { ContactsRepo } from './contacts-repo.ts';
import type { StorageStatus } from '../../../shared/contract/errors.ts';
import { CallsRepo } from './calls-repo.ts';
import { CursorsRepo } from './cursors-repo.ts';
import { Database } from './database.ts';
import { DraftsRepo } from './drafts-repo.ts';
import { withChangedRows } from './change-rows.ts';
import { StoreEventBus } from './events.ts';
import { LinesRepo } from './lines-repo.ts';
import { MessagesRepo } from './messages-repo.ts';
import { NotesRepo } from './notes-repo.ts';
import { OutboxRepo } from './outbox-repo.ts';
import { ScheduledSendsRepo } from './scheduled-sends-repo.ts';
import { digitsOf, ftsQuery } from './search.ts';
import { SeenEventsRepo } from './seen-events-repo.ts';
import { SnoozesRepo } from './snoozes-repo.ts';
import { StagedFilesRepo } from './staged-files-repo.ts';
import { TypingState } from './typing.ts';
import { RemoteIdsRepo } from './remote-ids-repo.ts';
import { WebhookInboxRepo } from './webhook-inbox-repo.ts';
import { WebhookMarksRepo } from './webhook-marks-repo.ts';
import { WorkbenchRepo } from './workbench-repo.ts';

export interface SearchHit {
  message: Message;
  /** The text with matches wrapped in \u0002 … \u0003 (the renderer turns them into <mark>). */
  snippet: string;
}

export interface SearchResult {
  chats: Chat[];
  contacts: Contact[];
  messages: SearchHit[];
}

export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

/**
 * The workspace's local store: the single source of truth the UI mirrors. One SQLite database per
 * workspace, reached only through the repositories below (nothing outside this folder speaks SQL).
 * Changes made through `transaction` are announced (merged) only after they commit. Disk trouble is
 * thrown as a StorageError and announced at once as `storage.status`, and again when writes work.
 */
export class LocalStore {
  readonly events = new StoreEventBus((name, payload) => withChangedRows(this, name, payload));
  readonly #db: Database;
  /** The database file (tests inspect it through a read-only connection of their own). */
  readonly path: string;
  readonly lines: LinesRepo;
  readonly chats: ChatsRepo;
  readonly messages: MessagesRepo;
  readonly contacts: ContactsRepo;
  readonly calls: CallsRepo;
  readonly cursors: CursorsRepo;
  readonly drafts: DraftsRepo;
  readonly seenEvents: SeenEventsRepo;
  readonly staged: StagedFilesRepo;
  readonly outbox: OutboxRepo;
  readonly webhookInbox: WebhookInboxRepo;
  readonly webhookMarks: WebhookMarksRepo;
  readonly typing: TypingState;
  readonly canned: CannedRepliesRepo;
  readonly notes: NotesRepo;
  readonly workbench: WorkbenchRepo;
  /** The service's other ids (V3 UUIDs) ↔ local integer ids (`V3LocalIds`, api/v3/domain-map.ts). */
  readonly remoteIds: RemoteIdsRepo;
  readonly scheduled: ScheduledSendsRepo;
  readonly snoozes: SnoozesRepo;

  /** The API version of the workspace this store belongs to (V3: chats, lines, messages carry V3 facts). */
  readonly apiVersion: ApiVersion;

  constructor(path: string, options: { apiVersion?: ApiVersion } = {}) {
    this.path = path;
    this.apiVersion = options.apiVersion ?? 'v2';
    this.#db = new Database(path, (problem) => this.events.emitNow('storage.status', { problem }));
    const names = (identifiers: string[]) => this.contacts.namesFor(identifiers);
    this.typing = new TypingState((chatId, identifiers) =>
      this.events.emit('typing.changed', { chatId, identifiers }),
    );
    const v3 = this.apiVersion === 'v3';
    this.lines = new LinesRepo(this.#db, this.events, v3);
    this.chats = new ChatsRepo(this.#db, this.events, (id) => this.typing.of(id), names, v3);
    // Summaries follow each message write in the database itself (migration 9): a write only
    // announces the chats whose row it changed.
    this.messages = new MessagesRepo(this.#db, this.events, (ids) => this.chats.announce(ids), names, v3);
    this.contacts = new ContactsRepo(this.#db, this.events, (identifiers) => this.#renamed(identifiers));
    this.calls = new CallsRepo(this.#db, this.events);
    this.cursors = new CursorsRepo(this.#db);
    this.drafts = new DraftsRepo(this.#db);
    this.seenEvents = new SeenEventsRepo(this.#db);
    this.staged = new StagedFilesRepo(this.#db);
    this.outbox = new OutboxRepo(this.#db);
    this.webhookInbox = new WebhookInboxRepo(this.#db);
    this.webhookMarks = new WebhookMarksRepo(this.#db);
    this.canned = new CannedRepliesRepo(this.#db);
    this.notes = new NotesRepo(this.#db);
    this.workbench = new WorkbenchRepo(this.#db);
    this.remoteIds = new RemoteIdsRepo(this.#db);
    this.scheduled = new ScheduledSendsRepo(this.#db, this.events);
    this.snoozes = new SnoozesRepo(this.#db, this.events);
    this.#db.beforeCommit(() => this.#indexPending());
    // A first sync that died with indexing paused left the index incomplete: rebuild it now.
    if (this.#db.get<{ live: number }>('SELECT live FROM fts_state')?.live === 0) this.resumeIndexing();
  }

  /**
   * Indexes the messages written in this transaction in one statement (migration 9 queues them):
   * FTS5 fed row by row from a trigger writes a segment per row.
   */
  #indexPending(): void {
    if (!this.#unindexed()) return;
    this.#db.run(
      `INSERT INTO messages_fts (rowid, text)
       SELECT m.rowid, m.text FROM messages_fts_pending p JOIN messages m ON m.rowid = p.id`,
    );
    this.#db.run('DELETE FROM messages_fts_pending');
  }

  #unindexed(): boolean {
    return this.#db.get('SELECT 1 AS x FROM messages_fts_pending LIMIT 1') !== undefined;
  }

  /**
   * Stops indexing message text row by row (a first sync writes hundreds of thousands); search
   * misses what arrives until `resumeIndexing` rebuilds the index in one pass.
   */
  pauseIndexing(): void {
    this.#db.run('UPDATE fts_state SET live = 0');
  }

  /** Rebuilds the message index from the table and goes back to indexing each change. */
  resumeIndexing(): void {
    this.#db.transaction(() => {
      this.#db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')");
      this.#db.run('DELETE FROM messages_fts_pending');
      this.#db.run('UPDATE fts_state SET live = 1');
    });
  }

  /** Whether the store can write now (see `storage.status`). */
  get storageStatus(): StorageStatus {
    return { problem: this.#db.problem };
  }

  /** The version of the schema the database was migrated to. */
  get schemaVersion(): number {
    return this.#db.userVersion;
  }

  /** One atomic change: rolled back whole on error; its events are delivered after commit. */
  transaction<T>(work: () => T): T {
    return this.events.batch(() => this.#db.transaction(work));
  }

  /** Local full-text search across contact names, chat names and numbers, and message text. */
  search(input: string, limit = 50): SearchResult {
    const match = ftsQuery(input);
    if (!match) return { chats: [], contacts: [], messages: [] };
    const contacts = this.contacts.list({ query: input, limit: 20 });
    const digits = digitsOf(input);
    const like = `%${input.trim().toLowerCase()}%`;
    const chatIds = this.#db
      .all<{ id: number }>(
        `SELECT DISTINCT c.id FROM chats c LEFT JOIN handles h ON h.chat_id = c.id
         WHERE lower(c.display_name) LIKE ? OR lower(h.identifier) LIKE ? ${digits.length >= 3 ? 'OR h.identifier LIKE ?' : ''}
         ORDER BY c.last_activity_at DESC LIMIT 20`,
        like,
        like,
        ...(digits.length >= 3 ? [`%${digits}%`] : []),
      )
      .map((r) => r.id);
    const contactNumbers = contacts.flatMap((c) => [c.phoneNumber, c.email]).filter(Boolean);
    const viaContacts = this.chats.idsWithHandle(contactNumbers);
    const chats = this.chats
      .byIds([...new Set([...chatIds, ...viaContacts])])
      .sort((a, b) => b.lastActivityAt - a.lastActivityAt);
    const hits = this.#db.all<{ key: string; snippet: string }>(
      `SELECT m.key, snippet(messages_fts, 0, '${MARK_START}', '${MARK_END}', '…', 16) AS snippet
       FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid
       WHERE messages_fts MATCH ? AND m.deleted = 0 ORDER BY m.sent_at DESC LIMIT ?`,
      match,
      limit,
    );
    const byKey = new Map(this.messages.byKeys(hits.map((h) => h.key)).map((m) => [m.key, m]));
    const messages = hits.flatMap((h) => {
      const message = byKey.get(h.key);
      return message ? [{ message, snippet: h.snippet }] : [];
    });
    return { chats, contacts, messages };
  }

  close(): void {
    this.typing.dispose();
    this.#db.close();
  }

  /** A contact changed: chats with those handles show new names. */
  #renamed(identifiers: string[]): void {
    if (identifiers.length === 0) return;
    const ids = this.chats.idsWithHandle(identifiers);
    if (ids.length > 0) this.events.emit('chats.changed', { chatIds: ids });
  }
}
