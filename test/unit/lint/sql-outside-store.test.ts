/**
 * The lint rule that keeps SQL inside electron/core/store (issue #9), run through ESLint's Node API
 * with the project's own config on snippets placed at paths inside and outside the store.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });
const RULE = 'parley/no-sql-outside-store';

async function sqlProblems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const VIOLATIONS: Record<string, string> = {
  'a query handed to a store handle': `
    export function chatsOf(store: { db: { all(sql: string, ...p: unknown[]): unknown[] } }, id: string) {
      return store.db.all('SELECT DISTINCT chat_id FROM handles WHERE identifier = ?', id);
    }`,
  'a template query with placeholders': `
    export function count(db: { get(sql: string): unknown }, table: string) {
      return db.get(\`SELECT COUNT(*) AS n FROM \${table}\`);
    }`,
  'a write kept in a constant and run later': `
    const MARK = 'INSERT INTO webhook_marks (entity, at, recorded_at) VALUES (?, ?, ?)';
    export const mark = (db: { run(sql: string): void }) => db.run(MARK);`,
  'a statement without FROM handed to exec': `
    export const begin = (db: { exec(sql: string): void }) => db.exec('BEGIN IMMEDIATE');`,
  'opening SQLite directly': `
    import { DatabaseSync } from 'node:sqlite';
    export const open = (path: string) => new DatabaseSync(path);`,
};

// The first lint loads the whole config and the TypeScript parser: slow on a busy machine.
describe('no SQL outside the store', { timeout: 60_000 }, () => {
  for (const [name, code] of Object.entries(VIOLATIONS)) {
    it(`fails on ${name} outside electron/core/store`, async () => {
      expect(await sqlProblems(code, 'electron/core/app/violation.ts')).not.toEqual([]);
    });

    it(`allows ${name} inside electron/core/store`, async () => {
      expect(await sqlProblems(code, 'electron/core/store/some-repo.ts')).toEqual([]);
    });
  }

  it('covers the renderer and shared code too', async () => {
    const code = VIOLATIONS['a query handed to a store handle'] as string;
    expect(await sqlProblems(code, 'renderer/lib/violation.ts')).not.toEqual([]);
    expect(await sqlProblems(code, 'shared/violation.ts')).not.toEqual([]);
  });

  it('leaves ordinary code alone: Map lookups, prose, HTTP verbs', async () => {
    const code = `
      const cache = new Map<string, number>();
      export const lookup = (key: string) => cache.get(key);
      export const hint = 'Select a chat from the list to update its settings';
      export const verb = (run: (m: string) => void) => run('DELETE');`;
    expect(await sqlProblems(code, 'electron/core/app/fine.ts')).toEqual([]);
  });
});
