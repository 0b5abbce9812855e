/** The secrets vault (main process only). */
export { isVaultUnavailable, vaultKeys, type Vault } from './vault.ts';
export { KeyringVault, type KeyringVaultOptions } from './keyring-vault.ts';
// InMemoryVault (memory-vault.ts) is left out on purpose: it is for tests, never for a host.
