/**
 * The Electron transport, end to end in one process: the real preload (electron/preload.ts) runs
 * against a faithful fake of contextBridge/ipcRenderer, the real main-side registration
 * (electron/hosts/electron/ipc.ts) against a fake ipcMain, and the real core behind it with the demo
 * workspace, the OS keychain, and settings kept the way electron-store keeps them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Conf from 'conf';
import { AppCore } from '../../../electron/core/app/app-core.ts';
import type { Settings } from '../../../electron/core/settings/index.ts';
import { KeyringVault } from '../../../electron/core/vault/index.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APP_ENTRY_URL,
  BRIDGE_GLOBAL,
  INVOKE_CHANNEL,
  STAGE_CHANNEL,
} from '../../../electron/hosts/electron/channels.ts';
import { createFilePort } from '../../../electron/hosts/electron/files.ts';
import { registerBridgeIpc, sendBridgeEvent } from '../../../electron/hosts/electron/ipc.ts';
import { openElectronSettings } from '../../../electron/hosts/electron/settings-store.ts';
import { openExternalSafely } from '../../../electron/hosts/electron/web-security.ts';
import {
  electronStageFile,
  electronTransport,
  type ElectronBridge,
} from '../../../renderer/bridge/transports.ts';
import type { StagedAttachment } from '../../../shared/contract/staged.ts';
import { createParleyClient, type ParleyApi } from '../../../shared/contract/client.ts';
import { METHOD_NAMES, type MethodName } from '../../../shared/contract/methods.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import type { BridgeUnderTest } from './contract-call-kit.ts';
import { contractCalls } from './contract-calls.ts';
import { FakeIpcMain, FakeWebContents } from './electron-fakes.ts';
import { malformedCases } from './malformed.ts';
import { count, firstSync, PNG, pngFile, quietDemo, worldSnapshot } from './support.ts';

// `import … from 'electron'` in the preload resolves to the renderer the test is loading it into.
const electron = vi.hoisted(() => ({ renderer: undefined as FakeWebContents | undefined }));
vi.mock('electron', () => ({
  get contextBridge() {
    return electron.renderer?.contextBridge;
  },
  get ipcRenderer() {
    return electron.renderer?.ipcRenderer;
  },
  get webUtils() {
    return electron.renderer?.webUtils;
  },
}));

/** Runs the real preload in a renderer, as Electron does when the page starts loading. */
async function loadPreload(renderer: FakeWebContents): Promise<ElectronBridge> {
  electron.renderer = renderer;
  vi.resetModules();
  await import('../../../electron/preload.ts');
  return renderer.mainWorld[BRIDGE_GLOBAL] as ElectronBridge;
}

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

const dir = tempDir('parley-electron-bridge-');
const demo = quietDemo();
const ipcMain = new FakeIpcMain();
const appWindow = new FakeWebContents(ipcMain, APP_ENTRY_URL);
const appContents = new Set([appWindow.id]);
const opened = { links: [] as string[], files: [] as string[] };
let second: RunningSandbox;
let core: AppCore;
let bridge: ElectronBridge;
let parley: ParleyApi;
const invoke = (method: string, input: unknown) => electronTransport(bridge).invoke(method, input);

beforeAll(async () => {
  second = await startSandbox({ seed: 'empty', quiet: true, tokens: ['branch-a', 'branch-b'] });
  core = await AppCore.start({
    dataDir: dir.path,
    host: 'electron',
    version: '0.0.0-test',
    platform: process.platform,
    vault: new KeyringVault({ service: 'parley-test-bridge-electron' }),
    settings: openElectronSettings(ElectronStoreOnConf, dir.path),
    ports: {
      openExternal: async (url) => {
        await openExternalSafely({ openExternal: async (safe) => void opened.links.push(safe) }, url);
      },
      openFile: createFilePort({
        app: { getPath: () => dir.path },
        shell: { openPath: async (path) => (opened.files.push(path), '') },
        dialog: { showSaveDialog: async () => ({ canceled: true, filePath: '' }) },
        window: () => undefined,
      }),
    },
    emit: (event, payload) => sendBridgeEvent([appWindow], event, payload),
    demo,
  });
  registerBridgeIpc({
    ipcMain,
    dispatch: core.dispatch,
    isAppWebContents: (sender) => appContents.has(sender.id),
    staging: () => core.session.staging,
  });
  bridge = await loadPreload(appWindow);
  parley = createParleyClient(electronTransport(bridge));
  await firstSync(core);
});

afterAll(async () => {
  await core?.stop();
  await second?.stop();
  dir.remove();
});

describe('the preload', () => {
  it('exposes only parleyBridge, with invoke, subscribe and stageFile, copied and frozen', () => {
    expect(Object.keys(appWindow.mainWorld)).toEqual([BRIDGE_GLOBAL]);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'stageFile', 'subscribe']);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(JSON.stringify(Object.keys(appWindow.mainWorld))).not.toContain('ipcRenderer');
  });

  it('stages a file the user dropped by the path it reads from the File, never shown to the page', async () => {
    // Given a photo the OS handed to the page in a drop (or the native file picker)
    const path = pngFile(dir.path, 'dropped.png');
    const file = new File([new Uint8Array([1])], 'dropped.png');
    appWindow.droppedFiles.set(file, path);
    // When the page hands the File over
    const staged = (await electronStageFile(bridge, file)) as StagedAttachment;
    // Then the file on disk is staged (not the File's own bytes), under the staged resource
    expect(staged).toMatchObject({
      filename: 'dropped.png',
      mimeType: 'image/png',
      size: PNG.length,
      previewUrl: `parley-staged:${staged.id}`,
    });
    expect(readFileSync(core.session.staging.get(staged.id)!.path)).toEqual(PNG);
    expect(ipcMain.received.at(-1)).toEqual([STAGE_CHANNEL, { path }]);
    await parley.attachments.unstage({ ids: [staged.id] });
  });

  it('stages a pasted file (no path on disk) by its bytes', async () => {
    const pasted = new File([PNG], 'Pasted image.png', { type: 'image/png' });
    const staged = (await electronStageFile(bridge, pasted)) as StagedAttachment;
    expect(staged).toMatchObject({ filename: 'Pasted image.png', mimeType: 'image/png', size: PNG.length });
    expect(readFileSync(core.session.staging.get(staged.id)!.path)).toEqual(PNG);
    await parley.attachments.unstage({ ids: [staged.id] });
  });

  describe('a path named by the page', () => {
    // A file of an allowed type the user never chose: what a compromised page would want to send.
    const secretPath = join(dir.path, 'private-notes.txt');
    const secret = 'the agent’s private notes';
    let stagedBefore: number;
    beforeAll(() => {
      writeFileSync(secretPath, secret);
      stagedBefore = count(core, 'staged_files');
    });

    it('cannot be staged through the contract: there is no such method', async () => {
      await expect(invoke('attachments.stagePath', { path: secretPath })).rejects.toMatchObject({
        code: 'unknown_method',
      });
    });

    it('cannot be passed to stageFile in place of a File', async () => {
      await expect(bridge.stageFile(secretPath as unknown as File)).rejects.toThrow(/takes a File/);
      await expect(bridge.stageFile({ path: secretPath } as unknown as File)).rejects.toThrow(/takes a File/);
    });

    it('stages only the page’s own bytes when the page builds a File named like it', async () => {
      const forged = new File(['not the notes'], secretPath, { type: 'text/plain' });
      Object.defineProperty(forged, 'path', { value: secretPath });
      const staged = (await electronStageFile(bridge, forged)) as StagedAttachment;
      expect(readFileSync(core.session.staging.get(staged.id)!.path, 'utf8')).toBe('not the notes');
      await parley.attachments.unstage({ ids: [staged.id] });
    });

    it('is refused on the staging channel from any page but the app’s, staging nothing', async () => {
      appWindow.navigate('https://evil.example/');
      try {
        await expect(
          appWindow.ipcRenderer.invoke(STAGE_CHANNEL, { path: secretPath }),
        ).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
      } finally {
        appWindow.navigate(APP_ENTRY_URL);
      }
      await expect(
        appWindow.ipcRenderer.invoke(STAGE_CHANNEL, { path: secretPath, filename: 'x' }),
      ).resolves.toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    });

    it('left nothing staged', () => {
      expect(count(core, 'staged_files')).toBe(stagedBefore);
    });
  });

  it('subscribes and unsubscribes one listener on the one event channel', () => {
    const before = appWindow.listenerCount('parley:event');
    const off = bridge.subscribe(() => undefined);
    expect(appWindow.listenerCount('parley:event')).toBe(before + 1);
    off();
    expect(appWindow.listenerCount('parley:event')).toBe(before);
  });
});

describe('the main process', () => {
  it('registers one handler for the whole contract (a second registration throws)', () => {
    expect(() =>
      registerBridgeIpc({
        ipcMain,
        dispatch: core.dispatch,
        isAppWebContents: () => true,
        staging: () => core.session.staging,
      }),
    ).toThrow(/second handler/);
  });

  it.each([
    ['the app window after it navigated to another site', 'https://evil.example/'],
    ['the app window showing a file:// page', 'file:///tmp/index.html'],
    ['the app window on another parley:// host', 'parley://attachments/index.html'],
  ])('refuses a call from %s, and runs nothing', async (_what, url) => {
    const theme = core.options.settings.get().theme;
    appWindow.navigate(url);
    try {
      await expect(
        invoke('settings.update', { theme: theme === 'dark' ? 'light' : 'dark' }),
      ).rejects.toMatchObject({
        code: 'forbidden',
      });
    } finally {
      appWindow.navigate(APP_ENTRY_URL);
    }
    expect(core.options.settings.get().theme).toBe(theme);
    expect(ipcMain.received.at(-1)?.[1]).toBe('settings.update'); // it did reach the main process
  });

  it('refuses a call from a subframe of the app window, even on the app origin', async () => {
    const outbox = count(core, 'outbox');
    appWindow.callingFrame = { url: APP_ENTRY_URL, parent: appWindow.mainFrame };
    try {
      await expect(invoke('messages.send', { chatId: 1, text: 'from a frame' })).rejects.toMatchObject({
        code: 'forbidden',
      });
    } finally {
      appWindow.callingFrame = appWindow.mainFrame;
    }
    expect(count(core, 'outbox')).toBe(outbox);
  });

  it('refuses a call whose frame is already gone', async () => {
    appWindow.callingFrame = null;
    try {
      await expect(invoke('app.info', {})).rejects.toMatchObject({ code: 'forbidden' });
    } finally {
      appWindow.callingFrame = appWindow.mainFrame;
    }
  });

  it('refuses a call from a window Parley did not create, even showing the app', async () => {
    const stranger = new FakeWebContents(ipcMain, APP_ENTRY_URL);
    const strangerBridge = await loadPreload(stranger);
    const result = await strangerBridge.invoke('workspaces.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('answers a call without a method name with invalid_input', async () => {
    await expect(appWindow.ipcRenderer.invoke(INVOKE_CHANNEL, 42, {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    await expect(invoke('chats.nonexistent', {})).rejects.toMatchObject({ code: 'unknown_method' });
  });
});

describe('malformed input through the Electron transport', () => {
  let before: Record<string, string>;
  beforeAll(async () => {
    before = await worldSnapshot(core, demo.sandbox());
  });

  it.each(METHOD_NAMES)(
    '%s rejects each malformed input with invalid_input and the field',
    async (method) => {
      for (const malformed of malformedCases(method)) {
        await expect(invoke(method, malformed.input), `${method}: ${malformed.what}`).rejects.toMatchObject({
          code: 'invalid_input',
          field: malformed.field,
        });
      }
    },
  );

  it('changed nothing, in the core or on the service', async () => {
    expect(await worldSnapshot(core, demo.sandbox())).toEqual(before);
  });
});

describe('events through the Electron transport', () => {
  it('delivers core events to the renderer’s listeners', async () => {
    const seen: string[] = [];
    const off = parley.on('settings.changed', (settings) => seen.push(settings.typingMode));
    await parley.settings.update({ typingMode: 'manual' });
    await eventually(() => seen.includes('manual'), 'settings.changed');
    off();
  });

  it('delivers chat changes after a local change', async () => {
    const changed: number[][] = [];
    const off = parley.on('chats.changed', ({ chatIds }) => changed.push(chatIds));
    const [chat] = await parley.chats.list({ limit: 1 });
    await parley.chats.setFlags({ chatId: chat!.id, markedUnread: true });
    await eventually(() => changed.some((ids) => ids.includes(chat!.id)), 'chats.changed');
    off();
  });
});

describe('every method through the Electron transport', () => {
  const t = {} as BridgeUnderTest;
  beforeAll(() => {
    Object.assign(t, {
      host: 'electron',
      parley,
      core,
      demo: demo.sandbox(),
      second: { url: second.url, tokens: ['branch-a', 'branch-b'] },
      dir: dir.path,
      opened,
    } satisfies BridgeUnderTest);
    opened.links.length = 0;
    opened.files.length = 0;
  });

  for (const [method, call] of Object.entries(contractCalls())) {
    it(method, () => call(t));
  }

  it('carried every method of the contract over the one invoke channel (staging has its own)', () => {
    expect(new Set(ipcMain.received.map(([channel]) => channel))).toEqual(
      new Set([INVOKE_CHANNEL, STAGE_CHANNEL]),
    );
    const carried = new Set(
      ipcMain.received
        .filter(([channel]) => channel === INVOKE_CHANNEL)
        .map(([, method]) => method as MethodName),
    );
    expect(METHOD_NAMES.filter((method) => !carried.has(method))).toEqual([]);
  });
});
