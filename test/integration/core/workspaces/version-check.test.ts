// What the connect form is shown before the agent picks an API version: the registry's check with
// the real two-way probe against the sandbox over HTTP, the OS keychain (run under
// scripts/with-keyring.sh) and a temp data folder. The check stores nothing, anywhere.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedDispatcher } from '../../../../electron/core/api/http.ts';
import { setLogSink } from '../../../../electron/core/log/logger.ts';
import { FileSettingsStore } from '../../../../electron/core/settings/file-store.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import {
  openWorkspaceRegistry,
  type WorkspaceRegistry,
} from '../../../../electron/core/workspaces/registry.ts';
import { probeWorkspaceVersions } from '../../../../electron/core/workspaces/version-probe.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { control, sandboxFor } from '../helpers.ts';

describe('Checking which API versions a token works with', () => {
  const service = `ParleyTest-${randomBytes(6).toString('hex')}`;
  let restoreSink: () => void;
  let sandbox: RunningSandbox;
  let dataDir: string;
  let registry: WorkspaceRegistry;
  let token: string;

  beforeAll(async () => {
    restoreSink = setLogSink(() => {});
    sandbox = await sandboxFor();
    token = sandbox.tokens[0] as string;
    dataDir = mkdtempSync(join(tmpdir(), 'parley-version-check-'));
    registry = await openWorkspaceRegistry({
      dataDir,
      vault: new KeyringVault({ service }),
      settings: new FileSettingsStore({ dataDir }),
      probe: probeWorkspaceVersions,
      demo: { start: async () => ({ url: sandbox.url, token }) },
    });
  });
  afterEach(async () => {
    await control(sandbox, 'DELETE', '/faults');
  });
  afterAll(async () => {
    registry.close();
    await sandbox.stop();
    await closeSharedDispatcher();
    restoreSink();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const v3LineCount = async (): Promise<number> => {
    const response = await fetch(`${sandbox.url}/api/partner/v3/phone_numbers`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { phone_numbers: unknown[] }).phone_numbers.length;
  };

  it('offers both where the service takes the token both ways, V3 recommended', async () => {
    // Given the sandbox, which takes the organization's token on V2 and V3
    const lines = await v3LineCount();

    // When the agent's token is checked
    const check = await registry.checkVersions({ baseUrl: sandbox.url, token });

    // Then both work and V3, the service's current API, is recommended
    expect(check).toEqual({ lines, versions: { v2: true, v3: true }, recommended: 'v3' });
  });

  it('says V2 only, with V3’s answer in words, where V3 fails; and V3 is then refused', async () => {
    // Given the service's V3 API answers with a server error for now
    await control(sandbox, 'POST', '/faults', {
      path: '^/api/partner/v3/',
      kind: 'error',
      status: 503,
    });

    // When the token is checked
    const check = await registry.checkVersions({ baseUrl: sandbox.url, token });

    // Then only V2 works, V2 is recommended, and why V3 does not is kept for the form
    expect(check).toMatchObject({ versions: { v2: true, v3: false }, recommended: 'v2' });
    expect(check.versions.v3Refusal).toEqual(expect.stringMatching(/\S/));

    // And connecting on V3 anyway is refused with that reason, nothing stored
    await expect(
      registry.add({ name: 'Acme', baseUrl: sandbox.url, token, apiVersion: 'v3' }),
    ).rejects.toMatchObject({
      name: 'WorkspaceInputError',
      field: 'apiVersion',
      message: `${check.versions.v3Refusal}; keep V2`,
    });
  });

  it('keeps nothing from any check: no workspace, no secret, no workspace folder', async () => {
    await registry.checkVersions({ baseUrl: sandbox.url, token });
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
    expect(await findCredentialsAsync(service)).toEqual([]);
    const folders = join(dataDir, 'workspaces');
    expect(readdirSync(dataDir).includes('workspaces') ? readdirSync(folders) : []).toEqual([]);
  });
});
