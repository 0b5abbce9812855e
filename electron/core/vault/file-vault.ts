/**
 * A vault in one file that only its owner can read, for the headless team relay on a server without
 * a Secret Service (the webhook secret must survive a restart, or the subscription's deliveries
 * could no longer be verified). Never a desktop's: there the OS keychain is the only backend.
 *
 * The file is JSON `{key: secret}`, mode 0600 in a 0700 folder, replaced atomically (written to a
 * 0600 temporary file beside it, then renamed). A file that others could read, or that belongs to
 * another user, is refused in words with the fix (VaultError): a secret is never read
 * from, or written to, a place others can read.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { registerSecret } from '../log/logger.ts';
import { assertSecretValue, assertVaultKey, assertVaultPrefix, VaultError, type Vault } from './vault.ts';

const SecretsFile = z.record(z.string(), z.string());

export class FileVault implements Vault {
  readonly backend = 'file';
  readonly path: string;
  readonly #listeners = new Set<(key: string) => void>();

  constructor(path: string) {
    this.path = path;
  }

  async check(): Promise<void> {
    this.#read();
  }

  async get(key: string): Promise<string | null> {
    assertVaultKey(key);
    const value = this.#read()[key] ?? null;
    if (value !== null) registerSecret(value);
    return value;
  }

  async set(key: string, value: string): Promise<void> {
    assertVaultKey(key);
    assertSecretValue(value);
    registerSecret(value);
    this.#write({ ...this.#read(), [key]: value });
    this.#emit(key);
  }

  async delete(key: string): Promise<boolean> {
    assertVaultKey(key);
    const secrets = this.#read();
    if (!(key in secrets)) return false;
    delete secrets[key];
    this.#write(secrets);
    this.#emit(key);
    return true;
  }

  async deleteAll(prefix: string): Promise<number> {
    assertVaultPrefix(prefix);
    const secrets = this.#read();
    const gone = Object.keys(secrets).filter((key) => key.startsWith(prefix));
    if (gone.length === 0) return 0;
    for (const key of gone) delete secrets[key];
    this.#write(secrets);
    for (const key of gone) this.#emit(key);
    return gone.length;
  }

  onChange(listener: (key: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    const info = statSync(this.path);
    if ((info.mode & 0o077) !== 0)
      throw new VaultError(`The secrets file ${this.path} can be read by others: run chmod 600 ${this.path}`);
    if (typeof process.getuid === 'function' && info.uid !== process.getuid())
      throw new VaultError(`The secrets file ${this.path} belongs to another user`);
    try {
      return SecretsFile.parse(JSON.parse(readFileSync(this.path, 'utf8')));
    } catch (error) {
      throw new VaultError(`The secrets file ${this.path} is damaged`, { cause: error });
    }
  }

  #write(secrets: Record<string, string>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    // writeFileSync's mode applies only to a new file, and the umask may narrow it: set it outright.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }

  #emit(key: string): void {
    for (const listener of this.#listeners) listener(key);
  }
}
