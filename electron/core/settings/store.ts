// The settings service. The in-memory state, merging, validation and change events live here once;
// where the document is kept is a port (SettingsPersistence), so the browser host keeps it in a JSON
// file (file-store.ts) and the Electron host in electron-store, with identical behaviour.
import {
  applySettingsPatch,
  normalizeSettings,
  settingsDefaults,
  type Settings,
  type SettingsPatch,
} from './schema.ts';

export type SettingsListener = (next: Settings, previous: Settings) => void;

export interface SettingsStore {
  /** The current settings (deeply frozen: change them through `update`). */
  get(): Settings;
  /**
   * Merges `patch` (see SettingsPatch), validates, persists, then notifies listeners; returns the
   * new settings. Throws InvalidSettingsError (nothing changes) when the result would not validate.
   */
  update(patch: SettingsPatch): Settings;
  /** Called after every change that altered something; returns an unsubscribe function. */
  onChange(listener: SettingsListener): () => void;
}

/**
 * Where the settings document lives. The Electron host adapts electron-store (no schema of its own
 * needed: this store validates with settingsSchema on read and on every update):
 *
 *   const file = new ElectronStore({ name: 'settings', defaults: settingsDefaults() });
 *   new PersistedSettingsStore({ persistence: { read: () => file.store, write: (s) => (file.store = s) } });
 */
export interface SettingsPersistence {
  /** The stored document, or undefined when there is none yet. May throw on an invalid document. */
  read(): unknown;
  write(settings: Settings): void;
}

export interface PersistedSettingsStoreOptions {
  persistence: SettingsPersistence;
  /** Reports a listener that threw, so one faulty subscriber cannot stop the others. */
  onListenerError?: (error: unknown) => void;
}

export class PersistedSettingsStore implements SettingsStore {
  #settings: Settings;
  readonly #persistence: SettingsPersistence;
  readonly #listeners = new Set<SettingsListener>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(options: PersistedSettingsStoreOptions) {
    this.#persistence = options.persistence;
    this.#onListenerError = options.onListenerError ?? (() => {});
    const stored = this.#persistence.read();
    this.#settings = deepFreeze(stored === undefined ? settingsDefaults() : normalizeSettings(stored));
  }

  get(): Settings {
    return this.#settings;
  }

  update(patch: SettingsPatch): Settings {
    const previous = this.#settings;
    const next = applySettingsPatch(previous, patch);
    if (JSON.stringify(next) === JSON.stringify(previous)) return previous;
    // Persist before publishing: if the write fails, memory and disk still agree.
    this.#persistence.write(next);
    this.#settings = deepFreeze(next);
    for (const listener of [...this.#listeners]) {
      try {
        listener(this.#settings, previous);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
    return this.#settings;
  }

  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}

/** Keeps the document in memory only: for tests of modules that depend on settings. */
export function memorySettingsPersistence(initial?: unknown): SettingsPersistence & {
  readonly writes: number;
} {
  let stored = initial === undefined ? undefined : structuredClone(initial);
  let writes = 0;
  return {
    read: () => structuredClone(stored),
    write: (settings) => {
      stored = structuredClone(settings);
      writes += 1;
    },
    get writes() {
      return writes;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
