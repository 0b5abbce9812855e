/** App settings: one schema, one store interface, a file-backed store for the browser host. */
export {
  normalizeSettings,
  settingsDefaults,
  workspaceSyncOf,
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
export { FileSettingsStore, type FileSettingsStoreOptions } from './file-store.ts';
