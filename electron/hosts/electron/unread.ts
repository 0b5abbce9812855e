/**
 * The unread count outside the window: the dock/launcher badge (app.setBadgeCount: macOS dock and
 * Unity launchers), the taskbar overlay on Windows (which has no badge API), and the tray icon with
 * its tooltip (and its title next to the icon on macOS).
 */
import type { App, BrowserWindow, Menu, NativeImage, Tray } from 'electron';
import { ALERT, BLACK, BRAND, bubbleIcon, dotIcon, toBgra, type Bitmap } from './icons.ts';

export interface UnreadIndicatorOptions {
  app: Pick<App, 'setBadgeCount'>;
  Tray: typeof Tray;
  Menu: typeof Menu;
  nativeImage: {
    createFromBitmap(
      buffer: Buffer,
      options: { width: number; height: number; scaleFactor?: number },
    ): NativeImage;
  };
  platform: NodeJS.Platform;
  window(): BrowserWindow | undefined;
  showWindow(): void;
  quit(): void;
}

export function unreadLabel(count: number): string {
  if (count === 0) return 'Parley — no unread conversations';
  return `Parley — ${count} unread conversation${count === 1 ? '' : 's'}`;
}

export class UnreadIndicator {
  readonly #options: UnreadIndicatorOptions;
  readonly #tray: Tray;
  #count = -1;

  constructor(options: UnreadIndicatorOptions) {
    this.#options = options;
    this.#tray = new options.Tray(this.#trayImage(0));
    this.#tray.setContextMenu(
      options.Menu.buildFromTemplate([
        { label: 'Open Parley', click: () => options.showWindow() },
        { type: 'separator' },
        { label: 'Quit Parley', click: () => options.quit() },
      ]),
    );
    // macOS opens the context menu on click by itself; elsewhere a click means "show me Parley".
    if (options.platform !== 'darwin') this.#tray.on('click', () => options.showWindow());
    this.update(0);
  }

  update(count: number): void {
    if (count === this.#count) return;
    this.#count = count;
    const { app, platform } = this.#options;
    app.setBadgeCount(count);
    this.#tray.setToolTip(unreadLabel(count));
    if (platform === 'darwin') {
      this.#tray.setTitle(count > 0 ? String(count) : '');
    } else {
      this.#tray.setImage(this.#trayImage(count));
    }
    if (platform === 'win32') {
      const overlay = count > 0 ? this.#image(dotIcon(16, ALERT), 1) : null;
      this.#options.window()?.setOverlayIcon(overlay, count > 0 ? unreadLabel(count) : '');
    }
  }

  destroy(): void {
    this.#tray.destroy();
  }

  #trayImage(count: number): NativeImage {
    if (this.#options.platform === 'darwin') {
      // A template image: macOS tints it for light and dark menu bars. Drawn at 2x for Retina.
      const image = this.#image(bubbleIcon(32, BLACK), 2);
      image.setTemplateImage(true);
      return image;
    }
    return this.#image(bubbleIcon(32, BRAND, count > 0 ? { dot: ALERT } : {}), 1);
  }

  #image(bitmap: Bitmap, scaleFactor: number): NativeImage {
    return this.#options.nativeImage.createFromBitmap(toBgra(bitmap), {
      width: bitmap.width,
      height: bitmap.height,
      scaleFactor,
    });
  }
}
