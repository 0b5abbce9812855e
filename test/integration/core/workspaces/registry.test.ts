// The registry with its real parts: the OS keychain (run under scripts/with-keyring.sh), the real
// connection probe, the real sandbox over HTTP, files in a temp data folder. The proof asked of the
// vault: afterwards no token appears in any file of the data folder or in any log line.
import { randomBytes } from 'node:crypto';
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
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerApiError } from '../../../../electron/core/api/errors.ts';
import { closeSharedDispatcher } from '../../../../electron/core/api/http.ts';
import { probeConnection } from '../../../../electron/core/api/probe.ts';
import { createLogger, setLogLevel, setLogSink } from '../../../../electron/core/log/logger.ts';
import { FileSettingsStore } from '../../../../electron/core/settings/file-store.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import {
  openWorkspaceRegistry,
  type WorkspaceRegistry,
} from '../../../../electron/core/workspaces/registry.ts';
import { DEMO_TOKEN, startSandbox, type RunningSandbox } from '../../../../sandbox/index.ts';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

describe('WorkspaceRegistry with the keychain, the real probe and the sandbox', () => {
  const token = `tok_live_${randomBytes(12).toString('hex')}`;
  const wrongToken = `tok_wrong_${randomBytes(12).toString('hex')}`;
  const service = `ParleyTest-${randomBytes(6).toString('hex')}`;
  const logLines: string[] = [];
  let restoreSink: () => void;
  let sandbox: RunningSandbox;
  let dataDir: string;
  let vault: KeyringVault;
  let registry: WorkspaceRegistry;

  const accounts = async (): Promise<string[]> => (await findCredentialsAsync(service)).map((c) => c.account);

  beforeAll(async () => {
    restoreSink = setLogSink((line) => logLines.push(line));
    setLogLevel('debug');
    sandbox = await startSandbox({ tokens: [DEMO_TOKEN, token], seed: 'demo', quiet: true });
    dataDir = mkdtempSync(join(tmpdir(), 'parley-registry-'));
    vault = new KeyringVault({ service });
    registry = await openWorkspaceRegistry({
      dataDir,
      vault,
      settings: new FileSettingsStore({ dataDir }),
      probe: probeConnection,
      demo: { start: async () => ({ url: sandbox.url, token: DEMO_TOKEN }) },
    });
  });
  afterAll(async () => {
    registry.close();
    await vault.deleteAll('workspace/');
    await sandbox.stop();
    await closeSharedDispatcher();
    setLogLevel(undefined);
    restoreSink();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts in the demo workspace, connected to the embedded sandbox', async () => {
    const demo = registry.active()!;
    expect(demo.kind).toBe('demo');
    const connection = await registry.connectionFor(demo.id);
    expect(connection.baseUrl).toBe(sandbox.url);
    await expect(probeConnection(connection)).resolves.toMatchObject({ lines: expect.any(Number) });
  });

  it('refuses a wrong token with a clear 401 message and stores nothing', async () => {
    const error = await registry
      .add({ name: 'Wrong', baseUrl: sandbox.url, token: wrongToken })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect((error as PartnerApiError).kind).toBe('unauthorized');
    expect((error as Error).message).toMatch(/refused this token \(401\)/);
    expect(await accounts()).toEqual([]);
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
  });

  it('explains an address where nothing answers', async () => {
    const error = await registry
      .add({ name: 'Nowhere', baseUrl: 'http://127.0.0.1:9', token })
      .catch((e: unknown) => e);
    expect((error as PartnerApiError).kind).toBe('network');
    expect((error as Error).message).toContain('127.0.0.1:9');
    expect(await accounts()).toEqual([]);
  });

  it('explains an address that is not the service', async () => {
    const error = await registry
      .add({ name: 'Typo', baseUrl: `${sandbox.url}/messaging`, token })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/does not look like a Partner Messaging Service/);
    expect(await accounts()).toEqual([]);
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
  });

  it('adds a workspace with the right token, kept in the keychain only', async () => {
    const acme = await registry.add({ name: 'Acme', baseUrl: `${sandbox.url}/api/partner/v2/`, token });

    expect(acme).toMatchObject({ kind: 'remote', baseUrl: sandbox.url });
    expect(registry.list()).toEqual([acme]);
    expect(registry.active()?.id).toBe(acme.id);
    expect(await accounts()).toEqual([`workspace/${acme.id}/token`]);
    // A fresh vault (as after a restart) reads the token back from the keychain.
    const connection = await (
      await openWorkspaceRegistry({
        dataDir,
        vault: new KeyringVault({ service }),
        settings: new FileSettingsStore({ dataDir }),
        probe: probeConnection,
        demo: { start: () => Promise.reject(new Error('no demo while a workspace exists')) },
      })
    ).connectionFor(acme.id);
    expect(connection).toEqual({ baseUrl: sandbox.url, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token });
    await expect(probeConnection(connection)).resolves.toMatchObject({ lines: expect.any(Number) });

    // Something careless elsewhere in the app: redaction must still keep the token out of the log.
    createLogger('careless').warn(`connecting with ${token}`, { connection, note: `header value ${token}` });
  });

  it('leaves the token in no file of the data folder and in no log line', () => {
    const files = filesUnder(dataDir);
    expect(files.map((file) => file.slice(dataDir.length + 1)).sort()).toEqual([
      'settings.json',
      'workspaces.json',
    ]);
    for (const secret of [token, wrongToken]) {
      const needle = Buffer.from(secret);
      for (const file of files)
        expect(readFileSync(file).includes(needle), `${secret} in ${file}`).toBe(false);
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    }
    // The scan did see the log: the careless line is there, redacted.
    expect(logLines.some((line) => line.includes('connecting with [redacted]'))).toBe(true);
  });

  it('removes the workspace: keychain entry and data folder gone, the demo back', async () => {
    const acme = registry.active()!;
    mkdirSync(registry.dataDirFor(acme.id), { recursive: true });
    writeFileSync(join(registry.dataDirFor(acme.id), 'cache.db'), 'cached chats');
    await vault.set(`workspace/${acme.id}/webhook-secret`, `whsec_${randomBytes(8).toString('hex')}`);

    await registry.remove(acme.id);

    expect(await accounts()).toEqual([]);
    expect(await new KeyringVault({ service }).get(`workspace/${acme.id}/token`)).toBeNull();
    expect(existsSync(join(dataDir, 'workspaces', acme.id))).toBe(false);
    expect(registry.list().map((w) => w.kind)).toEqual(['demo']);
    expect(registry.active()?.kind).toBe('demo');
  });
});
