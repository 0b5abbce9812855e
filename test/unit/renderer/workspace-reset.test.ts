/**
 * Switching workspaces leaves nothing of the one left in the renderer (renderer/store/index.ts,
 * `resetWorkspaceData`): every store key that is not the app's own is back to how it started, and
 * the drafts' options, the open thread, the pictures kept and the actions' module caches are forgotten with it.
 */
import { keptPictures, pictureBytes } from '../../../renderer/lib/picture-cache.ts';
import { describe, expect, it } from 'vitest';
import {
  forgetOnWorkspaceReset,
  getState,
  resetWorkspaceData,
  setState,
  workspaceEpoch,
  type Store,
} from '../../../renderer/store/index.ts';
import { chat, message } from './fixtures.ts';

/** What is the app's, not a workspace's: it stays across a switch. */
const APP_KEYS = new Set<string>([
  'appInfo',
  'workspaces',
  'activeWorkspaceId',
  'settings',
  'connection',
  'sync',
  'live',
  'bridgeConnected',
  'view',
  'overlay',
  'detailsOpen',
  'toasts',
  'windowFocused',
  'announcement',
  'searchFocusRequest',
]);

type Data = Record<string, unknown>;

function dataOf(state: Store): Data {
  return Object.fromEntries(Object.entries(state).filter(([, value]) => typeof value !== 'function'));
}

// The store as the page starts it, before any workspace was loaded.
const fresh = dataOf(getState());

describe('a workspace switch', () => {
  it('puts every store key but the app’s own back to how it started, and keeps the app’s', () => {
    // Given every key of the store holds something (a key added later is held to this too)
    const filled = Object.fromEntries(Object.keys(fresh).map((key) => [key, { leftOver: key }]));
    setState(filled as Partial<Store>);

    // When the workspace is switched
    resetWorkspaceData();

    // Then each workspace key is as it started, and each app key is as it was
    const after = dataOf(getState());
    for (const key of Object.keys(fresh)) {
      if (APP_KEYS.has(key)) expect(after[key], key).toEqual({ leftOver: key });
      else expect(after[key], key).toEqual(fresh[key]);
    }
  });

  it('forgets the chats the quick switcher lists, the timelines, drafts’ reply, effect and service, and the open thread', () => {
    // Given the demo's chats, an open timeline, an effect on a draft and an open thread
    getState().receiveChatList([chat({ id: 1000 }), chat({ id: 1001 })], false);
    getState().setSelectedChatId(1000);
    getState().patchTimeline(1000, { status: 'ready' });
    getState().mergeTimeline(1000, [message({ chatId: 1000 })]);
    getState().patchDraft(1000, { effect: { type: 'bubble', name: 'slam' } });
    getState().setThread({ chatId: 1000, key: 'm1', status: 'ready', messages: [], error: null });

    // When the workspace is switched
    resetWorkspaceData();

    // Then none of it is left
    expect(getState().chatsById).toEqual({});
    expect(getState().chatIds).toEqual([]);
    expect(getState().selectedChatId).toBeNull();
    expect(getState().timelines).toEqual({});
    expect(getState().drafts).toEqual({});
    expect(getState().thread).toBeNull();
  });

  it('lets the kept pictures go, runs every module’s forgetting, and dates answers asked for before it', async () => {
    // Given a photo's bytes kept, a module cache and an answer asked for now
    await pictureBytes(
      '/thumbnails/demo-photo?scale=1',
      new AbortController().signal,
      async () => new Blob(['x']),
    );
    const moduleCache = new Map([[1000, 'demo']]);
    forgetOnWorkspaceReset(() => moduleCache.clear());
    const asked = workspaceEpoch();

    // When the workspace is switched
    resetWorkspaceData();

    // Then the photo and the cache are gone, and the answer is known to be the old workspace's
    expect(keptPictures()).toEqual([]);
    expect(moduleCache.size).toBe(0);
    expect(workspaceEpoch()).not.toBe(asked);
  });
});
