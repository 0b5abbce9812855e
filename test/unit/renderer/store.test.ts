import { beforeEach, describe, expect, it } from 'vitest';
import { getState, resetWorkspaceData, setState } from '../../../renderer/store/index.ts';
import { mergeChats } from '../../../renderer/store/chats-slice.ts';
import { reachabilityOf } from '../../../renderer/store/workspace-slice.ts';
import { chat, message } from './fixtures.ts';

beforeEach(() => {
  resetWorkspaceData();
});

describe('chats slice', () => {
  it('keeps the object of unchanged chats so rows do not re-render', () => {
    const a = chat({ id: 1 });
    const b = chat({ id: 2 });
    const current = { 1: a, 2: b };
    const next = mergeChats(current, [{ ...a }, { ...b, unreadCount: 3 }]);
    expect(next[1]).toBe(a);
    expect(next[2]).not.toBe(b);
    expect(mergeChats(current, [{ ...a }])).toBe(current);
  });

  it('keeps the id array when the order did not change', () => {
    getState().receiveChatList([chat({ id: 1 }), chat({ id: 2 })], false);
    const ids = getState().chatIds;
    getState().receiveChatList([chat({ id: 1 }), chat({ id: 2, unreadCount: 1 })], false);
    expect(getState().chatIds).toBe(ids);
    getState().receiveChatList([chat({ id: 2 }), chat({ id: 1 })], false);
    expect(getState().chatIds).toEqual([2, 1]);
  });
});

describe('messages slice', () => {
  it('folds the stored message into its echo: one row under the one client key, from queued to delivered', () => {
    const key = '0b8e5c1e-7f43-4c1a-9d55-3f1c2b7a9e10';
    getState().patchTimeline(1, { status: 'ready' });
    getState().mergeTimeline(1, [message({ key: 'm4', id: 4, sentAt: 4 })]);
    // given the renderer's echo under the key it minted
    getState().mergeTimeline(1, [message({ key, id: null, state: 'queued', sentAt: 5 })]);
    // when the core's copy, then the sent one, arrive under that key
    getState().mergeTimeline(1, [message({ key, id: null, state: 'sending', sentAt: 6 })]);
    getState().mergeTimeline(1, [message({ key, id: 700, state: 'delivered', sentAt: 7 })]);
    // then the timeline holds it once, as the service has it
    const messages = getState().timelines[1]?.messages ?? [];
    expect(messages.map((m) => m.key)).toEqual(['m4', key]);
    expect(messages[1]).toMatchObject({ id: 700, state: 'delivered' });
  });

  it('holds a bounded number of timelines', () => {
    for (let id = 1; id <= 12; id++) {
      getState().touchTimeline(id);
      getState().patchTimeline(id, { status: 'ready' });
    }
    getState().touchTimeline(13);
    expect(Object.keys(getState().timelines).length).toBeLessThanOrEqual(8);
    expect(getState().timelineLru[0]).toBe(13);
  });

  it('ignores changes for timelines not in memory', () => {
    getState().mergeTimeline(99, [message()]);
    expect(getState().timelines[99]).toBeUndefined();
  });
});

describe('reachability', () => {
  it('is offline when the bridge or the service is down', () => {
    setState({ bridgeConnected: true, connection: { state: 'live', reason: null }, sync: null });
    expect(reachabilityOf(getState())).toBe('live');
    setState({ bridgeConnected: false });
    expect(reachabilityOf(getState())).toBe('offline');
    setState({
      bridgeConnected: true,
      connection: { state: 'polling', reason: null },
      sync: { phase: 'offline', chatsKnown: 0, chatsWithMessages: 0, lastSyncedAt: null, error: null },
    });
    expect(reachabilityOf(getState())).toBe('offline');
  });

  it('follows a live.status event as it is: the indicator needs no second call', () => {
    setState({ bridgeConnected: true, connection: { state: 'live', reason: null }, sync: null });
    const sync = {
      phase: 'offline' as const,
      chatsKnown: 60,
      chatsWithMessages: 60,
      lastSyncedAt: 1,
      error: 'The connection to the service was closed unexpectedly',
    };

    getState().setLive({
      state: 'offline',
      reason: sync.error,
      provider: 'direct',
      publicUrl: 'http://127.0.0.1:4000',
      lastEventAt: null,
      subscription: null,
      sync,
      pollIntervalMs: 120_000,
    });

    expect(getState().connection).toEqual({ state: 'offline', reason: sync.error });
    expect(getState().sync).toEqual(sync);
    expect(reachabilityOf(getState())).toBe('offline');
  });
});

describe('ui slice: revealing a message', () => {
  it('asks for a search hit highlighted and a restored place not, each request with its own id', () => {
    getState().setReveal(4, 'hit', undefined);
    const hit = getState().reveal;
    expect(hit).toMatchObject({ chatId: 4, key: 'hit', highlight: true });
    getState().setReveal(4, 'place', { highlight: false });
    const place = getState().reveal;
    expect(place).toMatchObject({ chatId: 4, key: 'place', highlight: false });
    expect(place?.id).not.toBe(hit?.id);
  });

  it('clears a request once shown, but never a newer one', () => {
    getState().setReveal(4, 'first');
    const first = getState().reveal!.id;
    getState().setReveal(5, 'second');
    getState().clearReveal(first);
    expect(getState().reveal).toMatchObject({ chatId: 5, key: 'second' });
    getState().clearReveal(getState().reveal!.id);
    expect(getState().reveal).toBeNull();
  });
});
