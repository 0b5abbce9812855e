/**
 * The relay's secrets at rest: which vault a real organization's relay keeps its webhook secret in
 * (the demo's needs none: relay.ts gives it one in memory). Apart from relay.ts, which only wires.
 */
import { join } from 'node:path';
import { createLogger } from '../core/log/logger.ts';
import { FileVault, isVaultUnavailable, KeyringVault, type Vault } from '../core/relay-host.ts';

const log = createLogger('relay');

/** The relay's secrets without a Secret Service, in its own folder (relayVault). */
export const SECRETS_FILE = 'secrets.json';

/**
 * Where a real organization's relay keeps its webhook secret: the OS keychain where there is one;
 * on a server without a Secret Service, a file only the relay's user can read, in its own folder
 * (FileVault: 0600, refused if wider).
 */
export async function relayVault(relayDir: string, keychain: Vault = new KeyringVault()): Promise<Vault> {
  try {
    await keychain.check();
    return keychain;
  } catch (error) {
    if (!isVaultUnavailable(error)) throw error;
    const file = new FileVault(join(relayDir, SECRETS_FILE));
    await file.check();
    log.info('no Secret Service here: the webhook secret is kept in a file only this user can read', {
      file: file.path,
    });
    return file;
  }
}
