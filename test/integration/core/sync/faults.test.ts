import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { RequestBudget } from '../../../../electron/core/api/budget.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import { control, sandboxFor, service, tempDir } from '../helpers.ts';

describe('first sync under a hostile network', () => {
  let sandbox: RunningSandbox;
  let dir: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    sandbox = await sandboxFor();
    dir = tempDir();
  });
  afterAll(async () => {
    await sandbox.stop();
    dir.remove();
  });

  it('given 429 storms, 5xx, resets and slow answers, the sync completes within the rate limit', async () => {
    // The service allows 20 requests/s; the client is told the same.
    await control(sandbox, 'PUT', '/rate-limit', { per_second: 20, burst: 20 });
    await control(sandbox, 'POST', '/faults', {
      path: '/chat_messages',
      kind: 'rate_limit',
      retryAfterSeconds: 1,
      probability: 0.05,
    });
    await control(sandbox, 'POST', '/faults', { path: '/chats$', kind: 'error', status: 503, times: 3 });
    await control(sandbox, 'POST', '/faults', { path: '/contacts', kind: 'reset', times: 2 });
    await control(sandbox, 'POST', '/faults', {
      path: '/chat_messages',
      kind: 'latency',
      latencyMs: 30,
      probability: 0.2,
    });
    const budget = new RequestBudget({ ratePerSecond: 20, burst: 20 });
    const attempts: Array<{ at: number; status: number | null }> = [];
    const session = new WorkspaceSession({
      dataDir: dir.path,
      connection: {
        baseUrl: sandbox.url,
        tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
        token: sandbox.tokens[0] as string,
      },
      client: {
        budget,
        backoff: { baseMs: 100, capMs: 1000 },
        onAttempt: (a) => attempts.push({ at: Date.now(), status: a.status ?? null }),
      },
      sync: { backgroundIntervalMs: 60_000 },
    });
    try {
      await session.start();
      expect(session.sync.status.phase).toBe('incremental');
      let total = 0;
      for (const line of session.store.lines.list()) {
        const { meta } = await service<{ meta: { total_count: number } }>(
          sandbox,
          `/chats?phone_number=${encodeURIComponent(line.phoneNumber)}&per_page=1`,
        );
        total += meta.total_count;
      }
      expect(session.store.chats.list()).toHaveLength(total);
      expect(session.store.chats.list().every((c) => c.lastMessage !== null)).toBe(true);
      // The service's own limiter never had to refuse the client: every 429 seen was an injected one.
      const { faults } = await control<{ faults: Array<{ kind: string; hits: number }> }>(
        sandbox,
        'GET',
        '/faults',
      );
      const injected429 = faults.filter((f) => f.kind === 'rate_limit').reduce((n, f) => n + f.hits, 0);
      expect(attempts.filter((a) => a.status === 429)).toHaveLength(injected429);
      expect(injected429).toBeGreaterThan(0);
    } finally {
      await session.close();
      await control(sandbox, 'DELETE', '/faults');
    }
  });
});
