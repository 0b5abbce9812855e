/**
 * Versioned schema: MIGRATIONS[n] moves the database from user_version n to n + 1. Append only;
 * never edit a migration that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
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
  /* 5: V3 ids (UUIDs) ↔ the store's local integer ids; lines are keyed by their number */ `
  CREATE TABLE v3_ids (
    kind TEXT NOT NULL,
    v3_id TEXT NOT NULL,
    local_id INTEGER NOT NULL,
    PRIMARY KEY (kind, v3_id)
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX v3_ids_local ON v3_ids (kind, local_id);

  -- V3: why the service could not deliver a message ({code, reason}, from message.failed)
  ALTER TABLE messages ADD COLUMN failure_json TEXT;
  `,
  /* 6: what V3 states that V2 has no place for (V3FactsRepo), keyed by the local id it belongs to */ `
  CREATE TABLE v3_facts (
    kind TEXT NOT NULL,
    id INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (kind, id)
  ) WITHOUT ROWID;
  `,
  /* 7: send later, undo send and snooze — messages held back from the outbox, conversations snoozed */ `
  -- a message waiting to join the outbox: scheduled by the agent, or held for the undo grace period
  CREATE TABLE scheduled_sends (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('scheduled', 'grace')),
    text TEXT NOT NULL DEFAULT '',
    staged_ids_json TEXT NOT NULL DEFAULT '[]',
    attachment_urls_json TEXT NOT NULL DEFAULT '[]',
    due_at INTEGER NOT NULL,
    -- due while Parley was not running: waits for the agent instead of going out late
    needs_confirmation INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX scheduled_sends_due ON scheduled_sends (needs_confirmation, due_at);
  CREATE INDEX scheduled_sends_chat ON scheduled_sends (chat_id, due_at);

  -- a snoozed conversation leaves the inbox until its time or the customer's reply; once back
  -- (woke_at set) it is marked until the agent opens it
  CREATE TABLE chat_snoozes (
    chat_id INTEGER PRIMARY KEY,
    until INTEGER NOT NULL,
    snoozed_at INTEGER NOT NULL,
    woke_at INTEGER,
    woke_by TEXT CHECK (woke_by IN ('time', 'reply'))
  );
  CREATE INDEX chat_snoozes_until ON chat_snoozes (woke_at, until);
  `,
  /* 8: a held-back V3 send keeps its options (reply, effect, preferred service) until it goes out */ `
  ALTER TABLE scheduled_sends ADD COLUMN options_json TEXT;
  `,
  /* 9: per-message upkeep in O(1) — chat summaries kept by triggers instead of recounted on every
     write, and message text indexed once per transaction instead of row by row */ `
  -- A chat's last message is its newest non-deleted one (sent_at, then key), and a message is
  -- unread while inbound, unread and not deleted: the same as the recount at the end.
  -- (Two statements, each writing the chat only when its part changes: a page of history written
  -- newest first moves the last message once, not once per message.)
  CREATE TRIGGER chats_summary_insert AFTER INSERT ON messages WHEN new.deleted = 0 BEGIN
    UPDATE chats SET unread_count = unread_count + 1
    WHERE id = new.chat_id AND new.from_me = 0 AND new.is_read = 0;
    UPDATE chats SET last_message_key = new.key, last_activity_at = new.sent_at
    WHERE id = new.chat_id AND (last_message_key IS NULL OR new.sent_at > last_activity_at
      OR (new.sent_at = last_activity_at AND new.key > last_message_key));
  END;
  CREATE TRIGGER chats_summary_update AFTER UPDATE OF key, chat_id, sent_at, is_read, from_me, deleted ON messages
  WHEN old.key IS NOT new.key OR old.chat_id IS NOT new.chat_id OR old.sent_at IS NOT new.sent_at
    OR old.is_read IS NOT new.is_read OR old.from_me IS NOT new.from_me OR old.deleted IS NOT new.deleted BEGIN
    UPDATE chats SET unread_count = unread_count - 1
    WHERE id = old.chat_id AND old.from_me = 0 AND old.is_read = 0 AND old.deleted = 0;
    UPDATE chats SET unread_count = unread_count + 1
    WHERE id = new.chat_id AND new.from_me = 0 AND new.is_read = 0 AND new.deleted = 0;
    -- the chat's last message moved away (deleted, re-dated, another chat): find the new last one
    UPDATE chats SET
      last_message_key = (SELECT key FROM messages WHERE chat_id = old.chat_id AND deleted = 0
        ORDER BY sent_at DESC, key DESC LIMIT 1),
      last_activity_at = COALESCE((SELECT sent_at FROM messages WHERE chat_id = old.chat_id AND deleted = 0
        ORDER BY sent_at DESC, key DESC LIMIT 1), last_activity_at)
    WHERE id = old.chat_id AND last_message_key = old.key;
    UPDATE chats SET last_message_key = new.key, last_activity_at = new.sent_at
    WHERE id = new.chat_id AND new.deleted = 0 AND (last_message_key IS NULL OR new.sent_at > last_activity_at
      OR (new.sent_at = last_activity_at AND new.key > last_message_key));
  END;
  CREATE TRIGGER chats_summary_delete AFTER DELETE ON messages WHEN old.deleted = 0 BEGIN
    UPDATE chats SET unread_count = unread_count - (old.from_me = 0 AND old.is_read = 0) WHERE id = old.chat_id;
    UPDATE chats SET
      last_message_key = (SELECT key FROM messages WHERE chat_id = old.chat_id AND deleted = 0
        ORDER BY sent_at DESC, key DESC LIMIT 1),
      last_activity_at = COALESCE((SELECT sent_at FROM messages WHERE chat_id = old.chat_id AND deleted = 0
        ORDER BY sent_at DESC, key DESC LIMIT 1), last_activity_at)
    WHERE id = old.chat_id AND last_message_key = old.key;
  END;
  -- a chat stored after its messages (a webhook named it first) starts from a recount
  CREATE TRIGGER chats_summary_new AFTER INSERT ON chats BEGIN
    UPDATE chats SET
      unread_count = (SELECT COUNT(*) FROM messages WHERE chat_id = new.id AND from_me = 0 AND is_read = 0 AND deleted = 0),
      last_message_key = (SELECT key FROM messages WHERE chat_id = new.id AND deleted = 0
        ORDER BY sent_at DESC, key DESC LIMIT 1),
      last_activity_at = COALESCE((SELECT sent_at FROM messages WHERE chat_id = new.id AND deleted = 0
        ORDER BY sent_at DESC, key DESC LIMIT 1), last_activity_at)
    WHERE id = new.id;
  END;
  UPDATE chats SET
    unread_count = (SELECT COUNT(*) FROM messages WHERE chat_id = chats.id AND from_me = 0 AND is_read = 0 AND deleted = 0),
    last_message_key = (SELECT key FROM messages WHERE chat_id = chats.id AND deleted = 0
      ORDER BY sent_at DESC, key DESC LIMIT 1),
    last_activity_at = COALESCE((SELECT sent_at FROM messages WHERE chat_id = chats.id AND deleted = 0
      ORDER BY sent_at DESC, key DESC LIMIT 1), last_activity_at);

  -- Inserted messages wait here and are indexed together just before their transaction commits
  -- (LocalStore): an FTS5 write inside a statement with triggers flushes the index on every row.
  CREATE TABLE messages_fts_pending (id INTEGER PRIMARY KEY);
  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  DROP TRIGGER messages_fts_update;
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN (SELECT live FROM fts_state) = 1 BEGIN
    INSERT OR IGNORE INTO messages_fts_pending (id) VALUES (new.rowid);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN (SELECT live FROM fts_state) = 1 BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) SELECT 'delete', old.rowid, old.text
    WHERE NOT EXISTS (SELECT 1 FROM messages_fts_pending WHERE id = old.rowid);
    DELETE FROM messages_fts_pending WHERE id = old.rowid;
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages
  WHEN (SELECT live FROM fts_state) = 1 AND old.text IS NOT new.text
    AND NOT EXISTS (SELECT 1 FROM messages_fts_pending WHERE id = old.rowid) BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO messages_fts_pending (id) VALUES (new.rowid);
  END;
  `,
  /* 10: a draft is the whole next message — its links and V3 options (reply, effect, service) too */ `
  ALTER TABLE drafts ADD COLUMN attachment_urls_json TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE drafts ADD COLUMN options_json TEXT;
  `,
  /* 11: V3 in the model — what a message, chat and line are, in their own columns (the side tables
     v3_facts and v3_ids go; their rows are carried over) */ `
  -- the service's ids (V3 UUIDs) ↔ the store's local integer ids, per kind
  ALTER TABLE v3_ids RENAME TO remote_ids;
  ALTER TABLE remote_ids RENAME COLUMN v3_id TO remote_id;
  DROP INDEX v3_ids_local;
  CREATE UNIQUE INDEX remote_ids_local ON remote_ids (kind, local_id);

  -- a message's reply target, effect and link part (a link is the only part of its message)
  ALTER TABLE messages ADD COLUMN reply_to_message_id TEXT;
  ALTER TABLE messages ADD COLUMN reply_to_part_index INTEGER;
  ALTER TABLE messages ADD COLUMN effect_type TEXT;
  ALTER TABLE messages ADD COLUMN effect_name TEXT;
  ALTER TABLE messages ADD COLUMN link_url TEXT;
  -- a reaction's part and custom emoji (part_index NULL: the source said nothing of parts, V2)
  ALTER TABLE reactions ADD COLUMN part_index INTEGER;
  ALTER TABLE reactions ADD COLUMN custom_emoji TEXT;
  ALTER TABLE chats ADD COLUMN health_status TEXT;
  ALTER TABLE chats ADD COLUMN health_doc_url TEXT;
  ALTER TABLE chats ADD COLUMN health_updated_at INTEGER;
  -- a line's phone-number record id (PUT /phone_numbers/{id} names it) and its reputation
  ALTER TABLE lines ADD COLUMN remote_id TEXT;
  ALTER TABLE lines ADD COLUMN reputation_status TEXT;
  ALTER TABLE lines ADD COLUMN reputation_doc_url TEXT;
  -- a delivery failure reported before its message was stored; the message takes it when it comes
  CREATE TABLE early_failures (message_id INTEGER PRIMARY KEY, code TEXT NOT NULL, reason TEXT);

  UPDATE messages SET
    reply_to_message_id = f.json ->> '$.replyTo.messageId',
    reply_to_part_index = f.json ->> '$.replyTo.partIndex',
    effect_type = f.json ->> '$.effect.type',
    effect_name = f.json ->> '$.effect.name',
    link_url = f.json ->> '$.link'
  FROM v3_facts f WHERE f.kind = 'message' AND f.id = messages.id;
  -- a send not accepted yet kept its reply target and effect only in its job (checked: stored input)
  UPDATE messages SET
    reply_to_message_id = IIF(json_type(o.payload_json, '$.options.replyTo.messageId') = 'text'
      AND json_type(o.payload_json, '$.options.replyTo.partIndex') IN ('integer', 'real'),
      o.payload_json ->> '$.options.replyTo.messageId', NULL),
    reply_to_part_index = IIF(json_type(o.payload_json, '$.options.replyTo.messageId') = 'text'
      AND json_type(o.payload_json, '$.options.replyTo.partIndex') IN ('integer', 'real'),
      o.payload_json ->> '$.options.replyTo.partIndex', NULL),
    effect_type = IIF(json_type(o.payload_json, '$.options.effect.type') = 'text'
      AND json_type(o.payload_json, '$.options.effect.name') = 'text', o.payload_json ->> '$.options.effect.type', NULL),
    effect_name = IIF(json_type(o.payload_json, '$.options.effect.type') = 'text'
      AND json_type(o.payload_json, '$.options.effect.name') = 'text', o.payload_json ->> '$.options.effect.name', NULL)
  FROM outbox o WHERE o.kind = 'send_message' AND o.message_key = messages.key AND messages.id IS NULL;
  UPDATE reactions SET part_index = f.json ->> '$.partIndex', custom_emoji = f.json ->> '$.customEmoji'
  FROM v3_facts f WHERE f.kind = 'reaction' AND f.id = reactions.id;
  UPDATE chats SET health_status = f.json ->> '$.status', health_doc_url = f.json ->> '$.docUrl',
    health_updated_at = f.json ->> '$.updatedAt'
  FROM v3_facts f WHERE f.kind = 'chat-health' AND f.id = chats.id;
  UPDATE lines SET reputation_status = f.json ->> '$.status', reputation_doc_url = f.json ->> '$.docUrl'
  FROM v3_facts f WHERE f.kind = 'line-reputation' AND f.id = lines.id;
  UPDATE lines SET remote_id = f.json ->> '$.v3Id' FROM v3_facts f WHERE f.kind = 'line-record' AND f.id = lines.id;
  INSERT INTO early_failures (message_id, code, reason)
  SELECT id, json ->> '$.code', json ->> '$.reason' FROM v3_facts WHERE kind = 'failure';
  DROP TABLE v3_facts;
  `,
  /* 12: a chat's message and reaction ids kept together (scope: the chat's local id), so mapping a
     page of them writes a few adjacent pages of the index, not one random page per UUID */ `
  CREATE TABLE remote_ids_scoped (
    kind TEXT NOT NULL,
    -- messages and reactions: their chat's local id (0: not known when first named); others: 0
    scope INTEGER NOT NULL,
    remote_id TEXT NOT NULL,
    local_id INTEGER NOT NULL,
    PRIMARY KEY (kind, scope, remote_id)
  ) WITHOUT ROWID;
  INSERT INTO remote_ids_scoped (kind, scope, remote_id, local_id)
  SELECT r.kind,
    CASE r.kind
      WHEN 'message' THEN COALESCE((SELECT m.chat_id FROM messages m WHERE m.id = r.local_id), 0)
      WHEN 'reaction' THEN COALESCE((SELECT m.chat_id FROM reactions x JOIN messages m ON m.id = x.message_id
        WHERE x.id = r.local_id), 0)
      ELSE 0
    END,
    r.remote_id, r.local_id
  FROM remote_ids r;
  DROP TABLE remote_ids;
  ALTER TABLE remote_ids_scoped RENAME TO remote_ids;
  CREATE UNIQUE INDEX remote_ids_local ON remote_ids (kind, local_id);
  `,
];
