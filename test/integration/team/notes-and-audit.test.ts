/**
 * Team notes, team replies and the audit log on a real nats-server: a note's @mention reaches the
 * agent it names; an agent back from being offline gets the current assignments, notes and team
 * replies; nobody but the relay can write the team stream or the audit log; and the admin's audit
 * command prints what happened, also as JSON lines for export.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import {
  ASSIGNMENTS_BUCKET,
  AUDIT_STREAM,
  auditSubject,
  mentionsSubject,
  notesSubject,
  TEAM_STREAM,
} from '../../../electron/core/relay/team-subjects.ts';
import type { Mention } from '../../../electron/core/team/wire.ts';
import { eventually } from '../core/helpers.ts';
import { startTestTeam, type TestTeam } from './helpers.ts';

const run = promisify(execFile);

let team: TestTeam;

beforeAll(async () => {
  team = await startTestTeam(['Dana Lee', 'Eli', 'Fay']);
});
afterAll(async () => {
  await team?.close();
});

describe('team notes and mentions', () => {
  it('tells the agent a note mentions, and only that agent', async () => {
    const [dana, eli, fay] = await Promise.all(
      ['Dana Lee', 'Eli', 'Fay'].map((name) => team.agents[name]!.client()),
    );
    const eliHears: Mention[] = [];
    const fayHears: Mention[] = [];
    const following = [
      await eli!.followMentions(0, (m) => eliHears.push(m)),
      await fay!.followMentions(0, (m) => fayHears.push(m)),
    ];
    const written = await dana!.writeNote(8, '@eli can you check the refund? (not for dana@example.com)');
    expect(written).toMatchObject({ ok: true, mentions: [eli!.agentId] });
    const mention = await eventually(() => eliHears[0], 'the mention reaching Eli');
    expect(mention).toMatchObject({
      chatId: 8,
      from: dana!.agentId,
      fromName: 'Dana Lee',
      preview: '@eli can you check the refund? (not for dana@example.com)',
    });
    const notes = await fay!.readNotes(8);
    expect(notes.map(({ note }) => [note.authorName, note.text])).toEqual([
      ['Dana Lee', '@eli can you check the refund? (not for dana@example.com)'],
    ]);
    expect(fayHears).toEqual([]);
    for (const f of following) await f.stop();
  });

  it('refuses an empty note with an error in words', async () => {
    const dana = await team.agents['Dana Lee']!.client();
    expect(await dana.writeNote(8, '   ')).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'text' },
    });
  });
});

describe('an agent back from being offline', () => {
  it('gets the current assignments, notes and team replies', async () => {
    const dana = await team.agents['Dana Lee']!.client();
    const fayId = team.agents.Fay!.id;
    await dana.assign({ action: 'assign', chatId: 20, to: fayId });
    await dana.writeNote(20, 'VIP customer: be quick');
    const saved = await dana.saveTeamReply({ title: 'Hours', body: 'We are open 9–5.' });
    await dana
      .saveTeamReply({ title: 'Outdated', body: 'Old text' })
      .then((r) => dana.deleteTeamReply(String(r.ok && r.id)));

    const fay = await team.agents.Fay!.client();
    const replies = await fay.watchTeamReplies(() => undefined);
    const assignments = await fay.watchAssignments(() => undefined);
    await eventually(() => assignments.entries.get('chat.20'), 'the assignment');
    await eventually(() => replies.entries.size === 1, 'the team replies');
    expect(assignments.entries.get('chat.20')?.value.assignee).toBe(fayId);
    expect([...replies.entries].map(([id, { value }]) => [id, value.title, value.body])).toEqual([
      [saved.ok && saved.id, 'Hours', 'We are open 9–5.'],
    ]);
    expect((await fay.readNotes(20)).map(({ note }) => note.text)).toEqual(['VIP customer: be quick']);

    let live = '';
    const stopLive = await fay.watchTeamReplies(
      (entries) => (live = entries.get(String(saved.ok && saved.id))?.value.body ?? ''),
    );
    await dana.saveTeamReply({ id: String(saved.ok && saved.id), title: 'Hours', body: 'Open 8–6 now.' });
    await eventually(() => live === 'Open 8–6 now.', 'the edited reply, live');
    for (const watch of [replies, assignments, stopLive]) await watch.stop();
  });
});

describe('what only the relay writes', () => {
  it('refuses an agent publishing a note, a mention or an audit entry directly: they reach nothing', async () => {
    const jsm = await jetstreamManager(team.relayConnection);
    const before = await Promise.all(
      [TEAM_STREAM, AUDIT_STREAM].map(async (s) => (await jsm.streams.info(s)).state),
    );
    const js = jetstream(await team.agents.Eli!.connect());
    const forged = new TextEncoder().encode('{}');
    // Not in the agent's account at all: no stream there takes them, nothing in the team's does.
    await expect(js.publish(notesSubject(8), forged)).rejects.toThrow();
    await expect(js.publish(mentionsSubject(team.agents.Fay!.id), forged)).rejects.toThrow();
    await expect(js.publish(auditSubject('assigned'), forged)).rejects.toThrow();
    const orgJs = jetstream(await team.agents.Eli!.connect(), { apiPrefix: ORG_API });
    await expect(orgJs.publish(notesSubject(8), forged)).rejects.toThrow();
    const after = await Promise.all(
      [TEAM_STREAM, AUDIT_STREAM].map(async (s) => (await jsm.streams.info(s)).state),
    );
    expect(after.map((s) => s.last_seq)).toEqual(before.map((s) => s.last_seq));
  });

  it("refuses an agent acting under a teammate's name: the subject is not hers to ask on", async () => {
    const nc = await team.agents.Eli!.connect();
    await expect(
      nc.request(`parley.act.${team.agents.Fay!.id}.assign`, '{"action":"claim","chatId":30}', {
        timeout: 2_000,
      }),
    ).rejects.toThrow(/no responders/i);
    const assignment = await (await new Kvm(team.relayConnection).open(ASSIGNMENTS_BUCKET)).get('chat.30');
    expect(assignment).toBeNull();
  });
});

describe('the audit command', () => {
  it('prints who did what, and exports it as JSON lines', async () => {
    const cli = ['electron/relay/cli.ts', 'audit', '--data-dir', team.nats.dataDir];
    const { stdout } = await run(process.execPath, cli);
    expect(stdout).toMatch(/Z {2}Dana Lee assigned chat 20 to Fay\n/);
    expect(stdout).toMatch(/Dana Lee wrote a team note in chat 8\n/);
    expect(stdout).toMatch(/Dana Lee saved the team reply \(r\w+: Hours\)\n/);
    const json = (await run(process.execPath, [...cli, '--json', '--since', '1h'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(json).toContainEqual(
      expect.objectContaining({
        action: 'assigned',
        byName: 'Dana Lee',
        chatId: 20,
        to: team.agents.Fay!.id,
      }),
    );
    const future = (await run(process.execPath, [...cli, '--since', '2999-01-01T00:00:00Z'])).stdout;
    expect(future).toBe('Nothing in the audit log yet.\n');
  });
});
