/**
 * A vault in memory, for unit tests of modules that need one (the registry, webhooks, tunnels). It
 * keeps the real vault's contract — key checks, per-key order, redaction, change events — and can
 * play an unavailable keychain. Never used by a host: secrets there live in the OS keychain only.
 */
import { registerSecret } from '../log/logger.ts';
import {
  assertSecretValue,
  assertVaultKey,
  assertVaultPrefix,
  VaultUnavailableError,
  type Vault,
} from './vault.ts';

export interface InMemoryVaultOptions {
  /** Every operation throws VaultUnavailableError while this is true (settable later via `unavailable`). */
  unavailable?: boolean;
}

export class InMemoryVault implements Vault {
  readonly backend = 'memory';
  /** Flip to simulate a keychain that goes away (or comes back). */
  unavailable: boolean;
  readonly #secrets = new Map<string, string>();
  readonly #listeners = new Set<(key: string) => void>();

  constructor(options: InMemoryVaultOptions = {}) {
    this.unavailable = options.unavailable ?? false;
  }

  /** The keys currently stored, sorted (for assertions). */
  keys(): string[] {
    return [...this.#secrets.keys()].sort();
  }

  async check(): Promise<void> {
    this.#assertAvailable();
  }

  async get(key: string): Promise<string | null> {
    assertVaultKey(key);
    this.#assertAvailable();
    const value = this.#secrets.get(key) ?? null;
    if (value !== null) registerSecret(value);
    return value;
  }

  async set(key: string, value: string): Promise<void> {
    assertVaultKey(key);
    assertSecretValue(value);
    this.#assertAvailable();
    registerSecret(value);
    this.#secrets.set(key, value);
    this.#emit(key);
  }

  async delete(key: string): Promise<boolean> {
    assertVaultKey(key);
    this.#assertAvailable();
    const deleted = this.#secrets.delete(key);
    if (deleted) this.#emit(key);
    return deleted;
  }

  async deleteAll(prefix: string): Promise<number> {
    assertVaultPrefix(prefix);
    this.#assertAvailable();
    const keys = [...this.#secrets.keys()].filter((key) => key.startsWith(prefix));
    for (const key of keys) await this.delete(key);
    return keys.length;
  }

  onChange(listener: (key: string) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #assertAvailable(): void {
    if (this.unavailable) throw new VaultUnavailableError('InMemoryVault: simulated unavailable keychain');
  }

  #emit(key: string): void {
    for (const listener of [...this.#listeners]) listener(key);
  }
}
