/** Migrations 5–8: V3 ids and facts, send later, undo send and snooze, a held V3 send's options. In order; never edit one that has shipped (store/migrations.ts). */
export const V3_IDS_AND_HELD_SENDS: readonly string[] = [
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
];
