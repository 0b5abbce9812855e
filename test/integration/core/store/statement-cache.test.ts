/**
 * The database keeps its prepared statements for reuse, but not one per length of a list: a query
 * over `IN (?, ?, …)` is a new statement for every length, each holding its compiled program in native
 * memory, and keeping them all grew the core all day.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Database, MAX_KEPT_STATEMENT_PARAMETERS } from '../../../../electron/core/store/database.ts';

let dir: string;
let db: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-statements-'));
  db = new Database(join(dir, 'workspace.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const inList = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

it('keeps a statement used again, and not one per length of a long list', () => {
  // Given messages in a chat
  const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);
  db.transaction(() => {
    for (const [i, key] of keys.entries())
      db.run(
        `INSERT INTO messages (key, chat_id, text, sent_at, from_me, is_read, state, updated_at)
         VALUES (?, 1, ?, ?, 0, 1, 'delivered', 0)`,
        key,
        `message ${i}`,
        i,
      );
  });
  const kept = db.keptStatements;

  // When they are read by key lists of every length from 1 to 300, twice
  for (let round = 0; round < 2; round++)
    for (let n = 1; n <= keys.length; n++) {
      const rows = db.all<{ key: string }>(
        `SELECT key FROM messages WHERE key IN (${inList(n)}) ORDER BY sent_at`,
        ...keys.slice(0, n),
      );
      // Then every read is answered in full
      expect(rows.map((r) => r.key)).toEqual(keys.slice(0, n));
    }

  // And only the short lists' statements are kept (one per length), the rest prepared per use
  expect(db.keptStatements - kept).toBe(MAX_KEPT_STATEMENT_PARAMETERS);
});
