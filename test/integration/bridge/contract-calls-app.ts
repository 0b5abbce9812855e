/** contract-calls.ts's first calls: the app (read-only), then the workspaces read. */
import { expect } from 'vitest';
import type { MethodName } from '../../../shared/contract/methods.ts';
import type { Call, CallState } from './contract-call-kit.ts';
import { fixtures } from './contract-fixtures.ts';

/** The app's calls, read-only first, then the workspaces read. */
export function appAndWorkspaceReadCalls(s: CallState) {
  return {
    // ── app (read-only first)
    'app.info': async (t) => {
      s.f = fixtures(t.core);
      expect(await t.parley.app.info()).toMatchObject({ name: 'Parley', host: t.host, demo: true });
    },
    'app.syncStatus': async (t) => {
      expect(await t.parley.app.syncStatus()).toMatchObject({ phase: 'incremental', chatsKnown: 60 });
    },
    'app.storageStatus': async (t) => {
      // The demo's store writes fine: no problem to show (the full-disk test shows the other case).
      expect(await t.parley.app.storageStatus()).toEqual({ problem: null });
    },
    'app.syncNow': async (t) => {
      expect(await t.parley.app.syncNow()).toBeNull();
    },
    'app.recentCalls': async (t) => {
      // Calls arrive by webhook only, so a polling session's list is exactly what the store holds.
      const calls = await t.parley.app.recentCalls({ limit: 20 });
      expect(calls).toEqual(t.core.session.store.calls.recent(20));
    },
    'app.openExternal': async (t) => {
      expect(await t.parley.app.openExternal({ url: 'https://example.com/help' })).toBeNull();
      await expect(t.parley.app.openExternal({ url: 'file:///etc/passwd' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'url',
      });
      if (t.opened) expect(t.opened.links).toEqual(['https://example.com/help']);
    },

    // ── workspaces (read)
    'workspaces.list': async (t) => {
      const list = await t.parley.workspaces.list();
      expect(list.workspaces).toHaveLength(1);
      expect(list.workspaces[0]).toMatchObject({ kind: 'demo', active: true });
      s.demoWorkspaceId = list.activeId as string;
    },
    'workspaces.probe': async (t) => {
      const [token] = t.second.tokens;
      const check = await t.parley.workspaces.probe({ baseUrl: t.second.url, token });
      // The sandbox takes the token both ways: V3, the service's current API, is recommended.
      const numbers = await fetch(`${t.second.url}/api/partner/v3/phone_numbers`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json() as Promise<{ phone_numbers: unknown[] }>);
      expect(check).toEqual({
        lines: numbers.phone_numbers.length,
        v2: { works: true },
        v3: { works: true },
        recommended: 'v3',
      });
      await expect(
        t.parley.workspaces.probe({ baseUrl: t.second.url, token: 'not-the-token' }),
      ).rejects.toMatchObject({ code: 'unauthorized' });
      // Checking connects nothing.
      expect((await t.parley.workspaces.list()).workspaces.map((w) => w.kind)).toEqual(['demo']);
    },
  } satisfies Partial<Record<MethodName, Call>>;
}
