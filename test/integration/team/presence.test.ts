/**
 * Presence on a real nats-server: what one agent's desktop says appears live on a teammate's
 * watcher; it clears at once when that desktop quits, and by staleness when its process is killed
 * (nats-server 2.9 tells no watcher when a key expires); an agent cannot write a teammate's presence.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresencePublisher, PresenceWatcher } from '../../../electron/core/team/presence.ts';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import { PRESENCE_BUCKET, presenceStatusKey } from '../../../electron/core/relay/team-subjects.ts';
import { eventually } from '../core/helpers.ts';
import { startTestTeam, type TestTeam } from './helpers.ts';

const STALE_AFTER_MS = 1_500;

let team: TestTeam;
let watcher: PresenceWatcher;

beforeAll(async () => {
  team = await startTestTeam(['Dana', 'Eli']);
  watcher = await PresenceWatcher.start(await team.agents.Eli!.connect(), {
    agentId: team.agents.Eli!.id,
    staleAfterMs: STALE_AFTER_MS,
    sweepMs: 100,
  });
});
afterAll(async () => {
  await watcher?.stop();
  await team?.close();
});

describe('presence', () => {
  it("shows a teammate's availability and what they do in a chat, live, and clears it when they quit", async () => {
    const dana = team.agents.Dana!;
    const presence = await PresencePublisher.start(await dana.connect(), {
      agentId: dana.id,
      heartbeatMs: 300,
    });
    await eventually(() => watcher.current.agents.get(dana.id) === 'available', 'Dana available');
    await presence.setChatActivity(7, 'viewing');
    await presence.setChatActivity(7, 'typing');
    await eventually(() => watcher.current.chats.get(7)?.[0]?.activity === 'typing', 'Dana typing in chat 7');
    await presence.setAvailability('busy');
    await eventually(() => watcher.current.agents.get(dana.id) === 'busy', 'Dana busy');
    await presence.stop();
    await eventually(
      () => !watcher.current.agents.has(dana.id) && !watcher.current.chats.has(7),
      'Dana gone',
    );
  });

  it('keeps a heartbeating desktop present well past the staleness limit', async () => {
    const dana = team.agents.Dana!;
    const presence = await PresencePublisher.start(await dana.connect(), {
      agentId: dana.id,
      heartbeatMs: 300,
    });
    await eventually(() => watcher.current.agents.has(dana.id), 'Dana present');
    await new Promise((resolve) => setTimeout(resolve, STALE_AFTER_MS * 2));
    expect(watcher.current.agents.get(dana.id)).toBe('available');
    await presence.stop();
  });

  it('shows an idle agent as away, and available again on input', async () => {
    const dana = team.agents.Dana!;
    let now = Date.now();
    const presence = await PresencePublisher.start(await dana.connect(), {
      agentId: dana.id,
      heartbeatMs: 60_000,
      idleAwayMs: 60_000,
      now: () => now,
    });
    now += 61_000;
    await presence.heartbeat();
    await eventually(() => watcher.current.agents.get(dana.id) === 'away', 'Dana away');
    await presence.noteInput();
    await eventually(() => watcher.current.agents.get(dana.id) === 'available', 'Dana back');
    await presence.stop();
  });

  it("drops a killed desktop's presence once it is stale", async () => {
    const dana = team.agents.Dana!;
    const child = spawn(process.execPath, [fileURLToPath(new URL('./presence-child.ts', import.meta.url))], {
      env: { ...process.env, PARLEY_JOIN_CODE: dana.joinCode },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [ready] = (await once(child.stdout, 'data')) as [Buffer];
    expect(ready.toString()).toContain('ready');
    await eventually(
      () =>
        watcher.current.chats.get(7)?.some((here) => here.agentId === dana.id && here.activity === 'typing'),
      'the child typing',
    );
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await once(child, 'exit');
    await eventually(
      () => !watcher.current.agents.has(dana.id) && !watcher.current.chats.has(7),
      'the killed desktop gone',
    );
    expect(Date.now() - killedAt).toBeGreaterThan(STALE_AFTER_MS / 2);
  });

  it("refuses an agent writing or deleting a teammate's presence: only its own keys are imported", async () => {
    const kv = await new Kvm(jetstream(await team.agents.Eli!.connect(), { apiPrefix: ORG_API })).open(
      PRESENCE_BUCKET,
    );
    const before = await (
      await new Kvm(team.relayConnection).open(PRESENCE_BUCKET)
    ).get(presenceStatusKey(team.agents.Dana!.id));
    // Dana's keys are nowhere in Eli's account (nats.js words "no responders" to a JetStream publish
    // as "jetstream is not enabled").
    await expect(kv.put(presenceStatusKey(team.agents.Dana!.id), '{"availability":"away"}')).rejects.toThrow(
      /no responders|not enabled/i,
    );
    await expect(kv.delete(presenceStatusKey(team.agents.Dana!.id))).rejects.toThrow(
      /no responders|not enabled/i,
    );
    const after = await (
      await new Kvm(team.relayConnection).open(PRESENCE_BUCKET)
    ).get(presenceStatusKey(team.agents.Dana!.id));
    expect(after?.revision).toBe(before?.revision);
    await expect(
      kv.put(presenceStatusKey(team.agents.Eli!.id), '{"availability":"away"}'),
    ).resolves.toBeGreaterThan(0);
  });

  it('skips a malformed presence value instead of showing it', async () => {
    const kv = await new Kvm(jetstream(await team.agents.Eli!.connect(), { apiPrefix: ORG_API })).open(
      PRESENCE_BUCKET,
    );
    await kv.put(presenceStatusKey(team.agents.Eli!.id), '{"availability":"asleep"}');
    await eventually(() => !watcher.current.agents.has(team.agents.Eli!.id), 'the bad value left out');
    await kv.put(presenceStatusKey(team.agents.Eli!.id), '{"availability":"busy"}');
    await eventually(
      () => watcher.current.agents.get(team.agents.Eli!.id) === 'busy',
      'the good value shown',
    );
  });
});
