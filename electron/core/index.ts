/**
 * The core's door for the desktop hosts (the Electron shell, the browser host): everything such a
 * host builds the core with or hands it, and nothing else. They import nothing else of the core but
 * its logger (`log/logger.ts`, a leaf: the browser host logs before it loads the core, so that it
 * listens first); `eslint/layers.js` refuses any other path. The relay host has its own door,
 * `relay-host.ts`. What lives where inside: README.md beside this file.
 */
export { AppCore, type AppCoreOptions } from './app/app-core.ts';
export type { DispatchResult } from './app/dispatch.ts';
export { toBridgeError, UserFacingError } from './app/errors.ts';
export { safeExternalUrl } from './app/external-links.ts';
export type { LocalAttachment } from './attachments/attachment-cache.ts';
export type { Staging } from './outbox/staging.ts';
export {
  FileSettingsStore,
  normalizeSettings,
  PersistedSettingsStore,
  settingsDefaults,
  type NotificationSettings,
  type Settings,
  type SettingsStore,
  type WindowSettings,
} from './settings/index.ts';
export { readJsonFile } from './settings/json-file.ts';
export { KeyringVault } from './vault/index.ts';
export { markChatRead } from './workbench/quick-reply.ts';
export type { DemoSandboxPort } from './workspaces/index.ts';
