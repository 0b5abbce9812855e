/**
 * The Electron shell's guard rails that run without the Electron runtime: the navigation /
 * window-open / permission policies (against stand-ins for webContents and session), where a window
 * reopens, the menu, which received files may be opened with one click, and the settings file. The
 * app-owned protocol: electron-protocol.test.ts.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Session, WebContents } from 'electron';
import Conf from 'conf';
import { afterAll, describe, expect, it } from 'vitest';
import { settingsDefaults, type Settings } from '../../../electron/core/settings/index.ts';
import { APP_ENTRY_URL } from '../../../electron/hosts/electron/channels.ts';
import { isViewable, safeFilename } from '../../../electron/hosts/electron/files.ts';
import { menuTemplate, type AppCommand } from '../../../electron/hosts/electron/menu.ts';
import {
  hardenSession,
  hardenWebContents,
  openExternalSafely,
} from '../../../electron/hosts/electron/web-security.ts';
import { openElectronSettings } from '../../../electron/hosts/electron/settings-store.ts';
import { restoredBounds } from '../../../electron/hosts/electron/window.ts';
import { tempDir } from '../core/helpers.ts';

const dir = tempDir('parley-electron-shell-');

afterAll(() => dir.remove());

class FakeContents extends EventEmitter {
  url = APP_ENTRY_URL;
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  getURL(): string {
    return this.url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  /** Emits a cancellable event; returns whether the handler prevented it. */
  attempt(event: string, url?: string): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

describe('navigation and new windows', () => {
  const opened: string[] = [];
  const contents = new FakeContents();
  const shell = { openExternal: async (url: string) => void opened.push(url) };
  hardenWebContents(contents as unknown as WebContents, (url) => void openExternalSafely(shell, url));

  it('never lets the window navigate away; allowed links go to the system browser instead', async () => {
    expect(contents.attempt('will-navigate', 'https://example.com/page')).toBe(true);
    expect(contents.attempt('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(contents.attempt('will-navigate', 'file:///etc/passwd')).toBe(true);
    await Promise.resolve();
    expect(opened).toEqual(['https://example.com/page']);
  });

  it('lets the app reload itself', () => {
    expect(contents.attempt('will-navigate', 'parley://app/index.html')).toBe(false);
  });

  it('blocks redirects away from the app and embedded webviews', () => {
    expect(contents.attempt('will-redirect', 'https://example.com/')).toBe(true);
    expect(contents.attempt('will-attach-webview')).toBe(true);
  });

  it('denies every window.open, routing http, https and mailto through the allowlist', async () => {
    opened.length = 0;
    for (const url of [
      'https://example.com/a',
      'mailto:ann@example.com',
      'ftp://example.com/',
      'parley://app/',
    ]) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(contents.openHandler?.({ url: 'https://user:pw@example.com/' })).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(opened).toEqual(['https://example.com/a', 'mailto:ann@example.com']);
  });
});

describe('permissions and the renderer’s own requests', () => {
  type RequestHandler = (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: { requestingUrl?: string },
  ) => void;
  type CheckHandler = (contents: unknown, permission: string, origin: string) => boolean;
  type BeforeRequest = (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void;
  const session = {
    request: undefined as RequestHandler | undefined,
    check: undefined as CheckHandler | undefined,
    beforeRequest: undefined as BeforeRequest | undefined,
    filter: [] as string[],
    setPermissionRequestHandler(handler: RequestHandler) {
      this.request = handler;
    },
    setPermissionCheckHandler(handler: CheckHandler) {
      this.check = handler;
    },
    webRequest: {
      onBeforeRequest: (filter: { urls: string[] }, handler: BeforeRequest) => {
        session.filter = filter.urls;
        session.beforeRequest = handler;
      },
    },
  };
  hardenSession(session as unknown as Session);
  const contents = { getURL: () => APP_ENTRY_URL };
  const asks = (permission: string, requestingUrl = APP_ENTRY_URL) =>
    new Promise<boolean>((resolve) => session.request?.(contents, permission, resolve, { requestingUrl }));

  it('grants notifications to the app and nothing else to anyone', async () => {
    expect(await asks('notifications')).toBe(true);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'hid', 'fullscreen'])
      expect(await asks(permission), permission).toBe(false);
    expect(await asks('notifications', 'https://evil.example/')).toBe(false);
    expect(session.check?.(contents, 'notifications', 'parley://app')).toBe(true);
    expect(session.check?.(contents, 'notifications', 'https://evil.example')).toBe(false);
    expect(session.check?.(contents, 'media', 'parley://app')).toBe(false);
  });

  it('cancels every network request the renderer makes itself', () => {
    expect(session.filter).toEqual(
      expect.arrayContaining(['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'file://*/*']),
    );
    let cancelled: boolean | undefined;
    session.beforeRequest?.(
      { url: 'https://tracker.example/pixel.gif' },
      (response) => (cancelled = response.cancel),
    );
    expect(cancelled).toBe(true);
  });
});

describe('window state', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1040 };

  it('reopens where it was when that place is still on a screen', () => {
    expect(restoredBounds({ x: 100, y: 80, width: 1200, height: 800 }, [screen])).toEqual({
      x: 100,
      y: 80,
      width: 1200,
      height: 800,
    });
  });

  it('lets the OS place it when its screen is gone, keeping the size within the work area', () => {
    const secondMonitor = { x: 2200, y: 100, width: 1200, height: 800 };
    expect(restoredBounds(secondMonitor, [screen])).toEqual({ width: 1200, height: 800 });
    expect(restoredBounds({ width: 4000, height: 3000 }, [screen])).toEqual({ width: 1920, height: 1040 });
  });
});

describe('the application menu', () => {
  const items = (platform: NodeJS.Platform) => {
    const commands: AppCommand[] = [];
    const template = menuTemplate({
      platform,
      appName: 'Parley',
      developer: false,
      command: (c) => commands.push(c),
    });
    const flat = template.flatMap((menu) => [
      menu,
      ...((menu.submenu as Array<Record<string, unknown>>) ?? []),
    ]);
    return { flat, commands };
  };

  it.each(['darwin', 'win32', 'linux'] as const)(
    'has Parley’s shortcuts and the standard roles on %s',
    (platform) => {
      const { flat, commands } = items(platform);
      const byAccelerator = (accelerator: string) => flat.find((item) => item.accelerator === accelerator);
      for (const [accelerator, command] of [
        ['CmdOrCtrl+N', 'newChat'],
        ['CmdOrCtrl+K', 'quickSwitcher'],
        ['CmdOrCtrl+,', 'settings'],
      ] as const) {
        (byAccelerator(accelerator)?.click as () => void)();
        expect(commands.at(-1), accelerator).toBe(command);
      }
      const roles = flat.map((item) => item.role).filter(Boolean);
      expect(roles).toEqual(expect.arrayContaining(['editMenu', 'windowMenu', 'togglefullscreen']));
      expect(roles).not.toContain('toggleDevTools');
      if (platform === 'darwin') expect(roles).toEqual(expect.arrayContaining(['about', 'hide', 'quit']));
      else expect(roles).toContain('quit');
    },
  );
});

describe('received files', () => {
  it('opens only viewer documents with one click', () => {
    expect(isViewable('photo.JPG')).toBe(true);
    expect(isViewable('invoice.pdf')).toBe(true);
    for (const name of [
      'setup.exe',
      'run.sh',
      'app.desktop',
      'report.docm',
      'page.html',
      'logo.svg',
      'noextension',
    ])
      expect(isViewable(name), name).toBe(false);
  });

  it('names saved files safely', () => {
    expect(safeFilename('../../.bashrc')).toBe('bashrc');
    expect(safeFilename('C:\\Windows\\evil.exe')).toBe('evil.exe');
    expect(safeFilename('a<b>c:d|e?.png')).toBe('a_b_c_d_e_.png');
    expect(safeFilename('')).toBe('attachment');
  });
});

/** electron-store is conf with Electron's default folder; with an absolute cwd it is conf itself. */
class ElectronStoreOnConf extends Conf<Settings> {
  constructor({
    name,
    ...options
  }: {
    name: string;
    cwd: string;
    defaults: Settings;
    clearInvalidConfig: boolean;
  }) {
    super({ ...options, configName: name });
  }
}

describe('settings in electron-store', () => {
  const folder = (name: string) => {
    const path = join(dir.path, name);
    mkdirSync(path);
    return path;
  };

  it('persists changes and reads them back in a new launch', () => {
    const path = folder('settings-roundtrip');
    openElectronSettings(ElectronStoreOnConf, path).update({ theme: 'dark', window: { maximized: true } });
    const reopened = openElectronSettings(ElectronStoreOnConf, path).get();
    expect(reopened.theme).toBe('dark');
    expect(reopened.window.maximized).toBe(true);
  });

  it.each([
    ['not JSON', '{"theme": "dark",'],
    ['JSON that breaks the schema', JSON.stringify({ theme: 'purple', window: { bounds: { width: 5 } } })],
  ])('starts from defaults on a file that is %s, keeping the file aside', (_what, content) => {
    const path = folder(`settings-${content.length}`);
    writeFileSync(join(path, 'settings.json'), content);
    const settings = openElectronSettings(ElectronStoreOnConf, path);
    expect(settings.get()).toEqual(settingsDefaults());
    const kept = readdirSync(path).filter((name) => name.startsWith('settings.json.corrupt-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(path, kept[0]!), 'utf8')).toBe(content);
  });
});
