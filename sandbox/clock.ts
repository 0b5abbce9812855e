/**
 * Virtual time for the sandbox. Timestamps are wall-clock plus an offset that the control API can
 * advance; every delay the sandbox schedules (delivery delays, typing timeouts, webhook retries,
 * simulated customers) is divided by `speed`, so tests and demos can run the service's behaviour
 * faster without producing timestamps from the future.
 */
export interface Clock {
  now(): number;
  /** Schedules `fn` after `delayMs` of simulated time. Returns a cancel function. */
  after(delayMs: number, fn: () => void): () => void;
  /** Moves simulated time forward and runs every timer that is now due, in due order. */
  advance(ms: number): void;
  readonly speed: number;
  setSpeed(speed: number): void;
  /** Cancels every pending timer (on stop/reset). */
  clear(): void;
}

interface Timer {
  due: number;
  fn: () => void;
  handle: NodeJS.Timeout | undefined;
}

export function createClock(options: { speed?: number; offsetMs?: number } = {}): Clock {
  let speed = options.speed ?? 1;
  let offset = options.offsetMs ?? 0;
  const timers = new Set<Timer>();

  const now = (): number => Date.now() + offset;

  function arm(timer: Timer): void {
    if (timer.handle) clearTimeout(timer.handle);
    const wait = Math.max(0, timer.due - now());
    timer.handle = setTimeout(() => fire(timer), wait);
    timer.handle.unref?.();
  }

  function fire(timer: Timer): void {
    if (!timers.delete(timer)) return;
    if (timer.handle) clearTimeout(timer.handle);
    timer.fn();
  }

  return {
    now,
    get speed() {
      return speed;
    },
    after(delayMs, fn) {
      const timer: Timer = { due: now() + Math.max(0, delayMs) / speed, fn, handle: undefined };
      timers.add(timer);
      arm(timer);
      return () => {
        timers.delete(timer);
        if (timer.handle) clearTimeout(timer.handle);
      };
    },
    advance(ms) {
      offset += Math.max(0, ms);
      const due = [...timers].filter((t) => t.due <= now()).sort((a, b) => a.due - b.due);
      for (const timer of due) fire(timer);
      for (const timer of timers) arm(timer);
    },
    setSpeed(next) {
      if (!(next > 0)) throw new Error('speed must be positive');
      speed = next;
    },
    clear() {
      for (const timer of timers) if (timer.handle) clearTimeout(timer.handle);
      timers.clear();
    },
  };
}
