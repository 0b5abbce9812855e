/**
 * The Electron shell as it ships: `npm run build:electron`, then dist/electron/main.js runs in Node 24
 * with a recording stand-in for the `electron` module (the Electron binary cannot run here), and
 * dist/electron/preload.cjs runs with nothing but a stand-in `electron` to require, as a sandboxed
 * preload. Everything else is real: the core, the embedded demo sandbox over HTTP, SQLite, the
 * keychain. What this catches that the pieces' own tests cannot: an import that fails only when the
 * bundle loads, a dependency the packaged app would not ship, and wiring mistakes in main.ts.
 */
import { builtinModules } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_JS_FLAGS } from '../../../electron/hosts/heap.ts';
import type { AppInfo } from '../../../shared/contract/views.ts';
import type { WorkspaceList } from '../../../shared/contract/views.ts';
import type { Chat, SyncStatus } from '../../../shared/domain.ts';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  BRIDGE_GLOBAL,
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  STAGE_CHANNEL,
} from '../../../electron/hosts/electron/channels.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import {
  buildElectron,
  launchBuiltMain,
  MAIN_BUNDLE,
  PRELOAD_BUNDLE,
  ROOT,
  type LaunchedShell,
} from './launch.ts';

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};

beforeAll(buildElectron, 60_000);

/** The packages a bundle imports (static and dynamic), by package name. */
function importedPackages(bundle: string): Set<string> {
  const specifiers = [
    ...bundle.matchAll(/\b(?:import|export)\s[^;'"]*?\bfrom\s*"([^"]+)"/g),
    ...bundle.matchAll(/\bimport\s*\(\s*"([^"]+)"\s*\)/g),
    ...bundle.matchAll(/^import\s*"([^"]+)"/gm),
  ].map((match) => match[1] as string);
  return new Set(
    specifiers
      .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
      .map((s) =>
        s
          .split('/')
          .slice(0, s.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
  );
}

describe('the built main process', () => {
  const dir = tempDir('parley-built-shell-');
  let shell: LaunchedShell;
  /** The bridge as the window's page calls it. */
  const call = async <T>(method: string, input: unknown = {}): Promise<T> => {
    const reply = (await shell.invoke(INVOKE_CHANNEL, method, input)) as
      { ok: true; value: T } | { ok: false; error: { message: string } };
    if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
    return reply.value;
  };

  beforeAll(() => {
    shell = launchBuiltMain({ userData: dir.path });
  });

  afterAll(() => {
    shell?.kill();
    dir.remove();
  });

  it('imports at run time only what the packaged app ships: its dependencies and Electron', () => {
    const packages = importedPackages(readFileSync(MAIN_BUNDLE, 'utf8'));
    expect(packages).toContain('electron');
    const shipped = new Set([...Object.keys(packageJson.dependencies), 'electron']);
    expect([...packages].filter((name) => !shipped.has(name))).toEqual([]);
  });

  it('registers the app scheme before the app is ready, and gets ready', async () => {
    await shell.waitFor('ready');
    const kinds = shell.records.map((r) => r.kind);
    expect(shell.records).toContainEqual({ kind: 'scheme-privileges', schemes: [APP_SCHEME] });
    expect(kinds.indexOf('scheme-privileges')).toBeLessThan(kinds.indexOf('ready'));
  });

  it('starts its renderers with V8 set to give back what its collections free (before ready)', async () => {
    await shell.waitFor('ready');
    const kinds = shell.records.map((r) => r.kind);
    expect(shell.records).toContainEqual({
      kind: 'command-line-switch',
      name: 'js-flags',
      value: PAGE_JS_FLAGS,
    });
    expect(kinds.indexOf('command-line-switch')).toBeLessThan(kinds.indexOf('ready'));
  });

  it('opens one locked-down window with the preload, on the app URL', async () => {
    const load = await shell.waitFor('load-url');
    const windows = shell.records.filter((r) => r.kind === 'window');
    expect(windows).toHaveLength(1);
    const [window] = windows;
    expect(load).toEqual({ kind: 'load-url', id: window!.id, url: APP_ENTRY_URL });
    expect(window!.options).toMatchObject({
      show: false,
      webPreferences: {
        preload: PRELOAD_BUNDLE,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
      },
    });
    expect(existsSync(PRELOAD_BUNDLE)).toBe(true);
  });

  it('hardens the session and the window’s contents, and serves the app scheme', async () => {
    await shell.waitFor('load-url');
    const window = shell.records.find((r) => r.kind === 'window')!;
    const hardened = (kind: string) =>
      shell.records.flatMap((r) =>
        r.kind === kind && (!('id' in r) || r.id === window.id) && 'what' in r ? [r.what] : [],
      );
    expect(hardened('session-hardened').sort()).toEqual([
      'before-request',
      'permission-check',
      'permission-request',
    ]);
    expect(hardened('web-contents-hardened').sort()).toEqual([
      'will-attach-webview',
      'will-navigate',
      'will-redirect',
      'window-open',
    ]);
    expect(shell.records).toContainEqual({ kind: 'protocol-handler', scheme: APP_SCHEME });
  });

  it('registers the one bridge channel, and a contract method invoked through it answers', async () => {
    await shell.waitFor('ipc-handler', (r) => r.channel === INVOKE_CHANNEL);
    expect(await call<AppInfo>('app.info')).toEqual({
      name: 'Parley',
      version: packageJson.version,
      host: 'electron',
      platform: process.platform,
      demo: true,
      apiVersion: 'v2',
    });
  });

  it('started the core on the app’s data folder, with the demo workspace on the embedded sandbox', async () => {
    const { workspaces, activeId } = await call<WorkspaceList>('workspaces.list');
    expect(workspaces).toHaveLength(1);
    expect(workspaces[0]).toMatchObject({ id: activeId, kind: 'demo', active: true });
    expect(existsSync(join(dir.path, 'workspaces.json'))).toBe(true);
    expect(existsSync(join(dir.path, 'settings.json'))).toBe(true);
    // The demo's service answers: the first sync fills the inbox from it.
    await eventually(
      async () => (await call<SyncStatus>('app.syncStatus')).phase === 'incremental',
      'the first sync',
      30_000,
    );
    expect((await call<Chat[]>('chats.list', { limit: 5 })).length).toBeGreaterThan(0);
  });

  it('pushes the core’s events to the window', async () => {
    const window = shell.records.find((r) => r.kind === 'window')!;
    // When the agent changes a setting, the window hears of it
    await call('settings.update', { theme: 'dark' });
    const event = await shell.waitFor(
      'send',
      (r) => r.channel === EVENT_CHANNEL && r.args[0] === 'settings.changed',
    );
    expect(event.id).toBe(window.id);
    expect(event.args[1]).toMatchObject({ theme: 'dark' });
  });

  it('raises a native notification when a customer writes', async () => {
    // Given the agent texts a few customers of the demo (the simulated customers answer in seconds)
    const chats = (await call<Chat[]>('chats.list', { limit: 20 })).filter((c) => !c.archived).slice(0, 3);
    for (const chat of chats) await call('messages.send', { chatId: chat.id, text: 'Are you still there?' });
    // Then the first answer (or any customer's unprompted message) shows as a notification
    const notification = await shell.waitFor('notification', () => true, 60_000);
    expect(notification.title).not.toBe('');
    expect(shell.records).toContainEqual(
      expect.objectContaining({
        kind: 'send',
        args: ['notification.incoming', expect.objectContaining({ title: notification.title })],
      }),
    );
  });

  it('quits cleanly: the core stops, and the process ends on its own with code 0', async () => {
    // Given the unread count just changed (the badge and tray update once the burst settles)
    const chats = await call<Chat[]>('chats.list', { limit: 50 });
    const read = chats.find((c) => !c.archived && c.unreadCount === 0 && !c.markedUnread);
    await call('chats.setFlags', { chatId: read!.id, markedUnread: true });
    // When the agent quits at once
    shell.quit();
    const { code, signal } = await shell.exited;
    expect(shell.output()).not.toMatch(/did not stop|still running after quit|could not start/);
    expect({ code, signal }, shell.output()).toEqual({ code: 0, signal: null });
    expect(shell.records.filter((r) => r.kind === 'quit')).toEqual([{ kind: 'quit', exitCode: 0 }]);
  });
});

describe('the built main process, stopped from a terminal', () => {
  const dir = tempDir('parley-built-shell-signal-');
  let shell: LaunchedShell;

  afterAll(() => {
    shell?.kill();
    dir.remove();
  });

  it('quits as cleanly on SIGTERM, even while the first sync is still running', async () => {
    // Given the app has just opened its window (its first sync has barely begun)
    shell = launchBuiltMain({ userData: dir.path });
    await shell.waitFor('load-url');
    // When it is told to stop (kill, or Ctrl+C in a terminal)
    process.kill(shell.pid, 'SIGTERM');
    // Then it stops the core and ends with code 0, nothing left running
    const { code, signal } = await shell.exited;
    expect({ code, signal }, shell.output()).toEqual({ code: 0, signal: null });
    expect(shell.output()).not.toMatch(/did not stop|still running after quit|could not start/);
    expect(shell.records.filter((r) => r.kind === 'quit')).toEqual([{ kind: 'quit', exitCode: 0 }]);
  });
});

describe('the built main process, when the core cannot start', () => {
  const dir = tempDir('parley-built-shell-broken-');
  let shell: LaunchedShell;

  afterAll(() => {
    shell?.kill();
    dir.remove();
  });

  it('says why in an error box and exits with code 1, without opening a window', async () => {
    // Given the app's data folder is a file, so nothing can be stored
    const notAFolder = join(dir.path, 'userData');
    writeFileSync(notAFolder, 'not a folder');
    shell = launchBuiltMain({ userData: notAFolder });
    // Then the user is told, and the app leaves
    const { code } = await shell.exited;
    expect(code, shell.output()).toBe(1);
    expect(shell.records).toContainEqual(
      expect.objectContaining({ kind: 'error-box', title: 'Parley could not start' }),
    );
    expect(shell.records).toContainEqual({ kind: 'exit', exitCode: 1 });
    expect(shell.records.filter((r) => r.kind === 'window')).toEqual([]);
  });
});

describe('the built preload', () => {
  /** The preload as Electron runs it sandboxed: its own context, and `require` gives only 'electron'. */
  function runPreload() {
    const exposed: Array<[key: string, api: Record<string, unknown>]> = [];
    const invoked: unknown[][] = [];
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const paths = new WeakMap<object, string>();
    const electron = {
      contextBridge: {
        exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.push([key, api]),
      },
      ipcRenderer: {
        invoke: async (channel: string, ...args: unknown[]) => {
          invoked.push([channel, ...args]);
          return { ok: true, value: `answered ${String(args[0])}` };
        },
        on(channel: string, listener: (...args: unknown[]) => void) {
          if (!listeners.has(channel)) listeners.set(channel, new Set());
          listeners.get(channel)!.add(listener);
        },
        removeListener(channel: string, listener: (...args: unknown[]) => void) {
          listeners.get(channel)?.delete(listener);
        },
      },
      webUtils: { getPathForFile: (file: object) => paths.get(file) ?? '' },
    };
    const required: string[] = [];
    runInNewContext(readFileSync(PRELOAD_BUNDLE, 'utf8'), {
      // A sandboxed preload has the DOM's File: staging checks the page handed over a real one.
      File,
      require(id: string) {
        required.push(id);
        if (id === 'electron') return electron;
        throw new Error(`a sandboxed preload cannot require '${id}'`);
      },
    });
    const emit = (channel: string, ...args: unknown[]) => {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'the ipcRenderer' }, ...args);
    };
    return { exposed, invoked, listeners, paths, required, emit };
  }

  it('exposes exactly one object, the bridge, with invoke, subscribe and stageFile', () => {
    const preload = runPreload();
    expect(preload.required).toEqual(['electron']);
    expect(preload.exposed.map(([key]) => key)).toEqual([BRIDGE_GLOBAL]);
    const [[, api]] = preload.exposed as [[string, Record<string, unknown>]];
    expect(Object.keys(api).sort()).toEqual(['invoke', 'stageFile', 'subscribe']);
  });

  it('sends calls over the invoke channel and passes the reply back', async () => {
    const preload = runPreload();
    const bridge = preload.exposed[0]![1] as { invoke(method: string, input: unknown): Promise<unknown> };
    expect(await bridge.invoke('chats.list', { limit: 5 })).toEqual({
      ok: true,
      value: 'answered chats.list',
    });
    expect(preload.invoked).toEqual([[INVOKE_CHANNEL, 'chats.list', { limit: 5 }]]);
  });

  it('delivers events from the event channel without the IPC event, until unsubscribed', () => {
    const preload = runPreload();
    const bridge = preload.exposed[0]![1] as {
      subscribe(listener: (...args: unknown[]) => void): () => void;
    };
    const seen: unknown[][] = [];
    const off = bridge.subscribe((...args) => seen.push(args));
    preload.emit(EVENT_CHANNEL, 'chats.changed', { chatIds: [1] });
    off();
    preload.emit(EVENT_CHANNEL, 'chats.changed', { chatIds: [2] });
    expect(seen).toEqual([['chats.changed', { chatIds: [1] }]]);
    expect(preload.listeners.get(EVENT_CHANNEL)?.size).toBe(0);
  });

  it('stages a dropped file by the path webUtils reads from it, and a pasted one by its bytes', async () => {
    const preload = runPreload();
    const bridge = preload.exposed[0]![1] as { stageFile(file: unknown): Promise<unknown> };
    const dropped = new File(['photo'], 'photo.png', { type: 'image/png' });
    preload.paths.set(dropped, '/home/agent/photo.png');
    await bridge.stageFile(dropped);
    await bridge.stageFile(new File(['pasted'], 'pasted.png', { type: 'image/png' }));
    expect(preload.invoked[0]).toEqual([STAGE_CHANNEL, { path: '/home/agent/photo.png' }]);
    // (the bytes are the preload context's own Uint8Array, so compared by content)
    const [channel, pasted] = preload.invoked[1] as [string, { filename: string; bytes: Uint8Array }];
    expect(channel).toBe(STAGE_CHANNEL);
    expect(pasted.filename).toBe('pasted.png');
    expect(Buffer.from(pasted.bytes).toString()).toBe('pasted');
    // A path in the page's words is no File: refused before anything crosses.
    await expect(bridge.stageFile('/etc/passwd')).rejects.toThrow('stageFile takes a File');
    expect(preload.invoked).toHaveLength(2);
  });
});
