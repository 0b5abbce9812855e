/** The secrets vault (main process only). */
export {
  assertVaultKey,
  isVaultUnavailable,
  vaultKeys,
  VaultError,
  VaultUnavailableError,
  type Vault,
} from './vault.ts';
export { DEFAULT_VAULT_SERVICE, KeyringVault, type KeyringVaultOptions } from './keyring-vault.ts';
// InMemoryVault (memory-vault.ts) is left out on purpose: it is for tests, never for a host.
