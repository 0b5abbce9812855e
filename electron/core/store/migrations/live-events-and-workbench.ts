/** Migrations 2–4: live events, pausable message indexing, the agent's workbench. In order; never edit one that has shipped (store/migrations.ts). */
export const LIVE_EVENTS_AND_WORKBENCH: readonly string[] = [
  /* 2: live events — deliveries acknowledged but not yet applied, and per-entity ordering marks */ `
  CREATE TABLE webhook_inbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at INTEGER NOT NULL
  );

  -- "newest event wins" per entity (contact:<id>), and read receipts waiting for their message (read:<id>)
  CREATE TABLE webhook_marks (entity TEXT PRIMARY KEY, at INTEGER NOT NULL, recorded_at INTEGER NOT NULL);
  CREATE INDEX webhook_marks_age ON webhook_marks (recorded_at);
  `,
  /* 3: message indexing can pause during a first sync (indexing row by row was most of its CPU) */ `
  CREATE TABLE fts_state (id INTEGER PRIMARY KEY CHECK (id = 1), live INTEGER NOT NULL);
  INSERT INTO fts_state (id, live) VALUES (1, 1);

  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  DROP TRIGGER messages_fts_update;
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN (SELECT live FROM fts_state) = 1 BEGIN
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN (SELECT live FROM fts_state) = 1 BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages WHEN (SELECT live FROM fts_state) = 1 BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  `,
  /* 4: the agent's workbench — canned replies (with their files), private notes, its settings */ `
  CREATE TABLE canned_replies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    group_name TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE canned_reply_files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    reply_id INTEGER NOT NULL REFERENCES canned_replies (id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    filename TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    data BLOB NOT NULL
  );
  CREATE INDEX canned_reply_files_reply ON canned_reply_files (reply_id, position);

  -- a note belongs to a chat (in its timeline) or to a contact (in the details panel)
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER,
    contact_id INTEGER,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CHECK ((chat_id IS NULL) <> (contact_id IS NULL))
  );
  CREATE INDEX notes_chat ON notes (chat_id, created_at) WHERE chat_id IS NOT NULL;
  CREATE INDEX notes_contact ON notes (contact_id, created_at) WHERE contact_id IS NOT NULL;
  CREATE VIRTUAL TABLE notes_fts USING fts5 (text, content = 'notes', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
  CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, text) VALUES (new.id, new.text);
  END;
  CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, text) VALUES ('delete', old.id, old.text);
  END;
  CREATE TRIGGER notes_fts_update AFTER UPDATE OF text ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO notes_fts (rowid, text) VALUES (new.id, new.text);
  END;

  CREATE TABLE workbench_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
];
