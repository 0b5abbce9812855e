/** Migration 12: a chat's V3 message and reaction ids kept together. Never edit one that has shipped (store/migrations.ts). */
export const REMOTE_IDS_BY_CHAT: readonly string[] = [
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
