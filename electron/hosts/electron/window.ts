/**
 * Parley's window: locked-down webPreferences, restored to where the user left it (settings.window),
 * and its bounds saved again as they change.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions, Rectangle } from 'electron';
import type { SettingsStore, WindowSettings } from '../../core/index.ts';
import { APP_ENTRY_URL } from './channels.ts';

/** The schema's lower bounds for saved sizes (settings/schema.ts). */
const MIN_WIDTH = 400;
const MIN_HEIGHT = 300;
/** How much of a saved window must be on some screen for it to open there again. */
const MIN_VISIBLE = 64;

/**
 * Where the window opens: its saved bounds when enough of them is on a screen that exists now,
 * otherwise the saved size (capped to the primary work area) and let the OS place it. A monitor
 * unplugged since last time must not leave the window off screen.
 */
export function restoredBounds(
  saved: WindowSettings['bounds'],
  workAreas: readonly Rectangle[],
): { x?: number; y?: number; width: number; height: number } {
  const primary = workAreas[0];
  const width = Math.max(MIN_WIDTH, primary ? Math.min(saved.width, primary.width) : saved.width);
  const height = Math.max(MIN_HEIGHT, primary ? Math.min(saved.height, primary.height) : saved.height);
  if (saved.x === undefined || saved.y === undefined) return { width, height };
  const rect = { x: saved.x, y: saved.y, width, height };
  const visible = workAreas.some((area) => overlap(rect, area) >= MIN_VISIBLE);
  return visible ? rect : { width, height };
}

function overlap(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return Math.min(w, h);
}

export interface MainWindowOptions {
  BrowserWindow: typeof BrowserWindow;
  workAreas: readonly Rectangle[];
  settings: SettingsStore;
  /** dist/electron/preload.cjs */
  preloadPath: string;
  title: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const state = options.settings.get().window;
  const window = new options.BrowserWindow({
    ...restoredBounds(state.bounds, options.workAreas),
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: options.title,
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: lockedDownPreferences(options.preloadPath),
  });
  if (state.maximized) window.maximize();
  // Shown once painted, so the user never sees an empty white frame.
  window.once('ready-to-show', () => window.show());
  trackWindowState(window, options.settings);
  void window.loadURL(APP_ENTRY_URL);
  return window;
}

export function lockedDownPreferences(preload: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    // A file dropped outside the composer must not turn the window into a file:// page.
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: true,
  };
}

/** Saves bounds and maximized state when they settle, and when the window closes. */
function trackWindowState(window: BrowserWindow, settings: SettingsStore): void {
  let timer: NodeJS.Timeout | undefined;
  const save = (): void => {
    clearTimeout(timer);
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
    // Normal bounds: a maximized window remembers the size it returns to.
    const { x, y, width, height } = window.getNormalBounds();
    settings.update({
      window: {
        bounds: { x, y, width: Math.max(MIN_WIDTH, width), height: Math.max(MIN_HEIGHT, height) },
        maximized: window.isMaximized(),
      },
    });
  };
  const later = (): void => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('maximize', later);
  window.on('unmaximize', later);
  window.on('close', save);
}
