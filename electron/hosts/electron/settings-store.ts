/**
 * Settings in the Electron host: electron-store keeps the document (settings.json in userData, atomic
 * writes), PersistedSettingsStore owns validation, merging and change events, exactly as the browser
 * host's FileSettingsStore does. A document that is unreadable or no longer fits the schema is kept
 * aside as settings.json.corrupt-<time> and the app starts from defaults, instead of failing to start.
 */
import { join } from 'node:path';
import type ElectronStore from 'electron-store';
import { createLogger } from '../../core/log/logger.ts';
import {
  PersistedSettingsStore,
  normalizeSettings,
  readJsonFile,
  settingsDefaults,
  type Settings,
} from '../../core/index.ts';

const log = createLogger('settings');

type StoreConstructor = new (options: {
  name: string;
  cwd: string;
  defaults: Settings;
  clearInvalidConfig: boolean;
}) => Pick<ElectronStore<Settings>, 'store'>;

/** Opens `<dataDir>/settings.json` through electron-store (its constructor is passed in). */
export function openElectronSettings(Store: StoreConstructor, dataDir: string): PersistedSettingsStore {
  // Checked before electron-store opens the file: it merges its defaults into it and writes it back,
  // so the user's original would be gone by the time the schema saw it. A bad file is renamed aside.
  const check = readJsonFile(join(dataDir, 'settings.json'), normalizeSettings);
  if (check.kind === 'corrupt')
    log.warn('settings file was invalid; starting from defaults', {
      keptAs: check.keptAs,
      reason: check.reason,
    });
  const file = new Store({
    name: 'settings',
    cwd: dataDir,
    defaults: settingsDefaults(),
    clearInvalidConfig: false,
  });
  return new PersistedSettingsStore({
    persistence: {
      read: () => normalizeSettings(file.store),
      write(settings) {
        file.store = settings;
      },
    },
    onListenerError(error) {
      log.error('settings listener failed', { error: String(error) });
    },
  });
}
