/**
 * What the preload puts in the renderer: one object, `window.parleyBridge`, with three functions.
 * Files are staged by handing over the File itself (`stageFile`): the path is read here, in the
 * isolated world, from the File the OS gave the page; the page never sees a path and cannot name one
 * (a File it builds itself has none, so only its bytes are sent).
 * The renderer never sees `ipcRenderer` itself (a page holding it could send on any channel, e.g.
 * electron-store's); it can only invoke bridge methods and listen to bridge events.
 * The Electron pieces are passed in so the integration tests can run this against a faithful
 * in-process fake of contextBridge/ipcRenderer (see test/integration/bridge/).
 */
import { BRIDGE_GLOBAL, EVENT_CHANNEL, INVOKE_CHANNEL, STAGE_CHANNEL } from './channels.ts';

/** The subset of Electron's renderer-side modules the preload uses. */
export interface PreloadElectron {
  contextBridge: { exposeInMainWorld(apiKey: string, api: unknown): void };
  ipcRenderer: {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
    removeListener(channel: string, listener: (...args: unknown[]) => void): unknown;
  };
  webUtils: { getPathForFile(file: File): string };
}

/** The object the renderer gets (renderer/bridge/transports.ts `ElectronBridge`). */
export interface ParleyBridge {
  invoke(method: string, input: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  /** Stages a file the user dropped, picked or pasted; answers like `invoke`. */
  stageFile(file: File): Promise<unknown>;
}

export function createParleyBridge({ ipcRenderer, webUtils }: PreloadElectron): ParleyBridge {
  return {
    invoke(method, input) {
      // Only the method name and its input cross: the main process validates both.
      return ipcRenderer.invoke(INVOKE_CHANNEL, String(method), input);
    },
    subscribe(listener) {
      // The IPC event object (it carries `sender`, the ipcRenderer) must not reach the page.
      const forward = (_event: unknown, name: unknown, payload: unknown): void => {
        if (typeof name === 'string') listener(name, payload);
      };
      ipcRenderer.on(EVENT_CHANNEL, forward as (event: unknown, ...args: unknown[]) => void);
      return () => {
        ipcRenderer.removeListener(EVENT_CHANNEL, forward as (...args: unknown[]) => void);
      };
    },
    async stageFile(file) {
      if (!(file instanceof File)) throw new TypeError('stageFile takes a File');
      const path = webUtils.getPathForFile(file);
      if (path) return ipcRenderer.invoke(STAGE_CHANNEL, { path });
      return ipcRenderer.invoke(STAGE_CHANNEL, {
        filename: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
    },
  };
}

export function exposeParleyBridge(electron: PreloadElectron): void {
  electron.contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createParleyBridge(electron));
}
