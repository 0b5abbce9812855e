/**
 * Wires the core's events to the store, once, at start-up: every event lands in a module-level
 * action, never inside a component. What an event would only tell at the next change (the storage
 * problem) is asked for at load. Also the window's focus (the core marks read only while the
 * agent can see the chat) and the bridge's own connection (reload after a reconnect: events sent
 * while it was down are lost).
 */
import { bridgeHost, onBridgeConnection, parley } from '../bridge/parley.ts';
import { getState, useStore } from '../store/index.ts';
import {
  followRemovedChats,
  followReplacedChat,
  onChatsChanged,
  reportOpenChat,
  scheduleChatsRefresh,
  selectChat,
} from './chats.ts';
import { flushDrafts } from './composer.ts';
import { onContactsChanged } from './contacts.ts';
import { refreshLines } from './lines.ts';
import { onMessagesChanged, onMessagesRemoved, openTimeline } from './messages.ts';
import { onIncomingNotice } from './notifications.ts';
import { loadWorkspaceData, loadWorkspaces, onWorkspacesChanged } from './workspace.ts';

let started = false;

export function startApp(): void {
  if (started) return;
  started = true;
  parley.on('chats.changed', onChatsChanged);
  parley.on('chats.removed', ({ chatIds }) => void followRemovedChats(chatIds));
  parley.on('chats.replaced', ({ from, to }) => followReplacedChat(from, to));
  parley.on('messages.changed', onMessagesChanged);
  parley.on('messages.removed', ({ chatId, keys }) => onMessagesRemoved(chatId, keys));
  parley.on('typing.changed', ({ chatId, identifiers }) =>
    getState().patchChat(chatId, { typing: identifiers }),
  );
  parley.on('contacts.changed', onContactsChanged);
  parley.on('contacts.removed', onContactsChanged);
  parley.on('lines.changed', refreshLines);
  parley.on('calls.changed', () => {
    const id = getState().selectedChatId;
    if (id !== null) scheduleChatsRefresh([id]);
  });
  parley.on('live.status', (live) => getState().setLive(live));
  parley.on('storage.status', (status) => {
    storageEvents += 1;
    getState().setStorageStatus(status);
  });
  parley.on('workspaces.changed', onWorkspacesChanged);
  parley.on('settings.changed', (settings) => getState().setSettings(settings));
  parley.on('notification.incoming', onIncomingNotice);
  parley.on('app.openChat', ({ chatId }) => selectChat(chatId));
  parley.on('app.command', ({ command }) => {
    const s = getState();
    if (command === 'newChat') s.setOverlay('newChat');
    else if (command === 'quickSwitcher') s.setOverlay('quickSwitcher');
    else if (command === 'shortcuts') s.setOverlay('shortcuts');
    else if (command === 'settings') s.setView('settings');
    else if (command === 'search') {
      s.setView('inbox');
      s.requestSearchFocus();
    }
  });

  onBridgeConnection((connected) => {
    const wasConnected = getState().bridgeConnected;
    getState().setBridgeConnected(connected);
    if (connected && !wasConnected) {
      void loadWorkspaces();
      void loadWorkspaceData();
      loadStorageStatus();
      const id = getState().selectedChatId;
      if (id !== null) void openTimeline(id);
      reportOpenChat();
    }
  });

  // Leaving the inbox hides the open chat: the core must stop marking it read (and start again).
  useStore.subscribe((state, previous) => {
    if (state.view !== previous.view) reportOpenChat();
  });

  const onFocusChange = (): void => {
    const focused = document.hasFocus() && document.visibilityState === 'visible';
    if (getState().windowFocused === focused) return;
    getState().setWindowFocused(focused);
    reportOpenChat();
  };
  window.addEventListener('focus', onFocusChange);
  window.addEventListener('blur', onFocusChange);
  document.addEventListener('visibilitychange', () => {
    onFocusChange();
    if (document.visibilityState === 'hidden') flushDrafts();
  });
  window.addEventListener('pagehide', flushDrafts);

  // Electron denies new windows: web links in messages go to the system browser through the host's
  // allowlisted opener instead. The browser host lets the page open them itself (noopener).
  if (bridgeHost === 'electron') {
    document.addEventListener('click', (event) => {
      const link = (event.target as Element | null)?.closest?.('a[target="_blank"]');
      if (!(link instanceof HTMLAnchorElement)) return;
      event.preventDefault();
      void parley.app.openExternal({ url: link.href }).catch(() => undefined);
    });
  }

  void loadWorkspaces();
  void loadWorkspaceData();
  loadStorageStatus();
}

/** `storage.status` events heard so far: an answer asked for before the latest event is stale. */
let storageEvents = 0;

/**
 * The store's current trouble (full disk…), for a page that was not listening when it began: the
 * events only tell changes. A failed ask leaves the banner as the events set it.
 */
function loadStorageStatus(): void {
  const asked = storageEvents;
  void parley.app
    .storageStatus()
    .then((status) => {
      if (storageEvents === asked) getState().setStorageStatus(status);
    })
    .catch(() => undefined);
}
