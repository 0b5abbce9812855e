/** App settings: one schema, one store interface, a file-backed store for the browser host. */
export {
  applySettingsPatch,
  InvalidSettingsError,
  normalizeSettings,
  settingsDefaults,
  settingsSchema,
  tunnelProviderSchema,
  workspaceIdSchema,
  workspaceSyncOf,
  workspaceSyncSchema,
  type NotificationSettings,
  type Settings,
  type SettingsPatch,
  type TunnelProvider,
  type WindowSettings,
  type WorkspacePatch,
  type WorkspaceSyncSettings,
} from './schema.ts';
export {
  memorySettingsPersistence,
  PersistedSettingsStore,
  type PersistedSettingsStoreOptions,
  type SettingsListener,
  type SettingsPersistence,
  type SettingsStore,
} from './store.ts';
export { FileSettingsStore, SETTINGS_FILE, type FileSettingsStoreOptions } from './file-store.ts';
