/**
 * What the preload puts in the renderer: one object, `window.parleyBridge`, with three functions.
 * The renderer never sees `ipcRenderer` itself (a page holding it could send on any channel, e.g.
 * electron-store's); it can only invoke bridge methods and listen to bridge events.
 * The Electron pieces are passed in so the integration tests can run this against a faithful
 * in-process fake of contextBridge/ipcRenderer (see test/integration/bridge/).
 */
import { BRIDGE_GLOBAL, EVENT_CHANNEL, INVOKE_CHANNEL } from './channels.ts';

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
  pathForFile(file: File): string;
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
    pathForFile(file) {
      return webUtils.getPathForFile(file);
    },
  };
}

export function exposeParleyBridge(electron: PreloadElectron): void {
  electron.contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createParleyBridge(electron));
}
