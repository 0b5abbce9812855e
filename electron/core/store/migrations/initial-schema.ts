/** Migration 1: the initial schema — lines, chats, handles, messages, the outbox, sync cursors. In order; never edit one that has shipped (store/migrations.ts). */
export const INITIAL_SCHEMA: readonly string[] = [
  /* 1: the initial schema */ `
  CREATE TABLE lines (
    id INTEGER PRIMARY KEY,
    phone_number TEXT NOT NULL,
    forwarding_number TEXT,
    response_rate INTEGER,
    user_name TEXT,
    user_email TEXT
  );

  CREATE TABLE chats (
    id INTEGER PRIMARY KEY,
    line_id INTEGER NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    service TEXT NOT NULL DEFAULT 'SMS',
    is_group INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    v3_chat_id TEXT,
    last_activity_at INTEGER NOT NULL DEFAULT 0,
    last_message_key TEXT,
    unread_count INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    marked_unread INTEGER NOT NULL DEFAULT 0,
    -- the service's message_count when this chat's messages were last synced
    synced_message_count INTEGER,
    history_complete INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX chats_activity ON chats (archived, pinned DESC, last_activity_at DESC);
  CREATE INDEX chats_line ON chats (line_id);

  CREATE TABLE handles (
    id INTEGER PRIMARY KEY,
    chat_id INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    identifier TEXT NOT NULL,
    service TEXT NOT NULL,
    joined_at INTEGER,
    is_me INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX handles_chat ON handles (chat_id);
  CREATE INDEX handles_identifier ON handles (identifier);

  CREATE TABLE messages (
    key TEXT PRIMARY KEY,
    id INTEGER UNIQUE,
    chat_id INTEGER NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    sent_at INTEGER NOT NULL,
    delivered_at INTEGER,
    state TEXT NOT NULL,
    edited_at INTEGER,
    is_read INTEGER NOT NULL DEFAULT 0,
    from_me INTEGER NOT NULL,
    sender TEXT NOT NULL DEFAULT '',
    handle_id INTEGER,
    idempotency_key TEXT UNIQUE,
    error_json TEXT,
    deleted INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX messages_timeline ON messages (chat_id, deleted, sent_at, id);
  CREATE INDEX messages_unread ON messages (chat_id, from_me, is_read) WHERE deleted = 0;
  CREATE INDEX messages_state ON messages (state) WHERE deleted = 0;

  CREATE TABLE attachments (
    id TEXT PRIMARY KEY,
    message_key TEXT NOT NULL REFERENCES messages (key) ON DELETE CASCADE ON UPDATE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    url TEXT NOT NULL DEFAULT '',
    filename TEXT NOT NULL DEFAULT '',
    mime_type TEXT NOT NULL DEFAULT '',
    size INTEGER
  );
  CREATE INDEX attachments_message ON attachments (message_key);

  CREATE TABLE reactions (
    id INTEGER PRIMARY KEY,
    message_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    from_me INTEGER NOT NULL,
    sender TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX reactions_message ON reactions (message_id);

  CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    full_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    phone_number TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    image_url TEXT,
    owner_json TEXT,
    created_at INTEGER,
    updated_at INTEGER
  );
  CREATE INDEX contacts_phone ON contacts (phone_number);
  CREATE INDEX contacts_email ON contacts (email);

  CREATE TABLE calls (
    id TEXT PRIMARY KEY,
    line_number TEXT NOT NULL,
    customer TEXT NOT NULL,
    started_at INTEGER,
    json TEXT NOT NULL
  );
  CREATE INDEX calls_customer ON calls (customer, started_at);

  CREATE TABLE sync_cursors (scope TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    -- jobs of one queue (one chat, or one new-chat recipient set) run in order
    queue TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    idempotency_key TEXT,
    message_key TEXT,
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,
    error_json TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX outbox_ready ON outbox (state, next_attempt_at);
  CREATE INDEX outbox_queue ON outbox (queue, id);

  CREATE TABLE staged_files (
    id TEXT PRIMARY KEY,
    path TEXT NOT NULL,
    filename TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE drafts (
    chat_id INTEGER PRIMARY KEY,
    text TEXT NOT NULL DEFAULT '',
    staged_json TEXT NOT NULL DEFAULT '[]',
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE webhook_events (event_id TEXT PRIMARY KEY, received_at INTEGER NOT NULL);
  CREATE INDEX webhook_events_age ON webhook_events (received_at);

  CREATE VIRTUAL TABLE messages_fts USING fts5 (text, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2');
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;

  CREATE VIRTUAL TABLE contacts_fts USING fts5 (full_name, email, phone_number, company, content = 'contacts', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
  CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contacts_fts (rowid, full_name, email, phone_number, company) VALUES (new.id, new.full_name, new.email, new.phone_number, new.company);
  END;
  CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, full_name, email, phone_number, company) VALUES ('delete', old.id, old.full_name, old.email, old.phone_number, old.company);
  END;
  CREATE TRIGGER contacts_fts_update AFTER UPDATE ON contacts BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, full_name, email, phone_number, company) VALUES ('delete', old.id, old.full_name, old.email, old.phone_number, old.company);
    INSERT INTO contacts_fts (rowid, full_name, email, phone_number, company) VALUES (new.id, new.full_name, new.email, new.phone_number, new.company);
  END;
  `,
];
