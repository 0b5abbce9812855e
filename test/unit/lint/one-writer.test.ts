/**
 * One writer of service facts (issue #17, #32): what the service states about contacts, lines,
 * chats and messages reaches the store only through the reconciler (electron/core/sync/reconciler.ts),
 * on a desktop and on the relay alike. Elsewhere the store's fact writers may only keep this
 * desktop's own state: the optimistic copy of a send, a message the agent deleted, a local copy
 * given up. Read from the sources, so a new write outside the reconciler fails here by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Calls on a store (`store.`, `#store.`, `s().store.`) that write what the service states. */
const FACT_WRITE =
  /store\s*\.\s*(contacts|lines|chats|messages)\s*\.\s*(upsert|remove|replaceAll|markRead|addReaction|removeReaction)\s*\(/g;

/** The reconciler, and its part for V2 webhook events (which it runs in its own transaction). */
const THE_RECONCILER = ['electron/core/sync/reconciler.ts', 'electron/core/sync/v2-webhook-facts.ts'];

/** Where a fact writer may be called outside the reconciler, and why: this desktop's own state. */
const LOCAL_STATE: Record<string, string[]> = {
  // the provisional chat and optimistic message of a new conversation, until the service answers
  'electron/core/outbox/jobs/create-chat.ts': ['chats.upsert'],
  // the agent deleted a message of theirs: gone here at once, the job tells the service
  'electron/core/outbox/jobs/delete.ts': ['messages.remove'],
  // the agent's own reaction, shown while its job goes out
  'electron/core/outbox/jobs/react.ts': ['messages.addReaction', 'messages.removeReaction'],
  // an optimistic copy (and its provisional chat) given up before the service had it
  'electron/core/outbox/outbox.ts': ['messages.remove', 'chats.remove'],
  // a failed local copy replaced by the send tried again
  'electron/core/outbox/send-again.ts': ['messages.remove'],
};

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function writesIn(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  return [...text.matchAll(FACT_WRITE)].map((match) => `${match[1]}.${match[2]}`);
}

describe('one writer of service facts', () => {
  const outside = sources('electron').filter(
    (path) => !path.startsWith('electron/core/store/') && !THE_RECONCILER.includes(path),
  );

  it('finds the files it checks', () => {
    expect(outside.length).toBeGreaterThan(100);
    expect(writesIn('electron/core/sync/reconciler.ts')).toContain('contacts.upsert');
    expect(writesIn('electron/core/sync/v2-webhook-facts.ts')).toContain('messages.upsert');
  });

  it('no file outside the store and the reconciler writes a service fact, but the outbox its own copies', () => {
    const unexpected = outside.flatMap((path) =>
      writesIn(path)
        .filter((w) => !(LOCAL_STATE[relative('.', path)] ?? []).includes(w))
        .map((w) => `${path}: ${w}`),
    );
    expect(unexpected).toEqual([]);
  });
});
