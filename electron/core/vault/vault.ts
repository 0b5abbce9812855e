/**
 * The vault: where API tokens, webhook secrets and tunnel credentials live. Main process only; the
 * renderer never sees a secret, only whether one is set. There is exactly one real backend, the OS
 * keychain (KeyringVault). When it is unavailable the vault fails loudly with VaultUnavailableError;
 * it never falls back to plaintext on disk.
 */

export interface Vault {
  /** Names the backend in diagnostics ("os-keychain", "memory"). */
  readonly backend: string;
  /** Throws VaultUnavailableError when the backend cannot be used (call once at start-up for a banner). */
  check(): Promise<void>;
  /** The secret, or null when none is stored under `key`. */
  get(key: string): Promise<string | null>;
  /** Stores (or replaces) a non-empty secret. */
  set(key: string, value: string): Promise<void>;
  /** Deletes one secret; resolves false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Deletes every secret whose key starts with `prefix` (which must end with "/"); resolves how many. */
  deleteAll(prefix: string): Promise<number>;
  /** Called with the key after every set or delete that changed something; returns an unsubscribe. */
  onChange(listener: (key: string) => void): () => void;
}

/** Key names, in one place so that every module spells them alike. */
export const vaultKeys = {
  workspacePrefix: (workspaceId: string): string => `workspace/${workspaceId}/`,
  workspaceToken: (workspaceId: string): string => `workspace/${workspaceId}/token`,
  webhookSecret: (workspaceId: string): string => `workspace/${workspaceId}/webhook-secret`,
  /** The `whsec_` signing secret the service gave this workspace's V3 subscription. */
  webhookSecretV3: (workspaceId: string): string => `workspace/${workspaceId}/webhook-secret-v3`,
  /** The nkey seed of this desktop's agent on its team's relay (a relay workspace's only credential). */
  relaySeed: (workspaceId: string): string => `workspace/${workspaceId}/relay-seed`,
  ngrokAuthtoken: 'tunnel/ngrok-authtoken',
} as const;

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9._-]+)*$/;

/** Rejects malformed keys early: a typo must not silently create a second, orphaned entry. */
export function assertVaultKey(key: string): void {
  if (key.length > 200 || !KEY.test(key)) throw new TypeError(`invalid vault key: ${JSON.stringify(key)}`);
}

/** A prefix must end at a segment boundary, so `workspace/ab/` never also matches `workspace/abc/`. */
export function assertVaultPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new TypeError(`vault prefix must end with "/": ${JSON.stringify(prefix)}`);
  assertVaultKey(prefix.slice(0, -1));
}

export function assertSecretValue(value: string): void {
  if (typeof value !== 'string' || value === '') throw new TypeError('a secret must be a non-empty string');
}

/** Any vault failure; `message` is safe to show to the user and never contains a secret. */
export class VaultError extends Error {
  override name = 'VaultError';
}

/**
 * The OS keychain cannot be used: no Secret Service on Linux (no gnome-keyring/KWallet running, or no
 * D-Bus session), a locked keychain whose unlock was dismissed, or an unsupported platform.
 */
export class VaultUnavailableError extends VaultError {
  override name = 'VaultUnavailableError';
  /** What the platform said, for logs and bug reports. */
  readonly detail: string;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      "Parley can't use the system keychain, so it can't save or read workspace tokens. " +
        (process.platform === 'linux'
          ? 'Make sure a Secret Service keyring (GNOME Keyring or KWallet) is installed, running and unlocked, then try again.'
          : 'Unlock the keychain and try again.'),
      options,
    );
    this.detail = detail;
  }
}

export function isVaultUnavailable(error: unknown): error is VaultUnavailableError {
  return error instanceof VaultUnavailableError;
}
