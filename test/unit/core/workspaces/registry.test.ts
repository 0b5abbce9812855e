import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogSink } from '../../../../electron/core/log/logger.ts';
import { FileSettingsStore } from '../../../../electron/core/settings/file-store.ts';
import type { SettingsStore } from '../../../../electron/core/settings/store.ts';
import { InMemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { VaultUnavailableError } from '../../../../electron/core/vault/vault.ts';
import {
  WORKSPACES_FILE,
  type WorkspaceEvent,
  type WorkspaceRegistry,
} from '../../../../electron/core/workspaces/registry.ts';
import {
  WorkspaceError,
  WorkspaceInputError,
  WorkspaceNotFoundError,
  WorkspaceTokenMissingError,
} from '../../../../electron/core/workspaces/workspace.ts';
import { fakeProbe, GOOD_TOKEN, openTestRegistry } from './registry-fixture.ts';

describe('WorkspaceRegistry', () => {
  let dataDir: string;
  let vault: InMemoryVault;
  let settings: SettingsStore;
  let service: ReturnType<typeof fakeProbe>;
  let demoStarts: number;
  let released: string[];
  let registry: WorkspaceRegistry;
  let events: WorkspaceEvent[];
  let restoreSink: () => void;

  const open = (options: { allowInsecureHttp?: boolean } = {}): Promise<WorkspaceRegistry> =>
    openTestRegistry(
      {
        dataDir,
        vault,
        settings,
        service,
        released,
        events,
        onDemoStart: () => {
          demoStarts += 1;
        },
      },
      options,
    );
  const stored = (): unknown => JSON.parse(readFileSync(join(dataDir, WORKSPACES_FILE), 'utf8'));
  const addAcme = () =>
    registry.add({
      name: ' Acme ',
      baseUrl: 'https://api.acme.example/api/partner/v2/',
      token: ` ${GOOD_TOKEN}\n`,
    });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-workspaces-'));
    vault = new InMemoryVault();
    settings = new FileSettingsStore({ dataDir });
    service = fakeProbe();
    demoStarts = 0;
    released = [];
    events = [];
    restoreSink = setLogSink(() => {});
    registry = await open();
  });
  afterEach(() => {
    registry.close();
    restoreSink();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lands a newcomer in the demo workspace', () => {
    const [demo] = registry.list();
    expect(registry.list()).toHaveLength(1);
    expect(demo).toMatchObject({
      kind: 'demo',
      name: 'Demo',
      baseUrl: null,
      tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
    });
    expect(demo?.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(registry.active()).toEqual(demo);
    expect(settings.get().activeWorkspaceId).toBe(demo?.id);
    expect(stored()).toEqual({ version: 1, workspaces: [demo] });
  });

  it('adds a workspace after probing it: token in the vault, none in the file, demo replaced', async () => {
    const demo = registry.active();
    const acme = await addAcme();

    expect(service.calls).toEqual([
      { baseUrl: 'https://api.acme.example', tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: GOOD_TOKEN },
    ]);
    expect(acme).toMatchObject({ name: 'Acme', kind: 'remote', baseUrl: 'https://api.acme.example' });
    expect(await vault.get(`workspace/${acme.id}/token`)).toBe(GOOD_TOKEN);
    expect(registry.list()).toEqual([acme]);
    expect(registry.active()).toEqual(acme);
    expect(stored()).toEqual({ version: 1, workspaces: [acme] });
    expect(readFileSync(join(dataDir, WORKSPACES_FILE), 'utf8')).not.toContain(GOOD_TOKEN);
    expect(released).toEqual([demo?.id]);
    expect(events.map((e) => `${e.type} ${e.workspace.kind}`)).toEqual([
      'removed demo',
      'added remote',
      'activated remote',
    ]);
  });

  it('writes nothing and stores no secret when the probe fails', async () => {
    const before = readFileSync(join(dataDir, WORKSPACES_FILE), 'utf8');
    await expect(
      registry.add({ name: 'Acme', baseUrl: 'https://api.acme.example', token: 'tok_wrong' }),
    ).rejects.toThrow('example.com refused this token (401)');
    expect(vault.keys()).toEqual([]);
    expect(readFileSync(join(dataDir, WORKSPACES_FILE), 'utf8')).toBe(before);
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
    expect(events).toEqual([]);
  });

  it('writes nothing when the keychain is unavailable', async () => {
    vault.unavailable = true;
    await expect(addAcme()).rejects.toBeInstanceOf(VaultUnavailableError);
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
    expect(stored()).toMatchObject({ workspaces: [{ kind: 'demo' }] });
  });

  it('checks what the user typed before calling the service', async () => {
    const attempts: Array<[Parameters<WorkspaceRegistry['add']>[0], string]> = [
      [{ name: '  ', baseUrl: 'https://a.example', token: GOOD_TOKEN }, 'name'],
      [{ name: 'A', baseUrl: 'a.example', token: GOOD_TOKEN }, 'baseUrl'],
      [{ name: 'A', baseUrl: 'ftp://a.example', token: GOOD_TOKEN }, 'baseUrl'],
      [{ name: 'A', baseUrl: 'http://a.example', token: GOOD_TOKEN }, 'baseUrl'],
      [{ name: 'A', baseUrl: 'https://a.example', token: '' }, 'token'],
      [{ name: 'A', baseUrl: 'https://a.example', token: 'tok part' }, 'token'],
      [
        { name: 'A', baseUrl: 'https://a.example', token: GOOD_TOKEN, tokenHeader: 'Bad Header' },
        'tokenHeader',
      ],
    ];
    for (const [input, field] of attempts) {
      const error = await registry.add(input).catch((e: unknown) => e);
      expect(error, JSON.stringify(input)).toBeInstanceOf(WorkspaceInputError);
      expect((error as WorkspaceInputError).field).toBe(field);
    }
    expect(service.calls).toEqual([]);
  });

  it('allows plain http only on loopback, unless explicitly allowed', async () => {
    const local = await registry.add({ name: 'Local', baseUrl: 'http://localhost:4010', token: GOOD_TOKEN });
    expect(local.baseUrl).toBe('http://localhost:4010');
    const error = await registry
      .add({ name: 'Lab', baseUrl: 'http://lab.internal', token: GOOD_TOKEN })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/https.*unencrypted/);

    registry.close();
    registry = await open({ allowInsecureHttp: true });
    const lab = await registry.add({ name: 'Lab', baseUrl: 'http://lab.internal', token: GOOD_TOKEN });
    expect(lab.baseUrl).toBe('http://lab.internal');
  });

  it('uses a custom token header', async () => {
    const acme = await registry.add({
      name: 'A',
      baseUrl: 'https://a.example',
      token: GOOD_TOKEN,
      tokenHeader: 'X-Api-Key',
    });
    expect(acme.tokenHeader).toBe('X-Api-Key');
    expect(service.calls[0]?.tokenHeader).toBe('X-Api-Key');
    expect(await registry.connectionFor(acme.id)).toEqual({
      baseUrl: 'https://a.example',
      tokenHeader: 'X-Api-Key',
      token: GOOD_TOKEN,
    });
  });

  it('switches and renames, persisting both', async () => {
    const acme = await addAcme();
    const beta = await registry.add(
      { name: 'Beta', baseUrl: 'https://beta.example', token: GOOD_TOKEN },
      { activate: false },
    );
    expect(registry.active()?.id).toBe(acme.id);

    await registry.switch(beta.id);
    const renamed = await registry.rename(acme.id, 'Acme EU');

    expect(renamed.name).toBe('Acme EU');
    expect(settings.get().activeWorkspaceId).toBe(beta.id);
    const reopened = await open();
    expect(reopened.list().map((w) => w.name)).toEqual(['Acme EU', 'Beta']);
    expect(reopened.active()?.id).toBe(beta.id);
    reopened.close();
    expect(events.slice(-2).map((e) => e.type)).toEqual(['activated', 'renamed']);
    await expect(registry.switch('nope')).rejects.toThrow(WorkspaceError);
  });

  it('updates a token only after the service accepts it', async () => {
    const acme = await addAcme();
    await expect(registry.updateToken(acme.id, 'tok_rejected')).rejects.toThrow(/401/);
    expect((await registry.connectionFor(acme.id)).token).toBe(GOOD_TOKEN);

    service.accepted.add('tok_rotated');
    await registry.updateToken(acme.id, 'tok_rotated');
    expect((await registry.connectionFor(acme.id)).token).toBe('tok_rotated');
    expect(events.at(-1)).toMatchObject({ type: 'token-updated', workspace: { id: acme.id } });
    await expect(registry.updateToken('nope', 'tok_rotated')).rejects.toBeInstanceOf(WorkspaceNotFoundError);
  });

  it('has no token to update on the demo workspace', async () => {
    await expect(registry.updateToken(registry.active()!.id, GOOD_TOKEN)).rejects.toThrow(
      /demo workspace has no token/,
    );
    expect(service.calls).toEqual([]);
  });

  it('removes a workspace with its secrets and data folder, activating another', async () => {
    const acme = await addAcme();
    const beta = await registry.add({ name: 'Beta', baseUrl: 'https://beta.example', token: GOOD_TOKEN });
    await vault.set(`workspace/${beta.id}/webhook-secret`, 'whsec_1');
    mkdirSync(registry.dataDirFor(beta.id), { recursive: true });
    writeFileSync(join(registry.dataDirFor(beta.id), 'cache.db'), 'x');
    settings.update({ workspaces: { [beta.id]: { webhooksEnabled: true } } });

    await registry.remove(beta.id);

    expect(vault.keys()).toEqual([`workspace/${acme.id}/token`]);
    expect(existsSync(join(dataDir, 'workspaces', beta.id))).toBe(false);
    expect(released).toContain(beta.id);
    expect(registry.list()).toEqual([acme]);
    expect(registry.active()?.id).toBe(acme.id);
    expect(settings.get().activeWorkspaceId).toBe(acme.id);
    expect(settings.get().workspaces).toEqual({});
    expect(events.slice(-2).map((e) => `${e.type} ${e.workspace.name}`)).toEqual([
      'removed Beta',
      'activated Acme',
    ]);
  });

  it('brings the demo back when the last workspace is removed, and keeps it while alone', async () => {
    const acme = await addAcme();
    await registry.remove(acme.id);

    const [demo] = registry.list();
    expect(demo?.kind).toBe('demo');
    expect(registry.active()).toEqual(demo);
    expect(vault.keys()).toEqual([]);
    await expect(registry.remove(demo!.id)).rejects.toThrow(/demo workspace stays/);
  });

  it('keeps the active workspace when a different one is removed', async () => {
    const acme = await addAcme();
    const beta = await registry.add(
      { name: 'Beta', baseUrl: 'https://beta.example', token: GOOD_TOKEN },
      { activate: false },
    );
    await registry.remove(beta.id);
    expect(settings.get().activeWorkspaceId).toBe(acme.id);
  });

  it('connects the demo through the sandbox port, starting it once, and never stores its token', async () => {
    const demo = registry.active()!;
    const first = await registry.connectionFor(demo.id);
    const second = await registry.connectionFor(demo.id);
    expect(first).toEqual({
      baseUrl: 'http://127.0.0.1:4999',
      tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
      token: 'sbx_demo',
    });
    expect(second).toEqual(first);
    expect(demoStarts).toBe(1);
    expect(vault.keys()).toEqual([]);
    expect(readFileSync(join(dataDir, WORKSPACES_FILE), 'utf8')).not.toContain('sbx_demo');
  });

  it('says so when a token went missing from the keychain', async () => {
    const acme = await addAcme();
    await vault.delete(`workspace/${acme.id}/token`);
    const error = await registry.connectionFor(acme.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceTokenMissingError);
    expect((error as Error).message).toContain('"Acme"');
  });

  it('keeps a corrupt workspaces.json aside and starts with the demo', async () => {
    registry.close();
    writeFileSync(join(dataDir, WORKSPACES_FILE), '{"version":1,"workspaces":[{"id":"../x"}]}');
    registry = await open();
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
    expect(readdirSync(dataDir).some((name) => name.startsWith(`${WORKSPACES_FILE}.corrupt-`))).toBe(true);
  });

  it('deletes data folders left behind by workspaces that no longer exist', async () => {
    const acme = await addAcme();
    mkdirSync(join(dataDir, 'workspaces', acme.id), { recursive: true });
    mkdirSync(join(dataDir, 'workspaces', 'gone'), { recursive: true });
    registry.close();
    registry = await open();
    expect(readdirSync(join(dataDir, 'workspaces'))).toEqual([acme.id]);
  });
});
