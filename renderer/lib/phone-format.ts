/**
 * Phone numbers for display, without libphonenumber-js (154 kB with its metadata) on the boot
 * path. The first number shown starts loading shared/phone.ts in its own chunk; until it arrives
 * (milliseconds, from the app itself) numbers read in a cheap form: US numbers exactly as the full
 * formatter writes them, "(415) 555-0142", others as their E.164 handle. The text of a row only
 * changes inside its fixed-height line, so nothing shifts. Components that show a number call
 * `usePhoneFormat()` so they redraw once the full formatter is in.
 */
import { useSyncExternalStore } from 'react';

type Format = (handle: string) => string;

const NANP = /^\+1([2-9]\d{2})([2-9]\d{2})(\d{4})$/;

/** The stand-in: a North American number in US national form, anything else unchanged. */
export function interimFormat(handle: string): string {
  const match = NANP.exec(handle);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : handle;
}

let full: Format | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Loads the full formatter (once); components subscribed through `usePhoneFormat` redraw. */
export function loadPhoneFormat(): Promise<void> {
  loading ??= import('../../shared/phone.ts').then(
    (phone) => {
      full = (handle) => phone.formatHandle(handle);
      for (const listener of listeners) listener();
    },
    () => {
      // A chunk that failed to load may load on the next try; meanwhile numbers keep the stand-in.
      loading = null;
    },
  );
  return loading;
}

/** A handle as the agent reads it: the full formatter once loaded, the stand-in until then. */
export function formatHandle(handle: string): string {
  if (full) return full(handle);
  void loadPhoneFormat();
  return interimFormat(handle);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = (): Format => full ?? interimFormat;

/**
 * The formatter for this render; its identity changes once, when the full one arrives, so the
 * component (and memos that list it as a dependency) redraw with the full form.
 */
export function usePhoneFormat(): Format {
  const format = useSyncExternalStore(subscribe, current, current);
  if (!full) void loadPhoneFormat();
  return format;
}
