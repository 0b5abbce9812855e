/**
 * Roles on a real nats-server: the team's first agent is its admin. An agent asking to change the
 * team's settings is refused in words naming the admin, and the refusal is in the audit log; the
 * admin's change, or the operator's from `npm run relay -- settings`, reaches every desktop's watch
 * at once. Team replies are admins' unless the team lets everyone edit them; a role the operator
 * gives (`agent role`, shown by `agent list`) counts from the agent's next request.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit } from '../../../electron/core/team/audit.ts';
import type { TeamClient } from '../../../electron/core/team/team-client.ts';
import type { TeamSettings } from '../../../electron/core/team/wire.ts';
import { eventually } from '../core/helpers.ts';
import { startTestTeam, type TestTeam } from './helpers.ts';

const run = promisify(execFile);

let team: TestTeam;
let dana: TeamClient;
let eli: TeamClient;
/** The settings as each desktop's watch last heard them. */
const heard: Record<string, TeamSettings | undefined> = {};
const watches: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  team = await startTestTeam(['Dana', 'Eli']);
  [dana, eli] = await Promise.all([team.agents.Dana!.client(), team.agents.Eli!.client()]);
  for (const [name, client] of [
    ['Dana', dana],
    ['Eli', eli],
  ] as const)
    watches.push(await client.watchTeam(({ settings }) => (heard[name] = settings)));
});
afterAll(async () => {
  for (const watch of watches) await watch.stop();
  await team?.close();
});

describe("the team's settings and who may change them", () => {
  it("refuses an agent's change in words naming the admin, and audits the refusal", async () => {
    // Given Eli, an agent (Dana, the team's first, is its admin)
    expect(team.nats.directory.list().map((a) => [a.name, a.role])).toEqual([
      ['Dana', 'admin'],
      ['Eli', 'agent'],
    ]);
    const since = Date.now() - 1_000;

    // When Eli asks to turn round-robin on
    const reply = await eli.updateSettings({ roundRobin: true });

    // Then he is told no, and whom to ask; nothing changed; the audit log says he tried
    expect(reply).toEqual({
      ok: false,
      error: {
        code: 'not_admin',
        message: 'Only a team admin can change the team’s settings: ask Dana',
        retryable: false,
        field: null,
      },
    });
    expect((await team.relay.settings()).roundRobin).toBe(false);
    const audit = await readAudit(team.relayConnection, { sinceMs: since });
    expect(audit.map(({ entry }) => entry)).toContainEqual(
      expect.objectContaining({
        action: 'refused',
        by: team.agents.Eli!.id,
        detail: 'changing the team settings: admins only',
      }),
    );
  });

  it("applies the admin's change, and every desktop hears it at once", async () => {
    const reply = await dana.updateSettings({ replyAssignsToReplier: true });
    expect(reply).toMatchObject({ ok: true, settings: { replyAssignsToReplier: true } });
    for (const name of ['Dana', 'Eli'])
      await eventually(() => heard[name]?.replyAssignsToReplier === true, `the change on ${name}'s desktop`);
  });

  it("applies the operator's change from the command line, whatever the roles, and prints them", async () => {
    const cli = ['electron/relay/cli.ts', 'settings', '--data-dir', team.nats.dataDir];
    const { stdout } = await run(process.execPath, [...cli, '--set', 'round-robin=on']);
    expect(stdout).toMatch(/^roundRobin {16}on {3}New conversations are assigned in turn/m);
    expect(stdout).toMatch(/^replyAssignsToReplier {5}on /m);
    expect(stdout).toContain('Admins, who may change them from Parley: Dana');
    for (const name of ['Dana', 'Eli'])
      await eventually(() => heard[name]?.roundRobin === true, `the operator's change on ${name}'s desktop`);
    const audit = await readAudit(team.relayConnection);
    expect(audit.at(-1)?.entry).toMatchObject({ action: 'settings_changed', by: 'operator' });

    // A setting that does not exist changes nothing and says which do
    const wrong = run(process.execPath, [...cli, '--set', 'roundRobbin=on']);
    await expect(wrong).rejects.toMatchObject({ stderr: expect.stringMatching(/no setting "roundRobbin"/) });
    await team.relay.updateSettings({ roundRobin: false, replyAssignsToReplier: false });
  });
});

describe("the team's replies", () => {
  it('are edited by admins, and by everyone once the team says so', async () => {
    // Given the default: admins only
    const refused = await eli.saveTeamReply({ title: 'Hours', body: 'Open 9–5' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'not_admin', message: 'Only a team admin can edit the team’s replies: ask Dana' },
    });
    expect(await dana.saveTeamReply({ title: 'Hours', body: 'Open 9–5' })).toMatchObject({ ok: true });

    // When Dana lets everyone edit them, Eli can
    await dana.updateSettings({ everyoneEditsTeamReplies: true });
    const saved = await eli.saveTeamReply({ title: 'Holidays', body: 'Closed on the 25th' });
    expect(saved).toMatchObject({ ok: true });
    expect(await eli.deleteTeamReply(String(saved.ok && saved.id))).toMatchObject({ ok: true });
    await dana.updateSettings({ everyoneEditsTeamReplies: false });
  });
});

describe('a role the operator gives', () => {
  it("is listed, and counts from the agent's next request", async () => {
    const agent = (...args: string[]) =>
      run(process.execPath, ['electron/relay/cli.ts', 'agent', ...args, '--data-dir', team.nats.dataDir]);
    expect((await agent('role', 'Eli', 'admin')).stdout).toBe('Eli is now an admin of the team.\n');
    expect(await eli.updateSettings({ assigneeOnlyComposer: true })).toMatchObject({
      ok: true,
      settings: { assigneeOnlyComposer: true },
    });
    await agent('role', team.agents.Dana!.id, 'agent');
    const listed = (await agent('list')).stdout.trim().split('\n');
    expect(listed.map((line) => line.split('\t').slice(0, 3))).toEqual([
      ['Dana', team.agents.Dana!.id, 'agent'],
      ['Eli', team.agents.Eli!.id, 'admin'],
    ]);
    expect(await dana.updateSettings({ assigneeOnlyComposer: false })).toMatchObject({
      ok: false,
      error: { message: 'Only a team admin can change the team’s settings: ask Eli' },
    });
  });
});
