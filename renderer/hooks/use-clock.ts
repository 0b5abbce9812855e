/**
 * One shared clock for relative times ("4 min", "Yesterday"): a single interval for the whole app,
 * ticking each minute, so rows re-render once a minute at most and never each on its own timer.
 */
import { useSyncExternalStore } from 'react';

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, 30_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export function useClock(): number {
  return useSyncExternalStore(subscribe, () => now);
}
