/**
 * An in-process stand-in for the parts of Electron the bridge uses, faithful where the bridge could
 * go wrong: contextBridge copies values between worlds (functions proxied, everything else copied
 * and frozen, prototypes dropped), ipcRenderer.invoke ↔ ipcMain.handle structured-clone their
 * arguments and results across an asynchronous hop and carry the sender's webContents and frame,
 * a second handler on one channel throws, and webContents.send reaches ipcRenderer listeners.
 * The real electron/preload.ts and electron/hosts/electron/ipc.ts run against it.
 */
import type { PreloadElectron } from '../../../electron/hosts/electron/preload-bridge.ts';

type Handler = (event: FakeInvokeEvent, ...args: unknown[]) => unknown;
type Listener = (event: unknown, ...args: unknown[]) => void;

export interface FakeFrame {
  url: string;
  /** null for a top frame, as in Electron's WebFrameMain. */
  parent: FakeFrame | null;
}

export interface FakeInvokeEvent {
  sender: FakeWebContents;
  senderFrame: FakeFrame | null;
  processId: number;
  frameId: number;
}

/** A process hop: IPC is never synchronous. */
const hop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class FakeIpcMain {
  readonly #handlers = new Map<string, Handler>();
  /** Every invoke that reached the main process, in order: [channel, ...args]. */
  readonly received: unknown[][] = [];

  handle(channel: string, listener: Handler): void {
    if (this.#handlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    this.#handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.#handlers.delete(channel);
  }

  async invoke(event: FakeInvokeEvent, channel: string, args: unknown[]): Promise<unknown> {
    this.received.push([channel, ...args]);
    const handler = this.#handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }
}

let nextId = 1;

/** One renderer: its webContents (main side) and its preload's Electron modules (renderer side). */
export class FakeWebContents {
  readonly id = nextId++;
  readonly mainFrame: FakeFrame;
  /** The page's `window` as the main world sees it. */
  readonly mainWorld: Record<string, unknown> = {};
  /** Files as the OS gave them to the page (drag-and-drop, file picker): File → path on disk. */
  readonly droppedFiles = new WeakMap<Blob, string>();
  readonly #ipcMain: FakeIpcMain;
  readonly #listeners = new Map<string, Set<Listener>>();
  #destroyed = false;
  /** The frame that makes the next IPC calls (a compromised renderer could use any of its frames). */
  callingFrame: FakeFrame | null;

  constructor(ipcMain: FakeIpcMain, url: string) {
    this.#ipcMain = ipcMain;
    this.mainFrame = { url, parent: null };
    this.callingFrame = this.mainFrame;
  }

  /** The page went elsewhere (what will-navigate exists to prevent). */
  navigate(url: string): void {
    this.mainFrame.url = url;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  destroy(): void {
    this.#destroyed = true;
  }

  /** webContents.send: main → renderer, structured-cloned, delivered after a hop. */
  send(channel: string, ...args: unknown[]): void {
    const copies = structuredClone(args);
    void hop().then(() => {
      for (const listener of this.#listeners.get(channel) ?? [])
        listener({ sender: this.ipcRenderer }, ...copies);
    });
  }

  readonly ipcRenderer: PreloadElectron['ipcRenderer'] = {
    invoke: async (channel: string, ...args: unknown[]) => {
      // Electron serializes at the call: a function or a class with private state cannot cross.
      const copies = structuredClone(args);
      await hop();
      const event: FakeInvokeEvent = {
        sender: this,
        senderFrame: this.callingFrame,
        processId: 1,
        frameId: 1,
      };
      let result: unknown;
      try {
        result = await this.#ipcMain.invoke(event, channel, copies);
      } catch (error) {
        throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, { cause: error });
      }
      await hop();
      return structuredClone(result);
    },
    on: (channel: string, listener: Listener) => {
      let set = this.#listeners.get(channel);
      if (!set) this.#listeners.set(channel, (set = new Set()));
      set.add(listener);
      return this.ipcRenderer;
    },
    removeListener: (channel: string, listener: Listener) => {
      this.#listeners.get(channel)?.delete(listener);
      return this.ipcRenderer;
    },
  };

  readonly contextBridge: PreloadElectron['contextBridge'] = {
    exposeInMainWorld: (apiKey: string, api: unknown) => {
      if (apiKey in this.mainWorld) {
        throw new Error('Cannot bind an API on top of an existing property on the window object');
      }
      this.mainWorld[apiKey] = crossWorlds(api);
    },
  };

  readonly webUtils: PreloadElectron['webUtils'] = {
    // Electron answers '' for a File that did not come from the file system.
    getPathForFile: (file: File) => this.droppedFiles.get(file) ?? '',
  };

  listenerCount(channel: string): number {
    return this.#listeners.get(channel)?.size ?? 0;
  }
}

/**
 * contextBridge's copy between the isolated and the main world: functions are proxied (their
 * arguments and results copied again on each call, promises settled with copies), plain data is
 * copied and frozen, class instances lose their prototype, symbols are dropped, and errors arrive
 * as new Errors with the same message. Blobs/Files keep their identity (Electron copies them by
 * reference to the same underlying file, which is what webUtils.getPathForFile relies on).
 */
export function crossWorlds(value: unknown): unknown {
  if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      let result: unknown;
      try {
        result = fn(...args.map(crossWorlds));
      } catch (error) {
        throw copyError(error);
      }
      return crossWorlds(result);
    };
  }
  if (value instanceof Promise) {
    return value.then(crossWorlds, (error: unknown) => Promise.reject(copyError(error)));
  }
  if (value instanceof Blob) return value;
  if (value instanceof Error) return copyError(value);
  if (typeof value === 'symbol') return undefined;
  if (Array.isArray(value)) return Object.freeze(value.map(crossWorlds));
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null && isCloneable(value)) return structuredClone(value);
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner !== 'symbol') copy[key] = crossWorlds(inner);
    }
    return Object.freeze(copy);
  }
  return value;
}

function isCloneable(value: object): boolean {
  return (
    value instanceof Date ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof RegExp ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value)
  );
}

function copyError(error: unknown): Error {
  return new Error(error instanceof Error ? error.message : String(error));
}
