/**
 * Versioned schema: MIGRATIONS[n] moves the database from user_version n to n + 1. Append only;
 * never edit a migration that has shipped. They live in groups under migrations/, in order: the
 * next one goes at the end of the last group (or in a new group file listed last here).
 */
import { FIRST_SYNC_WRITES } from './migrations/first-sync-writes.ts';
import { INITIAL_SCHEMA } from './migrations/initial-schema.ts';
import { LIVE_EVENTS_AND_WORKBENCH } from './migrations/live-events-and-workbench.ts';
import { MESSAGE_TIMES } from './migrations/message-times.ts';
import { REMOTE_IDS_BY_CHAT } from './migrations/remote-ids-by-chat.ts';
import { UPKEEP_DRAFTS_AND_V3_MODEL } from './migrations/upkeep-drafts-v3-model.ts';
import { V3_IDS_AND_HELD_SENDS } from './migrations/v3-ids-and-held-sends.ts';

export const MIGRATIONS: readonly string[] = [
  ...INITIAL_SCHEMA, // 1
  ...LIVE_EVENTS_AND_WORKBENCH, // 2–4
  ...V3_IDS_AND_HELD_SENDS, // 5–8
  ...UPKEEP_DRAFTS_AND_V3_MODEL, // 9–11
  ...REMOTE_IDS_BY_CHAT, // 12
  ...FIRST_SYNC_WRITES, // 13–14
  ...MESSAGE_TIMES, // 15
];
