// ServiceReachability's own rules, with outcomes handed to it directly and a probe that reports
// what the service would answer (the integration test shows it against the sandbox).
import { afterEach, describe, expect, it } from 'vitest';
import type { AttemptOutcome } from '../../../../electron/core/api/http.ts';
import { PartnerApiError } from '../../../../electron/core/api/errors.ts';
import { ServiceReachability } from '../../../../electron/core/sync/reachability.ts';

const reset = (): AttemptOutcome => ({
  status: 0,
  error: new PartnerApiError({ kind: 'network', message: 'The connection was closed unexpectedly' }),
});
const cancelled = (): AttemptOutcome => ({
  status: 0,
  error: new PartnerApiError({ kind: 'cancelled', message: 'cancelled' }),
});

const running: ServiceReachability[] = [];
afterEach(() => {
  for (const r of running.splice(0)) r.stop();
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

function reachability(answer: () => AttemptOutcome, idleProbeMs = 3_600_000): ServiceReachability {
  const r: ServiceReachability = new ServiceReachability({
    probe: async () => r.observe(answer()),
    idleProbeMs,
    backoff: { baseMs: 10, capMs: 40 },
  });
  running.push(r);
  r.start();
  return r;
}

describe('ServiceReachability', () => {
  it('is unreachable after an attempt with no answer, or a 502/503/504, and reachable after any other answer', () => {
    const r = reachability(() => reset());
    r.observe(reset());
    expect(r.state).toEqual({ reachable: false, reason: 'The connection was closed unexpectedly' });
    r.observe({ status: 404 });
    expect(r.state.reachable).toBe(true);
    r.observe({ status: 503 });
    expect(r.state).toEqual({ reachable: false, reason: 'The service is unavailable (HTTP 503)' });
    r.observe({ status: 429 });
    expect(r.state.reachable).toBe(true);
  });

  it('learns nothing from a request cancelled here', () => {
    const r = reachability(() => reset());
    r.observe(cancelled());
    expect(r.state.reachable).toBe(true);
    r.observe(reset());
    r.observe(cancelled());
    expect(r.state.reachable).toBe(false);
  });

  it('probes while unreachable until the service answers, then reports it once', async () => {
    let down = true;
    const r = reachability(() => (down ? reset() : { status: 200 }));
    const changes: boolean[] = [];
    r.onChange((state) => changes.push(state.reachable));

    r.observe(reset());
    await until(() => r.probes >= 3);
    expect(r.state.reachable).toBe(false);
    down = false;
    await until(() => r.state.reachable);

    expect(changes).toEqual([false, true]);
  });

  it('probes on its own when nothing else asked for a while, and so notices an outage', async () => {
    const r = reachability(() => reset(), 20);

    await until(() => !r.state.reachable);

    expect(r.probes).toBe(1);
  });
});
