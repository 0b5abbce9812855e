/**
 * The vault on the OS keychain through @napi-rs/keyring: macOS Keychain, Windows Credential Manager,
 * the Secret Service (GNOME Keyring, KWallet) on Linux. Entries are stored as service `Parley`,
 * account `<key>` (e.g. `workspace/<id>/token`).
 */
import { createLogger, registerSecret } from '../log/logger.ts';
import { KeyedSequencer } from './sequencer.ts';
import {
  assertSecretValue,
  assertVaultKey,
  assertVaultPrefix,
  VaultError,
  VaultUnavailableError,
  type Vault,
} from './vault.ts';

type KeyringModule = typeof import('@napi-rs/keyring');
type AsyncEntry = InstanceType<KeyringModule['AsyncEntry']>;

const log = createLogger('vault');

export const DEFAULT_VAULT_SERVICE = 'Parley';

/**
 * On Linux keyring's default falls back from the Secret Service to the kernel keyring (keyutils),
 * which forgets everything at logout: tokens would silently vanish. Pinning the store makes a missing
 * Secret Service an error we can explain instead. Other platforms ignore this option.
 */
const ENTRY_OPTIONS = { linux: { store: 'secret-service' as const } };

/** A probe entry for `check()`; reading a missing entry still needs a working keychain. */
const CHECK_KEY = 'parley/availability-check';

export interface KeyringVaultOptions {
  /** The keychain service name. Default 'Parley'; tests use their own so they never touch real entries. */
  service?: string;
}

export class KeyringVault implements Vault {
  readonly backend = 'os-keychain';
  readonly service: string;
  readonly #sequencer = new KeyedSequencer();
  readonly #listeners = new Set<(key: string) => void>();

  constructor(options: KeyringVaultOptions = {}) {
    this.service = options.service ?? DEFAULT_VAULT_SERVICE;
  }

  async check(): Promise<void> {
    const entry = await this.#entry(CHECK_KEY);
    await keychainCall('check', () => entry.getPassword());
  }

  get(key: string): Promise<string | null> {
    assertVaultKey(key);
    return this.#sequencer.run(key, async () => {
      const entry = await this.#entry(key);
      const value = await keychainCall('get', () => entry.getPassword());
      if (value !== null) registerSecret(value);
      return value;
    });
  }

  set(key: string, value: string): Promise<void> {
    assertVaultKey(key);
    assertSecretValue(value);
    // Registered before the call, so even an error raised mid-write cannot print it.
    registerSecret(value);
    return this.#sequencer.run(key, async () => {
      const entry = await this.#entry(key);
      await keychainCall('set', () => entry.setPassword(value));
      this.#emit(key);
    });
  }

  delete(key: string): Promise<boolean> {
    assertVaultKey(key);
    return this.#sequencer.run(key, async () => {
      const entry = await this.#entry(key);
      const deleted = await keychainCall('delete', () => entry.deleteCredential());
      if (deleted) this.#emit(key);
      return deleted;
    });
  }

  async deleteAll(prefix: string): Promise<number> {
    assertVaultPrefix(prefix);
    const keyring = await loadKeyring();
    const found = await keychainCall('list', () => keyring.findCredentialsAsync(this.service));
    // The search returns the passwords too: read secrets get registered like any other.
    for (const credential of found) registerSecret(credential.password);
    const keys = found.map((credential) => credential.account).filter((key) => key.startsWith(prefix));
    let deleted = 0;
    for (const key of keys) if (await this.delete(key)) deleted += 1;
    return deleted;
  }

  onChange(listener: (key: string) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  async #entry(key: string): Promise<AsyncEntry> {
    const keyring = await loadKeyring();
    return keychainCall('open', () => new keyring.AsyncEntry(this.service, key, ENTRY_OPTIONS));
  }

  #emit(key: string): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(key);
      } catch (error) {
        log.error('vault listener failed', { key, error });
      }
    }
  }
}

let keyringModule: Promise<KeyringModule> | undefined;

/**
 * Loaded on first use rather than at import: a platform without a prebuilt binary then gets a
 * VaultUnavailableError it can show, instead of a crash while the app starts.
 */
function loadKeyring(): Promise<KeyringModule> {
  keyringModule ??= import('@napi-rs/keyring').catch((error: unknown) => {
    keyringModule = undefined;
    throw new VaultUnavailableError(`keyring module failed to load: ${messageOf(error)}`, { cause: error });
  });
  return keyringModule;
}

/**
 * Runs one keychain call and translates its failures. keyring reports them only as text (the napi
 * code is always GenericFailure): "Platform failure: …" and "Couldn't access platform storage: …"
 * mean the keychain itself is missing, unreachable or locked.
 */
async function keychainCall<T>(operation: string, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const detail = messageOf(error);
    if (/^(Platform failure|Couldn't access platform storage|No default store)/i.test(detail)) {
      log.warn('keychain unavailable', { operation, detail });
      throw new VaultUnavailableError(detail, { cause: error });
    }
    log.error('keychain call failed', { operation, detail });
    throw new VaultError(`The system keychain could not ${operation} a secret: ${detail}`, { cause: error });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
