// Settings as settings.json in the data folder (the browser host; tests). A corrupt or invalid file
// must not stop the app from starting, and must not be overwritten either: it is kept aside as
// settings.json.corrupt-<timestamp>, logged, and the app starts from defaults.
import { join } from 'node:path';
import { createLogger } from '../log/logger.ts';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';
import { normalizeSettings } from './schema.ts';
import { PersistedSettingsStore } from './store.ts';

const log = createLogger('settings');

export const SETTINGS_FILE = 'settings.json';

export interface FileSettingsStoreOptions {
  /** The app's data folder; the file is `<dataDir>/settings.json`. */
  dataDir: string;
  /** Clock for the name of a kept corrupt file (tests). */
  now?: () => Date;
}

export class FileSettingsStore extends PersistedSettingsStore {
  readonly path: string;

  /** Reads (or starts) the settings file. Throws only on I/O errors such as an unreadable folder. */
  constructor(options: FileSettingsStoreOptions) {
    const path = join(options.dataDir, SETTINGS_FILE);
    const now = options.now ?? (() => new Date());
    super({
      persistence: {
        read() {
          const result = readJsonFile(path, normalizeSettings, now());
          if (result.kind === 'corrupt') {
            log.warn('settings file was invalid; starting from defaults', {
              keptAs: result.keptAs,
              reason: result.reason,
            });
          }
          return result.kind === 'ok' ? result.value : undefined;
        },
        write(settings) {
          writeJsonFileAtomic(path, settings);
        },
      },
      onListenerError(error) {
        log.error('settings listener failed', { error });
      },
    });
    this.path = path;
  }
}
