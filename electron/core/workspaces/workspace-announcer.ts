/**
 * The registry's announcements: who listens for workspace changes, and each change told to every
 * listener, one failing listener logged and the others still told. Apart from registry.ts so the
 * registry reads as its steps, each ending in what it announces (WorkspaceEvent, registry-types.ts).
 */
import { createLogger } from '../log/logger.ts';
import type { WorkspaceEvent } from './registry-types.ts';

const log = createLogger('workspaces');

export class WorkspaceAnnouncer {
  readonly #listeners = new Set<(event: WorkspaceEvent) => void>();

  /** Listens for changes; returns how to stop. */
  on(listener: (event: WorkspaceEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Tells every listener (as they were when it began); a listener that throws is logged. */
  emit(event: WorkspaceEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        log.error('workspace listener failed', { event: event.type, error });
      }
    }
  }

  /** Forgets every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
