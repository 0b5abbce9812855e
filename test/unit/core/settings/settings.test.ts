import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogSink } from '../../../../electron/core/log/logger.ts';
import { FileSettingsStore, SETTINGS_FILE } from '../../../../electron/core/settings/file-store.ts';
import {
  InvalidSettingsError,
  normalizeSettings,
  settingsDefaults,
  workspaceSyncOf,
  type Settings,
} from '../../../../electron/core/settings/schema.ts';
import {
  memorySettingsPersistence,
  PersistedSettingsStore,
} from '../../../../electron/core/settings/store.ts';

describe('settings schema', () => {
  it('has defaults for everything', () => {
    expect(settingsDefaults()).toEqual({
      window: { bounds: { width: 1200, height: 800 }, maximized: false },
      notifications: { enabled: true, showPreview: true, sound: true },
      theme: 'system',
      typingMode: 'automatic',
      activeWorkspaceId: null,
      workspaces: {},
    });
  });

  it('fills in what a partial document lacks and drops unknown keys', () => {
    const settings = normalizeSettings({
      theme: 'dark',
      notifications: { sound: false },
      workspaces: { ws1: { webhooksEnabled: true } },
      fromAFutureVersion: 1,
    });
    expect(settings.theme).toBe('dark');
    expect(settings.notifications).toEqual({ enabled: true, showPreview: true, sound: false });
    expect(settings.workspaces.ws1).toEqual({
      pollIntervalMs: 3000,
      backgroundPollIntervalMs: 30000,
      webhooksEnabled: true,
      tunnel: { provider: 'direct' },
    });
    expect(settings).not.toHaveProperty('fromAFutureVersion');
  });

  it('rejects values outside the schema, naming the field', () => {
    expect(() => normalizeSettings({ theme: 'purple' })).toThrow(InvalidSettingsError);
    expect(() => normalizeSettings({ workspaces: { ws1: { pollIntervalMs: 10 } } })).toThrow(
      /workspaces\.ws1\.pollIntervalMs/,
    );
    expect(() => normalizeSettings({ workspaces: { '../etc': {} } })).toThrow(InvalidSettingsError);
    expect(() =>
      normalizeSettings({
        workspaces: { ws1: { tunnel: { provider: 'custom', customPublicUrl: 'ftp://x' } } },
      }),
    ).toThrow(InvalidSettingsError);
  });

  it('gives default sync options for a workspace without stored ones', () => {
    expect(workspaceSyncOf(settingsDefaults(), 'unknown').backgroundPollIntervalMs).toBe(30000);
  });
});

describe('PersistedSettingsStore', () => {
  it('merges patches one level deep, persists, and announces the change', () => {
    const persistence = memorySettingsPersistence();
    const store = new PersistedSettingsStore({ persistence });
    const seen: Array<[Settings, Settings]> = [];
    store.onChange((next, previous) => seen.push([next, previous]));

    const next = store.update({
      notifications: { sound: false },
      workspaces: { ws1: { tunnel: { provider: 'ngrok' } } },
    });

    expect(next.notifications).toEqual({ enabled: true, showPreview: true, sound: false });
    expect(next.workspaces.ws1?.tunnel.provider).toBe('ngrok');
    expect(next.workspaces.ws1?.pollIntervalMs).toBe(3000);
    expect(store.get()).toBe(next);
    expect(persistence.read()).toEqual(next);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[1].notifications.sound).toBe(true);
  });

  it('keeps sibling options of a workspace, and forgets a workspace given null', () => {
    const store = new PersistedSettingsStore({ persistence: memorySettingsPersistence() });
    store.update({
      workspaces: {
        ws1: { webhooksEnabled: true, tunnel: { provider: 'custom', customPublicUrl: 'https://x.example' } },
      },
    });
    store.update({ workspaces: { ws1: { tunnel: { provider: 'cloudflare' } } } });
    expect(store.get().workspaces.ws1).toMatchObject({
      webhooksEnabled: true,
      tunnel: { provider: 'cloudflare', customPublicUrl: 'https://x.example' },
    });
    store.update({ workspaces: { ws1: null } });
    expect(store.get().workspaces).toEqual({});
  });

  it("keeps each workspace's place apart from its sync options, and null clears it", () => {
    const store = new PersistedSettingsStore({ persistence: memorySettingsPersistence() });
    store.update({ workspaces: { ws1: { webhooksEnabled: true, place: { chatId: 7, topKey: 'm-1' } } } });
    store.update({ workspaces: { ws2: { place: { chatId: 9, topKey: null } } } });
    expect(store.get().workspaces.ws1).toMatchObject({
      webhooksEnabled: true,
      place: { chatId: 7, topKey: 'm-1' },
    });
    expect(store.get().workspaces.ws2?.place).toEqual({ chatId: 9, topKey: null });
    store.update({ workspaces: { ws1: { place: null } } });
    expect(store.get().workspaces.ws1).toMatchObject({ webhooksEnabled: true, place: null });
    expect(() => store.update({ workspaces: { ws1: { place: { chatId: 1.5, topKey: null } } } })).toThrow(
      InvalidSettingsError,
    );
  });

  it('ignores undefined values in a patch instead of resetting them', () => {
    const store = new PersistedSettingsStore({ persistence: memorySettingsPersistence({ theme: 'dark' }) });
    store.update({ theme: undefined, typingMode: 'manual' });
    expect(store.get().theme).toBe('dark');
    expect(store.get().typingMode).toBe('manual');
  });

  it('does not write or announce a patch that changes nothing', () => {
    const persistence = memorySettingsPersistence();
    const store = new PersistedSettingsStore({ persistence });
    let events = 0;
    store.onChange(() => events++);
    store.update({ theme: 'system' });
    expect(persistence.writes).toBe(0);
    expect(events).toBe(0);
  });

  it('refuses an invalid patch and keeps the previous settings', () => {
    const persistence = memorySettingsPersistence();
    const store = new PersistedSettingsStore({ persistence });
    expect(() => store.update({ window: { bounds: { width: 10, height: 10 } } })).toThrow(
      InvalidSettingsError,
    );
    expect(store.get()).toEqual(settingsDefaults());
    expect(persistence.writes).toBe(0);
  });

  it('hands out frozen settings, and stops calling a listener after unsubscribe', () => {
    const store = new PersistedSettingsStore({ persistence: memorySettingsPersistence() });
    expect(Object.isFrozen(store.get().notifications)).toBe(true);
    let calls = 0;
    const unsubscribe = store.onChange(() => calls++);
    store.update({ theme: 'dark' });
    unsubscribe();
    store.update({ theme: 'light' });
    expect(calls).toBe(1);
  });

  it('keeps notifying the other listeners when one throws', () => {
    const errors: unknown[] = [];
    const store = new PersistedSettingsStore({
      persistence: memorySettingsPersistence(),
      onListenerError: (error) => errors.push(error),
    });
    let reached = false;
    store.onChange(() => {
      throw new Error('boom');
    });
    store.onChange(() => {
      reached = true;
    });
    store.update({ theme: 'dark' });
    expect(reached).toBe(true);
    expect(errors).toHaveLength(1);
  });
});

describe('FileSettingsStore', () => {
  let dataDir: string;
  let lines: string[];
  let restoreSink: () => void;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-settings-'));
    lines = [];
    restoreSink = setLogSink((line) => lines.push(line));
  });
  afterEach(() => {
    restoreSink();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const settingsPath = (): string => join(dataDir, SETTINGS_FILE);

  it('starts from defaults without creating a file, and writes on the first change', () => {
    const store = new FileSettingsStore({ dataDir });
    expect(store.get()).toEqual(settingsDefaults());
    expect(existsSync(settingsPath())).toBe(false);

    store.update({ theme: 'dark', activeWorkspaceId: 'ws1' });

    expect(JSON.parse(readFileSync(settingsPath(), 'utf8'))).toMatchObject({
      theme: 'dark',
      activeWorkspaceId: 'ws1',
    });
    expect(new FileSettingsStore({ dataDir }).get()).toEqual(store.get());
  });

  it('writes atomically: no temp files are left beside settings.json', () => {
    const store = new FileSettingsStore({ dataDir });
    store.update({ theme: 'dark' });
    store.update({ theme: 'light' });
    expect(readdirSync(dataDir)).toEqual([SETTINGS_FILE]);
  });

  it('keeps a corrupt file aside, logs it, and starts from defaults', () => {
    writeFileSync(settingsPath(), '{"theme": "dark", ');
    const now = new Date('2025-03-04T05:06:07.890Z');

    const store = new FileSettingsStore({ dataDir, now: () => now });

    expect(store.get()).toEqual(settingsDefaults());
    const kept = 'settings.json.corrupt-2025-03-04T05-06-07-890Z';
    expect(readdirSync(dataDir)).toEqual([kept]);
    expect(readFileSync(join(dataDir, kept), 'utf8')).toBe('{"theme": "dark", ');
    expect(lines.join('\n')).toMatch(/WARN .*settings: settings file was invalid.*settings\.json\.corrupt-/);

    store.update({ theme: 'light' });
    expect(readFileSync(join(dataDir, kept), 'utf8')).toBe('{"theme": "dark", ');
  });

  it('treats a well-formed file that breaks the schema as corrupt too', () => {
    writeFileSync(settingsPath(), JSON.stringify({ theme: 'purple', typingMode: 'manual' }));
    const store = new FileSettingsStore({ dataDir });
    expect(store.get().typingMode).toBe('automatic');
    expect(readdirSync(dataDir).filter((name) => name.startsWith('settings.json.corrupt-'))).toHaveLength(1);
    expect(lines.join('\n')).toContain('theme');
  });
});
