/**
 * Route-level code splitting: views and dialogs off the inbox path load on demand, in their own
 * chunks, so the boot bundle carries only what the first inbox frame needs. Each lazy part can be
 * fetched ahead (`preload`) once the inbox is interactive, so opening it later does not wait on the
 * network or the parser.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type Preloadable<P> = LazyExoticComponent<ComponentType<P>> & { preload(): Promise<unknown> };

/** `React.lazy` for a module's named export, with a `preload` that starts (and shares) the fetch. */
export function lazyNamed<M, K extends keyof M, P = object>(load: () => Promise<M>, name: K): Preloadable<P> {
  let pending: Promise<M> | null = null;
  const fetchOnce = (): Promise<M> => {
    pending ??= load().catch((error: unknown) => {
      // A failed fetch (an update replaced the chunks, a hiccup) may be retried on the next open.
      pending = null;
      throw error;
    });
    return pending;
  };
  const component = lazy(async () => ({ default: (await fetchOnce())[name] as ComponentType<P> }));
  return Object.assign(component, { preload: fetchOnce });
}

/** Fetches the given parts when the page is idle (or soon, where idle callbacks do not exist). */
export function preloadWhenIdle(parts: ReadonlyArray<{ preload(): Promise<unknown> }>): void {
  const run = () => {
    for (const part of parts) part.preload().catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 200);
}
