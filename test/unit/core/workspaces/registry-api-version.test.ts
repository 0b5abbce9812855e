/**
 * WorkspaceRegistry and the API version: which versions a token works with, checked before connecting,
 * and moving a workspace between them (the set-up is registry.test.ts's, from registry-fixture.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogSink } from '../../../../electron/core/log/logger.ts';
import { FileSettingsStore } from '../../../../electron/core/settings/file-store.ts';
import type { SettingsStore } from '../../../../electron/core/settings/store.ts';
import { InMemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import {
  WORKSPACES_FILE,
  type WorkspaceEvent,
  type WorkspaceRegistry,
} from '../../../../electron/core/workspaces/registry.ts';
import { WorkspaceInputError } from '../../../../electron/core/workspaces/workspace.ts';
import { fakeProbe, GOOD_TOKEN, openTestRegistry } from './registry-fixture.ts';

describe('WorkspaceRegistry', () => {
  let dataDir: string;
  let vault: InMemoryVault;
  let settings: SettingsStore;
  let service: ReturnType<typeof fakeProbe>;
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
        onDemoStart: () => {},
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

  describe('API version', () => {
    /** Whether the stand-in service takes the token on V3 (read on every probe). */
    const v3Works = { now: true };
    const V3_REFUSAL = 'api.acme.example has not enabled the V3 API for this account (code 2011)';
    const withV3 = (v3: boolean) => {
      v3Works.now = v3;
      service.probe = async (connection) => {
        service.calls.push(connection);
        if (!service.accepted.has(connection.token)) throw new Error('refused');
        return {
          lines: 2,
          versions: v3Works.now ? { v2: true, v3: true } : { v2: true, v3: false, v3Refusal: V3_REFUSAL },
        };
      };
    };

    it('tells which versions a token works with before connecting, storing nothing', async () => {
      registry.close();
      withV3(true);
      registry = await open();
      const before = stored();
      const input = { baseUrl: 'https://api.acme.example', token: GOOD_TOKEN };

      // Given a service that takes the token both ways, V3 (its current API) is recommended
      await expect(registry.checkVersions(input)).resolves.toEqual({
        lines: 2,
        versions: { v2: true, v3: true },
        recommended: 'v3',
      });

      // Given one that has not enabled V3 for the account, V2 is, and V3's refusal is kept in words
      v3Works.now = false;
      await expect(registry.checkVersions(input)).resolves.toEqual({
        lines: 2,
        versions: { v2: true, v3: false, v3Refusal: V3_REFUSAL },
        recommended: 'v2',
      });

      // Bad input and a refused token fail as connecting would
      await expect(
        registry.checkVersions({ baseUrl: 'http://api.acme.example', token: GOOD_TOKEN }),
      ).rejects.toMatchObject({ name: 'WorkspaceInputError', field: 'baseUrl' });
      await expect(registry.checkVersions({ ...input, token: 'tok_wrong' })).rejects.toThrow('refused');

      // And nothing was stored or announced
      expect(stored()).toEqual(before);
      expect(vault.keys()).toEqual([]);
      expect(events).toEqual([]);
    });

    it("names the service's reason when moving to a V3 it refuses", async () => {
      registry.close();
      withV3(false);
      registry = await open();
      const acme = await addAcme();
      await expect(registry.setApiVersion(acme.id, 'v3')).rejects.toMatchObject({
        name: 'WorkspaceInputError',
        field: 'apiVersion',
        message: `${V3_REFUSAL}; keep V2`,
      });
      expect(registry.get(acme.id)?.apiVersion).toBe('v2');
    });

    it('prefers V3 when the token works there, and keeps V2 when it does not', async () => {
      registry.close();
      withV3(true);
      registry = await open();
      expect(registry.active()?.apiVersion).toBe('v2'); // the demo starts on V2
      expect((await addAcme()).apiVersion).toBe('v3');
      withV3(false);
      registry.close();
      registry = await open();
      const other = await registry.add({
        name: 'Other',
        baseUrl: 'https://other.example',
        token: GOOD_TOKEN,
      });
      expect(other.apiVersion).toBe('v2');
    });

    it('refuses V3 when asked for and the service refuses it, storing nothing', async () => {
      registry.close();
      withV3(false);
      registry = await open();
      const before = stored();
      await expect(
        registry.add({
          name: 'Acme',
          baseUrl: 'https://api.acme.example',
          token: GOOD_TOKEN,
          apiVersion: 'v3',
        }),
      ).rejects.toMatchObject({ name: 'WorkspaceInputError', field: 'apiVersion' });
      expect(stored()).toEqual(before);
      expect(vault.keys()).toEqual([]);
    });

    it('switches a workspace between versions after probing, and announces it', async () => {
      registry.close();
      withV3(true);
      registry = await open();
      const acme = await registry.add({
        name: 'Acme',
        baseUrl: 'https://api.acme.example',
        token: GOOD_TOKEN,
        apiVersion: 'v2',
      });
      expect(acme.apiVersion).toBe('v2');
      const moved = await registry.setApiVersion(acme.id, 'v3');
      expect(moved.apiVersion).toBe('v3');
      expect(stored()).toEqual({ version: 1, workspaces: [moved] });
      expect(events.at(-1)).toEqual({ type: 'api-version-changed', workspace: moved });
      withV3(false);
      await expect(registry.setApiVersion(acme.id, 'v2')).resolves.toMatchObject({ apiVersion: 'v2' });
      await expect(registry.setApiVersion(acme.id, 'v3')).rejects.toBeInstanceOf(WorkspaceInputError);
      expect(registry.get(acme.id)?.apiVersion).toBe('v2');
    });

    it('reads workspaces.json written before V3 as V2', async () => {
      const acme = await addAcme();
      registry.close();
      const file = stored() as { version: 1; workspaces: Array<Record<string, unknown>> };
      for (const w of file.workspaces) delete w.apiVersion;
      writeFileSync(join(dataDir, WORKSPACES_FILE), JSON.stringify(file));
      registry = await open();
      expect(registry.get(acme.id)?.apiVersion).toBe('v2');
    });
  });
});
