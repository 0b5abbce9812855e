/** Migrations 9–11: chat summaries kept by triggers, whole-message drafts, V3 in the model's own columns. In order; never edit one that has shipped (store/migrations.ts). */
export const UPKEEP_DRAFTS_AND_V3_MODEL: readonly string[] = [
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
];
