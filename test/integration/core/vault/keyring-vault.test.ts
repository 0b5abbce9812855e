// The vault on a real OS keychain: run under scripts/with-keyring.sh (a private gnome-keyring Secret
// Service inside dbus-run-session). Each run uses its own service name, so it never sees or touches
// real entries even outside that wrapper.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import { vaultKeys } from '../../../../electron/core/vault/vault.ts';

const service = `ParleyTest-${randomBytes(6).toString('hex')}`;
const vault = new KeyringVault({ service });

afterAll(async () => {
  await vault.deleteAll('workspace/');
  await vault.deleteAll('tunnel/');
});

describe('KeyringVault on the Secret Service', () => {
  it('round-trips a secret: set, get, overwrite, delete', async () => {
    const key = vaultKeys.workspaceToken('ws1');
    await vault.check();
    expect(await vault.get(key)).toBeNull();

    await vault.set(key, 'tok_first_1b2c');
    expect(await vault.get(key)).toBe('tok_first_1b2c');
    await vault.set(key, 'tok_second_3d4e');
    expect(await vault.get(key)).toBe('tok_second_3d4e');
    // Another instance (a restarted app) reads what the first one stored: it really is in the keychain.
    expect(await new KeyringVault({ service }).get(key)).toBe('tok_second_3d4e');
    expect(await new KeyringVault({ service: `${service}-other` }).get(key)).toBeNull();

    expect(await vault.delete(key)).toBe(true);
    expect(await vault.delete(key)).toBe(false);
    expect(await vault.get(key)).toBeNull();
  });

  it('keeps writes to one key in call order', async () => {
    const key = vaultKeys.ngrokAuthtoken;
    const writes = Array.from({ length: 8 }, (_, i) => vault.set(key, `ngrok_${i}`));
    const read = vault.get(key);
    await Promise.all(writes);
    expect(await read).toBe('ngrok_7');
  });

  it('deletes every secret of one workspace, and only those', async () => {
    await vault.set(vaultKeys.workspaceToken('ab'), 'tok_ab');
    await vault.set(vaultKeys.webhookSecret('ab'), 'whsec_ab');
    await vault.set(vaultKeys.workspaceToken('abc'), 'tok_abc');

    expect(await vault.deleteAll(vaultKeys.workspacePrefix('ab'))).toBe(2);

    const left = (await findCredentialsAsync(service)).map((c) => c.account).sort();
    expect(left).toEqual(['tunnel/ngrok-authtoken', 'workspace/abc/token']);
  });

  it('throws VaultUnavailableError, and writes nothing elsewhere, when there is no Secret Service', async () => {
    // A child process, so the broken bus address cannot disturb this process's keychain connection.
    const script = `
      import { KeyringVault } from ${JSON.stringify(fileURLToPath(new URL('../../../../electron/core/vault/keyring-vault.ts', import.meta.url)))};
      const vault = new KeyringVault({ service: ${JSON.stringify(service)} });
      const outcome = async (run) => run().then(() => 'ok', (e) => ({ name: e.name, message: e.message, detail: e.detail }));
      console.log(JSON.stringify({
        set: await outcome(() => vault.set('workspace/x/token', 'tok_nowhere')),
        get: await outcome(() => vault.get('workspace/x/token')),
        check: await outcome(() => vault.check()),
      }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-no-bus' },
    });
    const result = JSON.parse(stdout) as Record<string, { name: string; message: string; detail: string }>;
    for (const operation of ['set', 'get', 'check']) {
      expect(result[operation]?.name, operation).toBe('VaultUnavailableError');
      expect(result[operation]?.message).toMatch(/can't use the system keychain/);
      expect(result[operation]?.detail).toMatch(/nonexistent/);
    }
    // It did not fall back to another store: nothing reached the working keychain either.
    expect((await findCredentialsAsync(service)).map((c) => c.account)).not.toContain('workspace/x/token');
  });
});
