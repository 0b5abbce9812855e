/**
 * The Electron stand-in's app, windows and invoke handlers, and the rules they keep: nothing
 * window-related before `ready`, one handler per invoke channel, a deferrable `before-quit`, quitting
 * closes the windows, then the process ends only once nothing the app started is left running.
 * Runs in Node directly (type stripping): erasable TypeScript only, and no imports from the app.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellMessage, ShellRecord } from './electron-stand-in-messages.ts';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`the Electron stand-in needs ${name}`);
  return value;
}

const appPath = env('PARLEY_STAND_IN_APP_PATH');
const userData = env('PARLEY_STAND_IN_USER_DATA');

export function tell(message: ShellMessage): void {
  if (process.connected) process.send?.(message);
}

export function record(entry: ShellRecord): void {
  tell({ type: 'record', record: entry });
}

export let isReady = false;
export function requireReady(what: string): void {
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
export const invokeHandlers = new Map<string, Listener>();

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
export const windows = new Set<StandInWindow>();

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
