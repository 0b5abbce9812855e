/**
 * The Electron stand-in's other modules (protocol, screen, session, menus, tray, notifications,
 * shell, dialogs): each refuses what Electron refuses before `ready` and records what the app did.
 * Runs in Node directly (type stripping): erasable TypeScript only, and no imports from the app.
 */
import { EventEmitter } from 'node:events';
import { isReady, record, requireReady } from './electron-stand-in-app.ts';

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
