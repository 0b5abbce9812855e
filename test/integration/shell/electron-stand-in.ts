/**
 * A recording stand-in for the `electron` module of the main process, for running the built
 * dist/electron/main.js in plain Node (register-electron-stand-in.ts maps `electron` here). It keeps
 * Electron's rules that a composition can break (nothing window-, tray-, screen- or session-related
 * before `ready`; schemes registered before it; one handler per invoke channel; `before-quit` can be
 * deferred; quitting closes the windows) and reports what the app did to the test over the IPC
 * channel of `child_process.fork`. The test drives it back: invoke a channel as the window's page
 * would, or quit as the menu would.
 * Runs in Node directly (type stripping): erasable TypeScript only, and no imports from the app.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One thing the app did, as the test sees it. */
export type ShellRecord =
  | { kind: 'ready' }
  | { kind: 'command-line-switch'; name: string; value: string | undefined }
  | { kind: 'scheme-privileges'; schemes: string[] }
  | { kind: 'protocol-handler'; scheme: string }
  | { kind: 'ipc-handler'; channel: string }
  | { kind: 'window'; id: number; options: unknown }
  | { kind: 'load-url'; id: number; url: string }
  | { kind: 'send'; id: number; channel: string; args: unknown[] }
  | { kind: 'notification'; title: string; body: string; silent: boolean }
  | { kind: 'session-hardened'; what: string }
  | { kind: 'web-contents-hardened'; id: number; what: string }
  | { kind: 'menu'; labels: string[] }
  | { kind: 'tray'; tooltip: string }
  | { kind: 'error-box'; title: string; content: string }
  | { kind: 'quit'; exitCode: number }
  | { kind: 'exit'; exitCode: number };

/** What the test sends. */
export type ShellCommand =
  { type: 'invoke'; id: number; channel: string; args: unknown[] } | { type: 'quit' };

/** What the stand-in sends. */
export type ShellMessage =
  | { type: 'record'; record: ShellRecord }
  | { type: 'invoked'; id: number; ok: true; value: unknown }
  | { type: 'invoked'; id: number; ok: false; error: string };

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`the Electron stand-in needs ${name}`);
  return value;
}

const appPath = env('PARLEY_STAND_IN_APP_PATH');
const userData = env('PARLEY_STAND_IN_USER_DATA');

function tell(message: ShellMessage): void {
  if (process.connected) process.send?.(message);
}

function record(entry: ShellRecord): void {
  tell({ type: 'record', record: entry });
}

let isReady = false;
function requireReady(what: string): void {
  if (!isReady) throw new Error(`${what} cannot be used before the app is ready`);
}

/** An Electron event whose default action the listener may prevent. */
function preventable(): { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

type Listener = (...args: unknown[]) => unknown;

/** The one invoke handler per channel (Electron throws on a second). */
const invokeHandlers = new Map<string, Listener>();

export const ipcMain = Object.assign(new EventEmitter(), {
  handle(channel: string, listener: Listener): void {
    if (invokeHandlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    invokeHandlers.set(channel, listener);
    record({ kind: 'ipc-handler', channel });
  },
  removeHandler(channel: string): void {
    invokeHandlers.delete(channel);
  },
});

let nextId = 1;
const windows = new Set<StandInWindow>();

class StandInWebContents extends EventEmitter {
  readonly id = nextId++;
  #url = '';
  #loading = false;
  #destroyed = false;

  getURL(): string {
    if (this.isDestroyed()) throw new Error('Object has been destroyed');
    return this.#url;
  }

  isLoading(): boolean {
    return this.#loading;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  setWindowOpenHandler(handler: unknown): void {
    if (typeof handler !== 'function') throw new TypeError('setWindowOpenHandler needs a function');
    record({ kind: 'web-contents-hardened', id: this.id, what: 'window-open' });
  }

  override on(event: string | symbol, listener: Listener): this {
    if (event === 'will-navigate' || event === 'will-redirect' || event === 'will-attach-webview')
      record({ kind: 'web-contents-hardened', id: this.id, what: String(event) });
    return super.on(event, listener);
  }

  send(channel: string, ...args: unknown[]): void {
    if (this.#destroyed) throw new Error('Object has been destroyed');
    // Electron serializes what it sends: anything that cannot be cloned fails here, as it would there.
    record({ kind: 'send', id: this.id, channel, args: structuredClone(args) });
  }

  async load(url: string): Promise<void> {
    this.#url = url;
    this.#loading = true;
    await new Promise((resolve) => setImmediate(resolve));
    if (this.#destroyed) return;
    this.#loading = false;
    this.emit('did-finish-load');
  }

  destroy(): void {
    this.#destroyed = true;
  }
}

class StandInWindow extends EventEmitter {
  readonly webContents = new StandInWebContents();
  readonly id = this.webContents.id;
  #destroyed = false;
  #visible = false;
  #bounds: { x: number; y: number; width: number; height: number };

  constructor(options: { width?: number; height?: number; x?: number; y?: number } = {}) {
    super();
    requireReady('BrowserWindow');
    this.#bounds = {
      x: options.x ?? 0,
      y: options.y ?? 0,
      width: options.width ?? 800,
      height: options.height ?? 600,
    };
    windows.add(this);
    record({ kind: 'window', id: this.id, options: structuredClone(options) });
    app.emit('browser-window-created', preventable(), this);
    app.emit('web-contents-created', preventable(), this.webContents);
  }

  async loadURL(url: string): Promise<void> {
    record({ kind: 'load-url', id: this.id, url });
    await this.webContents.load(url);
    if (!this.#destroyed) this.emit('ready-to-show');
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }
  /** Electron's BrowserWindow throws on any use once destroyed. */
  #alive(): void {
    if (this.#destroyed) throw new Error('Object has been destroyed');
  }
  isMinimized(): boolean {
    this.#alive();
    return false;
  }
  isMaximized(): boolean {
    this.#alive();
    return false;
  }
  isFullScreen(): boolean {
    this.#alive();
    return false;
  }
  isVisible(): boolean {
    this.#alive();
    return this.#visible;
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    this.#alive();
    return { ...this.#bounds };
  }
  show(): void {
    this.#alive();
    this.#visible = true;
  }
  focus(): void {
    this.#alive();
  }
  restore(): void {
    this.#alive();
  }
  maximize(): void {
    this.#alive();
  }
  setOverlayIcon(): void {
    this.#alive();
  }

  /** What quitting does to each window: 'close' (the app may save its state), then 'closed'. */
  close(): void {
    if (this.#destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.#destroyed = true;
    this.webContents.destroy();
    windows.delete(this);
    this.emit('closed');
  }

  static getAllWindows(): StandInWindow[] {
    return [...windows];
  }
}

export const BrowserWindow = StandInWindow;

let quitting = false;

export const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  setName(name: string): void {
    appName = name;
  },
  getName(): string {
    return appName;
  },
  getVersion(): string {
    return (JSON.parse(readFileSync(join(appPath, 'package.json'), 'utf8')) as { version: string }).version;
  },
  getAppPath(): string {
    return appPath;
  },
  getPath(name: string): string {
    if (name === 'userData') return userData;
    return join(userData, `.${name}`);
  },
  setAppUserModelId(): void {},
  /** Switches for the processes Chromium starts (its renderers): only before `ready` in Electron. */
  commandLine: {
    appendSwitch(name: string, value?: string): void {
      if (isReady) throw new Error('commandLine.appendSwitch after ready reaches no renderer');
      record({ kind: 'command-line-switch', name, value });
    },
  },
  setBadgeCount(): boolean {
    return true;
  },
  requestSingleInstanceLock(): boolean {
    return true;
  },
  isReady(): boolean {
    return isReady;
  },
  whenReady(): Promise<void> {
    return readyPromise;
  },
  /** Electron's quit: `before-quit` (deferrable), the windows close, `will-quit`, `quit`, exit. */
  quit(): void {
    if (quitting) return;
    const beforeQuit = preventable();
    app.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    for (const window of [...windows]) window.close();
    if (windows.size > 0) return;
    const willQuit = preventable();
    app.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    quitting = true;
    app.emit('quit', preventable(), 0);
    end(0);
  },
  /** Electron's exit: at once, no events, nothing waited for. */
  exit(code = 0): void {
    quitting = true;
    const entry: ShellMessage = { type: 'record', record: { kind: 'exit', exitCode: code } };
    if (process.connected) process.send?.(entry, () => process.exit(code));
    else process.exit(code);
  },
});
let appName = 'Electron';

/**
 * Electron ends the process here. The stand-in leaves that to Node instead: the process ends only
 * once nothing the app started is still running, so a leftover (a server, a timer, a database) shows
 * as a process that does not exit; after a grace period the stand-in names what is left and fails.
 */
function end(code: number): void {
  record({ kind: 'quit', exitCode: code });
  process.exitCode = code;
  setTimeout(() => {
    process.stderr.write(
      `stand-in: still running after quit: ${process.getActiveResourcesInfo().join(', ')}\n`,
    );
    process.exit(70);
  }, 5_000).unref();
  process.disconnect();
}

let markReady: () => void = () => undefined;
const readyPromise = new Promise<void>((resolve) => {
  markReady = resolve;
});
// Electron is ready once the main script has run its first turn.
setImmediate(() => {
  isReady = true;
  record({ kind: 'ready' });
  app.emit('ready', preventable(), {});
  markReady();
});

export const protocol = {
  registerSchemesAsPrivileged(schemes: Array<{ scheme: string }>): void {
    if (isReady) throw new Error('registerSchemesAsPrivileged should be called before app is ready');
    record({ kind: 'scheme-privileges', schemes: schemes.map((s) => s.scheme) });
  },
  handle(scheme: string, handler: unknown): void {
    requireReady('protocol.handle');
    if (typeof handler !== 'function') throw new TypeError('protocol.handle needs a function');
    record({ kind: 'protocol-handler', scheme });
  },
};

export const screen = {
  getPrimaryDisplay() {
    requireReady("The 'screen' module");
    return { workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
  },
  getAllDisplays() {
    requireReady("The 'screen' module");
    return [{ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }];
  },
};

export const session = {
  get defaultSession() {
    requireReady('session.defaultSession');
    const hardened = (what: string) => (handler: unknown) => {
      if (typeof handler !== 'function') throw new TypeError(`${what} needs a function`);
      record({ kind: 'session-hardened', what });
    };
    return {
      setPermissionRequestHandler: hardened('permission-request'),
      setPermissionCheckHandler: hardened('permission-check'),
      webRequest: {
        onBeforeRequest(filter: { urls: string[] }, handler: unknown) {
          if (filter.urls.length === 0) throw new TypeError('onBeforeRequest needs URLs');
          hardened('before-request')(handler);
        },
      },
    };
  },
};

interface MenuItemOptions {
  label?: string;
  role?: string;
  submenu?: MenuItemOptions[];
}

export const Menu = {
  buildFromTemplate(template: MenuItemOptions[]) {
    return { items: template };
  },
  setApplicationMenu(menu: { items: MenuItemOptions[] }): void {
    requireReady('Menu.setApplicationMenu');
    record({ kind: 'menu', labels: menu.items.map((item) => item.label ?? item.role ?? '') });
  },
};

export const nativeImage = {
  createFromBitmap(buffer: Buffer, options: { width: number; height: number; scaleFactor?: number }) {
    if (buffer.length !== options.width * options.height * 4)
      throw new Error('invalid buffer size for the bitmap');
    return { setTemplateImage() {}, isEmpty: () => false };
  },
};

export class Tray extends EventEmitter {
  #destroyed = false;

  constructor(_image: unknown) {
    super();
    requireReady('Tray');
  }
  /** Electron's Tray throws once destroyed (CheckAlive): a late update after quit would crash. */
  #alive(): void {
    if (this.#destroyed) throw new Error('Tray is destroyed');
  }
  setContextMenu(): void {
    this.#alive();
  }
  setToolTip(tooltip: string): void {
    this.#alive();
    record({ kind: 'tray', tooltip });
  }
  setTitle(): void {
    this.#alive();
  }
  setImage(): void {
    this.#alive();
  }
  isDestroyed(): boolean {
    return this.#destroyed;
  }
  destroy(): void {
    this.#destroyed = true;
  }
}

export class Notification extends EventEmitter {
  readonly #options: { title: string; body: string; silent: boolean };

  constructor(options: { title: string; body?: string; silent?: boolean }) {
    super();
    requireReady('Notification');
    this.#options = { title: options.title, body: options.body ?? '', silent: options.silent ?? false };
  }

  static isSupported(): boolean {
    return true;
  }

  show(): void {
    record({ kind: 'notification', ...this.#options });
  }
}

export const shell = {
  async openExternal(): Promise<void> {},
  async openPath(): Promise<string> {
    return '';
  },
};

export const dialog = {
  showErrorBox(title: string, content: string): void {
    record({ kind: 'error-box', title, content });
  },
  async showSaveDialog() {
    return { canceled: true, filePath: '' };
  },
};

/** The test's side: a call from the window's page, or a quit. */
process.on('message', (command: ShellCommand) => {
  if (command.type === 'quit') {
    app.quit();
    return;
  }
  const [window] = windows;
  const handler = invokeHandlers.get(command.channel);
  const reply = async (): Promise<unknown> => {
    if (!window) throw new Error('no window to call from');
    if (!handler) throw new Error(`No handler registered for '${command.channel}'`);
    const event = {
      sender: window.webContents,
      senderFrame: { url: window.webContents.getURL(), parent: null },
      processId: 1,
      frameId: 1,
    };
    return structuredClone(await handler(event, ...structuredClone(command.args)));
  };
  reply().then(
    (value) => tell({ type: 'invoked', id: command.id, ok: true, value }),
    (error: unknown) => tell({ type: 'invoked', id: command.id, ok: false, error: String(error) }),
  );
});

export default {
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
};
