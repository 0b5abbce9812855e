/** Timers on the world's clock that the simulation can cancel all at once when it stops. */
import type { World } from '../domain/world.ts';
import type { Random } from '../random.ts';

export interface Scheduler {
  after(delayMs: number, fn: () => void): void;
  cancelAll(): void;
}

export function createScheduler(world: World): Scheduler {
  const pending = new Set<() => void>();
  return {
    after(delayMs, fn) {
      const cancel = world.clock.after(delayMs, () => {
        pending.delete(cancel);
        try {
          fn();
        } catch (error) {
          // A simulated customer must never take the sandbox down (e.g. state changed under it).
          console.error('sandbox simulation:', error);
        }
      });
      pending.add(cancel);
    },
    cancelAll() {
      for (const cancel of pending) cancel();
      pending.clear();
    },
  };
}

export function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
