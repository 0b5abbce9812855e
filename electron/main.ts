/**
 * Parley's Electron main process: the composition root. It only wires the host-agnostic core
 * (electron/core) to Electron's pieces (electron/hosts/electron); the behaviour lives in those
 * modules. Bundled to dist/electron/main.js by `npm run build:electron` (Electron runs JavaScript).
 */
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import ElectronStore from 'electron-store';
import type { EventName, Events } from '../shared/contract/events.ts';
import type { IncomingNotice } from '../shared/contract/views.ts';
import { AppCore, KeyringVault, markChatRead } from './core/index.ts';
import { createLogger } from './core/log/logger.ts';
import { EmbeddedDemoSandbox } from './hosts/demo-sandbox.ts';
import { boundHeapGrowth, boundPageHeap } from './hosts/heap.ts';
import { APP_SCHEME } from './hosts/electron/channels.ts';
import { createFilePort } from './hosts/electron/files.ts';
import { registerBridgeIpc, sendBridgeEvent } from './hosts/electron/ipc.ts';
import { claimSingleInstance, stopBeforeQuit } from './hosts/electron/lifecycle.ts';
import { menuTemplate } from './hosts/electron/menu.ts';
import { replyThroughContract } from './hosts/electron/notification-reply.ts';
import { createNativeNotifier } from './hosts/electron/notifications.ts';
import { createQuickReplyOpener } from './hosts/electron/quick-reply.ts';
import { createAppProtocolHandler, registerAppScheme } from './hosts/electron/protocol.ts';
import { openElectronSettings } from './hosts/electron/settings-store.ts';
import { UnreadIndicator } from './hosts/electron/unread.ts';
import { hardenSession, hardenWebContents, openExternalSafely } from './hosts/electron/web-security.ts';
import { createMainWindow } from './hosts/electron/window.ts';

const log = createLogger('electron-app');

/** Events after which the unread count may have changed. */
const UNREAD_EVENTS: ReadonlySet<EventName> = new Set([
  'chats.changed',
  'chats.removed',
  'workspaces.changed',
]);

// A first sync's garbage would otherwise let the heap grow far past its working set; the page's
// renderers give back what their collections free.
boundHeapGrowth();
boundPageHeap(app.commandLine);

// Before `ready`: the scheme's privileges, and the name that picks the userData folder.
registerAppScheme(protocol);
app.setName('Parley');
// Windows shows notifications only for an app with an AppUserModelID (the installer's appId).
if (process.platform === 'win32') app.setAppUserModelId('app.parley.desktop');

let mainWindow: BrowserWindow | undefined;
let core: AppCore | undefined;
let unread: UnreadIndicator | undefined;
const appContents = new Set<number>();

const liveWindow = (): BrowserWindow | undefined =>
  mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined;

function showWindow(): void {
  const window = liveWindow() ?? openWindow();
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function openWindow(): BrowserWindow {
  if (!core) throw new Error('the core is not running');
  const window = createMainWindow({
    BrowserWindow,
    workAreas: [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((display) => display.workArea),
    settings: core.options.settings,
    preloadPath: join(app.getAppPath(), 'dist', 'electron', 'preload.cjs'),
    title: 'Parley',
  });
  const id = window.webContents.id;
  appContents.add(id);
  window.on('closed', () => appContents.delete(id));
  mainWindow = window;
  return window;
}

function emit<E extends EventName>(event: E, payload: Events[E]): void {
  const window = liveWindow();
  sendBridgeEvent(window ? [window.webContents] : [], event, payload);
  if (event === 'notification.incoming') notify(payload as IncomingNotice);
  if (UNREAD_EVENTS.has(event)) scheduleUnreadUpdate();
}

/**
 * Sends the renderer a request (open a chat, run a menu command). A window that showWindow just had
 * to create is still loading: the request waits for the page (and so its bridge listeners), or it
 * would be lost.
 */
function sendWhenLoaded<E extends 'app.openChat' | 'app.command'>(event: E, payload: Events[E]): void {
  const contents = liveWindow()?.webContents;
  if (contents?.isLoading()) contents.once('did-finish-load', () => emit(event, payload));
  else emit(event, payload);
}

const openQuickReply = createQuickReplyOpener({
  BrowserWindow,
  preloadPath: join(app.getAppPath(), 'dist', 'electron', 'preload.cjs'),
  adopt: (window) => {
    const id = window.webContents.id;
    appContents.add(id);
    window.on('closed', () => appContents.delete(id));
  },
});

/** A notification's reply goes through the contract method the quick-reply window calls. */
const replyFromNotification = replyThroughContract(
  () => core?.dispatch,
  (error) =>
    log.warn('a reply from a notification was not sent', { code: error.code, reason: error.message }),
);

const notify = createNativeNotifier({
  Notification,
  platform: process.platform,
  preferences: () =>
    core?.options.settings.get().notifications ?? { enabled: false, showPreview: false, sound: false },
  focusWindow: showWindow,
  openChat: (chatId) => sendWhenLoaded('app.openChat', { chatId }),
  reply: (chatId, text) => void replyFromNotification(chatId, text),
  markRead: (chatId) => {
    if (core) void markChatRead(core.session, chatId);
  },
  openQuickReply,
});

let unreadTimer: NodeJS.Timeout | undefined;
function scheduleUnreadUpdate(): void {
  // Chats change in bursts during a sync: count once the burst settles.
  clearTimeout(unreadTimer);
  unreadTimer = setTimeout(() => unread?.update(core?.unreadTotal() ?? 0), 250);
}

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  const settings = openElectronSettings(ElectronStore, dataDir);
  const openExternal = (url: string): void => {
    void openExternalSafely(shell, url).catch((error: unknown) =>
      log.warn('could not open a link', { error: String(error) }),
    );
  };
  core = await AppCore.start({
    dataDir,
    host: 'electron',
    version: app.getVersion(),
    platform: process.platform,
    vault: new KeyringVault(),
    settings,
    ports: {
      openExternal: async (url) => {
        await openExternalSafely(shell, url);
      },
      openFile: createFilePort({ app, shell, dialog, window: liveWindow }),
    },
    emit,
    demo: new EmbeddedDemoSandbox(),
  });
  const running = core;
  stopBeforeQuit(app, async () => {
    // A count still pending (or one the stopping core causes) must not reach the destroyed tray:
    // Electron throws on a destroyed Tray, and in a timer that is an uncaught exception.
    clearTimeout(unreadTimer);
    unread?.destroy();
    unread = undefined;
    await running.stop();
  });

  hardenSession(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal));
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rendererDir: join(app.getAppPath(), 'dist', 'renderer'),
      attachment: (id) => running.attachmentFile(id),
      thumbnail: (id, scale, size) => running.attachmentThumbnail(id, scale, size),
      staged: (id) => {
        try {
          return running.session.staging.get(id);
        } catch {
          return undefined; // no workspace open: nothing is staged
        }
      },
    }),
  );
  registerBridgeIpc({
    ipcMain,
    dispatch: running.dispatch,
    isAppWebContents: (sender) => appContents.has(sender.id),
    staging: () => running.session.staging,
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        platform: process.platform,
        appName: app.getName(),
        developer: !app.isPackaged,
        command: (command) => {
          showWindow();
          sendWhenLoaded('app.command', { command });
        },
      }),
    ),
  );
  unread = new UnreadIndicator({
    app,
    Tray,
    Menu,
    nativeImage,
    platform: process.platform,
    window: liveWindow,
    showWindow,
    quit: () => app.quit(),
  });
  openWindow();
  scheduleUnreadUpdate();

  // macOS keeps apps running without windows; the dock icon brings the window back.
  app.on('activate', () => showWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

if (claimSingleInstance(app, () => (core ? showWindow() : undefined))) {
  start().catch((error: unknown) => {
    log.error('Parley could not start', { error: error instanceof Error ? error.message : String(error) });
    dialog.showErrorBox('Parley could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
} else {
  // Another Parley is running: it has been asked to come forward; this one leaves.
  app.quit();
}
