/**
 * Stores do not checkpoint in lockstep: each moves SQLite's 1,000-page mark by up to a quarter, at
 * random, so desktops applying the same events on one disk take their checkpoints' fsyncs in turns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTOCHECKPOINT, autocheckpointPages, Database } from '../../../../electron/core/store/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-autocheckpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('when a store checkpoints its write-ahead log', () => {
  it('is within a quarter of SQLite’s 1,000 pages, either way', () => {
    expect(autocheckpointPages(() => 0)).toBe(750);
    expect(autocheckpointPages(() => 0.5)).toBe(AUTOCHECKPOINT.pages);
    expect(autocheckpointPages(() => 0.999_999)).toBe(1_250);
  });

  it('differs from store to store, as each database opens', () => {
    const marks = Array.from({ length: 12 }, (_, i) => {
      const db = new Database(join(dir, `desk-${i}.db`));
      const pages = db.get<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint')!.wal_autocheckpoint;
      db.close();
      return pages;
    });
    for (const pages of marks) {
      expect(pages).toBeGreaterThanOrEqual(750);
      expect(pages).toBeLessThanOrEqual(1_250);
    }
    // Twelve draws from 501 values all alike would be a mark set, not drawn (odds ~1e-30).
    expect(new Set(marks).size).toBeGreaterThan(1);
  });
});
