/** Migration 13: each remote id stored once. Never edit one that has shipped (store/migrations.ts). */
export const REMOTE_IDS_ONCE: readonly string[] = [
  /* 13: each remote id stored once. Keyed (kind, scope, remote_id) with a unique (kind, local_id)
     index, a WITHOUT ROWID table kept every id twice (the index carries the whole key): about 134
     bytes an id, 1.7 times the database of a V2 workspace after a V3 first sync. Now the table is
     keyed by what the store names (kind, local_id), and remote ids are found through an index of
     their first 8 characters within their chat (a UUID's first 32 random bits; the rare ids sharing
     them are told apart by the full id in the row): 87 bytes an id, and a page's new ids still land
     together, after the kind's top local id and beside their chat's others in the index. Kinds are
     small integers (RemoteIdsRepo's KIND_CODES): 1 chat, 2 message, 3 handle, 4 line, 5 reaction. */ `
  CREATE TABLE remote_ids_once (
    kind INTEGER NOT NULL,
    local_id INTEGER NOT NULL,
    -- messages and reactions: their chat's local id (0: not known when first named); others: 0
    scope INTEGER NOT NULL,
    remote_id TEXT NOT NULL,
    PRIMARY KEY (kind, local_id)
  ) WITHOUT ROWID;
  INSERT INTO remote_ids_once (kind, local_id, scope, remote_id)
  SELECT CASE kind WHEN 'chat' THEN 1 WHEN 'message' THEN 2 WHEN 'handle' THEN 3 WHEN 'line' THEN 4
    WHEN 'reaction' THEN 5 END, local_id, scope, remote_id
  FROM remote_ids;
  DROP TABLE remote_ids;
  ALTER TABLE remote_ids_once RENAME TO remote_ids;
  CREATE INDEX remote_ids_named ON remote_ids (kind, scope, substr(remote_id, 1, 8));
  `,
];
