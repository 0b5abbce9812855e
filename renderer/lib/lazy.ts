/**
 * Route-level code splitting: views and dialogs off the inbox path load on demand, in their own
 * chunks, so the boot bundle carries only what the first inbox frame needs. The chunks come from the
 * app itself (the app protocol, or the browser host on 127.0.0.1), so the first open waits
 * milliseconds; the Suspense fallbacks hold the view's place meanwhile.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * `React.lazy` for a module's named export (the app's components are named, not default, exports),
 * taking the component's own props.
 */
export function lazyNamed<M, K extends keyof M, P = M[K] extends ComponentType<infer Q> ? Q : object>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));
}
