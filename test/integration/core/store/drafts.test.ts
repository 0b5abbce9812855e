/**
 * A chat's draft in the local store, on a real SQLite file: all of the next message — text, staged
 * files, links and the V3 reply target, effect and service — is still there after the store is
 * closed and opened again (a restart); only a draft with nothing in it at all is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';

const STAGED = '4b0f6a52-3c55-4a8e-9b0e-6a1f2f6d9a11';

describe('drafts in the local store', () => {
  let dir: string;
  let path: string;
  let store: LocalStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-drafts-'));
    path = join(dir, 'workspace.db');
    store = new LocalStore(path);
  });

  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a reply with its effect, service, files and links across a restart', () => {
    // given a draft replying to a message, with confetti, as iMessage, a file and a link
    const options = {
      replyTo: { messageKey: 'question-key', partIndex: 0 },
      effect: { type: 'screen', name: 'confetti' },
      preferredService: 'iMessage' as const,
    };
    store.drafts.set(3, 'Come in on Thursday', [STAGED], {
      attachmentUrls: ['https://example.com/map.png'],
      options,
    });
    // when Parley restarts
    store.close();
    store = new LocalStore(path);
    // then all of it is there
    expect(store.drafts.get(3)).toMatchObject({
      text: 'Come in on Thursday',
      stagedIds: [STAGED],
      attachmentUrls: ['https://example.com/map.png'],
      options,
    });
  });

  it('keeps a draft that is only a choice (a reply target, nothing typed yet), and removes an empty one', () => {
    store.drafts.set(4, '', [], { options: { replyTo: { messageKey: 'question-key' } } });
    expect(store.drafts.get(4)?.options).toEqual({ replyTo: { messageKey: 'question-key' } });
    // a draft given without its extras has none: what was chosen before is not kept
    store.drafts.set(4, 'typed', []);
    expect(store.drafts.get(4)).toMatchObject({ text: 'typed', attachmentUrls: [], options: {} });
    store.drafts.set(4, '', []);
    expect(store.drafts.get(4)).toBeUndefined();
  });
});
