/**
 * The preload of Parley's window: runs sandboxed with context isolation, and exposes only
 * `window.parleyBridge` (invoke, subscribe, stageFile). Bundled to dist/electron/preload.cjs,
 * because a sandboxed preload can require nothing but 'electron'.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { exposeParleyBridge } from './hosts/electron/preload-bridge.ts';

exposeParleyBridge({ contextBridge, ipcRenderer, webUtils });
