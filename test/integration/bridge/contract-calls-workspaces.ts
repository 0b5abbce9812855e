/**
 * contract-calls.ts's last calls: workspace changes (connecting a service retires the demo and
 * reopens the session), then the team inbox's, refused on a workspace not joined to a relay.
 */
import { expect } from 'vitest';
import type { ParleyApi } from '../../../shared/contract/client.ts';
import type { MethodName } from '../../../shared/contract/methods.ts';
import { eventually } from '../core/helpers.ts';
import { VALID_INPUTS } from './malformed.ts';
import { teamMethods } from '../../../shared/contract/team-methods.ts';
import type { Call, CallState } from './contract-call-kit.ts';

/** Workspace changes, last; then every team method, refused. */
export function workspaceChangeAndTeamCalls(s: CallState) {
  return {
    // ── workspaces (last: connecting a service retires the demo and reopens the session)
    'workspaces.add': async (t) => {
      const [tokenA, tokenB] = t.second.tokens;
      const added = await t.parley.workspaces.add({
        name: 'Second office',
        baseUrl: t.second.url,
        token: tokenA,
      });
      // The sandbox takes the token on both versions: V3 is preferred.
      expect(added).toMatchObject({ name: 'Second office', kind: 'remote', active: true, apiVersion: 'v3' });
      expect((await t.parley.app.info()).apiVersion).toBe('v3');
      s.secondWorkspaceId = added.id;
      // The demo exists only while no real workspace does.
      expect((await t.parley.workspaces.list()).workspaces.map((w) => w.kind)).toEqual(['remote']);
      await expect(
        t.parley.workspaces.add({ name: 'Wrong token', baseUrl: t.second.url, token: 'not-the-token' }),
      ).rejects.toMatchObject({ code: 'unauthorized' });
      const third = await t.parley.workspaces.add({
        name: 'Third office',
        baseUrl: t.second.url,
        token: tokenB,
        apiVersion: 'v2',
      });
      expect(third).toMatchObject({ active: true, apiVersion: 'v2' });
      s.thirdWorkspaceId = third.id;
    },
    'workspaces.rename': async (t) => {
      const renamed = await t.parley.workspaces.rename({ id: s.secondWorkspaceId, name: 'Branch office' });
      expect(renamed).toMatchObject({ id: s.secondWorkspaceId, name: 'Branch office' });
    },
    'workspaces.updateToken': async (t) => {
      const updated = await t.parley.workspaces.updateToken({
        id: s.secondWorkspaceId,
        token: t.second.tokens[0],
      });
      expect(updated.id).toBe(s.secondWorkspaceId);
      await expect(
        t.parley.workspaces.updateToken({ id: s.secondWorkspaceId, token: 'not-the-token' }),
      ).rejects.toMatchObject({ code: 'unauthorized' });
    },
    'workspaces.setApiVersion': async (t) => {
      const moved = await t.parley.workspaces.setApiVersion({ id: s.thirdWorkspaceId, apiVersion: 'v3' });
      expect(moved).toMatchObject({ id: s.thirdWorkspaceId, apiVersion: 'v3' });
      // The active workspace's session reopens on V3 and syncs its chats there.
      await eventually(async () => (await t.parley.app.info()).apiVersion === 'v3', 'app on V3');
      await eventually(async () => {
        const status = await t.parley.app.syncStatus();
        return status.phase === 'incremental' && status.error === null && status.lastSyncedAt !== null;
      }, 'a first sync under V3');
      const back = await t.parley.workspaces.setApiVersion({ id: s.thirdWorkspaceId, apiVersion: 'v2' });
      expect(back.apiVersion).toBe('v2');
      await expect(
        t.parley.workspaces.setApiVersion({ id: 'no-such-workspace', apiVersion: 'v3' }),
      ).rejects.toMatchObject({ code: 'not_found' });
    },
    'workspaces.switch': async (t) => {
      const list = await t.parley.workspaces.switch({ id: s.secondWorkspaceId });
      expect(list.activeId).toBe(s.secondWorkspaceId);
      await expect(t.parley.workspaces.switch({ id: s.demoWorkspaceId })).rejects.toMatchObject({
        code: 'not_found',
      });
    },
    'workspaces.join': async (t) => {
      // Joining a relay for real: test/integration/relay/join.test.ts. Here: a code that is not one.
      await expect(t.parley.workspaces.join({ joinCode: 'not-a-join-code' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'joinCode',
        message: 'This is not a Parley join code',
      });
    },
    'workspaces.remove': async (t) => {
      const list = await t.parley.workspaces.remove({ id: s.thirdWorkspaceId });
      expect(list.workspaces.map((w) => w.id)).toEqual([s.secondWorkspaceId]);
    },

    // ── the team inbox: on a workspace joined to a relay in test/integration/team/desktops.test.ts;
    // here, on one that is not, each method is refused in words.
    ...teamCallsWhenNotJoined(),
  } satisfies Partial<Record<MethodName, Call>>;
}

type TeamMethod = keyof typeof teamMethods;

function teamCallsWhenNotJoined(): Record<TeamMethod, Call> {
  const refused =
    (method: TeamMethod): Call =>
    async (t) => {
      const action = method.slice('team.'.length) as keyof ParleyApi['team'];
      const call = t.parley.team[action] as (input: unknown) => Promise<unknown>;
      await expect(call(VALID_INPUTS[method])).rejects.toMatchObject({
        code: 'not_available',
        message: expect.stringMatching(/joined to your team's relay/),
      });
    };
  return Object.fromEntries(
    (Object.keys(teamMethods) as TeamMethod[]).map((method) => [method, refused(method)]),
  ) as Record<TeamMethod, Call>;
}
