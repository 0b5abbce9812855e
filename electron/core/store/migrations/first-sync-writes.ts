/**
 * Migrations 13–14: what a first sync writes per page, cut down (a V3 first sync of 5,000 chats had a
 * database 1.7 times V2's). Never edit one that has shipped (store/migrations.ts).
 */
export const FIRST_SYNC_WRITES: readonly string[] = [
  /* 13: each remote id stored once. Keyed (kind, scope, remote_id) with a unique (kind, local_id)
     index, a WITHOUT ROWID table kept every id twice (the index carries the whole key): about 150
     bytes an id. Now a rowid table keyed by what the store names, its kind and local id in one
     integer (`id`: local id × 8 + kind, RemoteIdsRepo's KIND_CODES: 1 chat, 2 message, 3 handle,
     4 line, 5 reaction), so a page's new ids append to the table's last page, and a remote id is
     found through an index of its first 8 characters within its chat (a UUID's first 32 random
     bits; the rare ids sharing them are told apart by the full id in the row): about 80 bytes an
     id. A kind never written (there is none) is kept under 0, which nothing reads. */ `
  CREATE TABLE remote_ids_once (
    id INTEGER PRIMARY KEY,
    -- messages and reactions: their chat's local id (0: not known when first named); others: 0
    scope INTEGER NOT NULL,
    remote_id TEXT NOT NULL
  );
  INSERT INTO remote_ids_once (id, scope, remote_id)
  SELECT local_id * 8 + CASE kind WHEN 'chat' THEN 1 WHEN 'message' THEN 2 WHEN 'handle' THEN 3
    WHEN 'line' THEN 4 WHEN 'reaction' THEN 5 ELSE 0 END, scope, remote_id
  FROM remote_ids ORDER BY 1;
  DROP TABLE remote_ids;
  ALTER TABLE remote_ids_once RENAME TO remote_ids;
  CREATE INDEX remote_ids_named ON remote_ids (scope, substr(remote_id, 1, 8));
  `,
  /* 14: the state index holds only messages from me: it serves the optimistic copy of a send
     (`sending`) and the sent messages not settled yet, both from me. Holding every message, a page
     of history with four states (V3's received, sent, delivered, read) wrote four places of it. */ `
  DROP INDEX messages_state;
  CREATE INDEX messages_state ON messages (state) WHERE deleted = 0 AND from_me = 1;
  `,
];
