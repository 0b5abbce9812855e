/**
 * Agents on a real nats-server: `agent add` gives a join code that connects with exactly the agent's
 * own permissions; an agent cannot send as another agent, write into the event log or listen on
 * another agent's replies; `agent remove` cuts its live connection and refuses the next one.
 */
import { writeFileSync } from 'node:fs';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureAgentFiles,
  openAgentFiles,
  openAgentFilesAsRelay,
  putFile,
} from '../../../electron/core/relay/files.ts';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { agentFilesBucket } from '../../../electron/core/relay/subjects.ts';
import { tempDir } from '../core/helpers.ts';
import { ensureRelayStreams } from '../../../electron/relay/streams.ts';
import {
  agentInboxPrefix,
  EVENT_LOG_STREAM,
  eventLogSubject,
  SENDS_STREAM,
  sendSubject,
} from '../../../electron/core/relay/subjects.ts';
import { startTestNats, type TestNats } from './helpers.ts';

let nats: TestNats;
let dana: { id: string; joinCode: string };
let eli: { id: string; joinCode: string };

beforeAll(async () => {
  nats = await startTestNats();
  await ensureRelayStreams(await nats.connectAsRelay());
  const added = [await nats.directory.add('Dana'), await nats.directory.add('Eli')];
  [dana, eli] = added.map(({ agent, joinCode }) => ({ id: agent.id, joinCode })) as [typeof dana, typeof eli];
});
afterAll(async () => {
  await nats?.close();
});

const bytes = (text: string) => new TextEncoder().encode(text);

describe('agent add and list', () => {
  it('lists the agents with their public keys only', () => {
    const listed = nats.directory.list();
    expect(listed.map((a) => a.name)).toEqual(['Dana', 'Eli']);
    expect(JSON.stringify(listed)).not.toContain(parseJoinCode(dana.joinCode).seed);
  });

  it('refuses a second agent of the same name', async () => {
    await expect(nats.directory.add('dana')).rejects.toThrow(/already an agent named/);
  });

  it("lets an agent publish its own sends through the join code's credentials", async () => {
    const nc = await nats.connectWithJoinCode(dana.joinCode);
    const ack = await jetstream(nc).publish(sendSubject(dana.id, 'k1'), bytes('{}'));
    expect(ack.stream).toBe('PARLEY_SENDS');
  });
});

describe("an agent's account: its imports are all it can reach", () => {
  const stored = async (stream: string) =>
    (await (await jetstreamManager(await nats.connectAsRelay())).streams.info(stream)).state.last_seq;

  it("refuses a send published on another agent's subject: it reaches no stream", async () => {
    const before = await stored(SENDS_STREAM);
    const nc = await nats.connectWithJoinCode(dana.joinCode);
    await expect(jetstream(nc).publish(sendSubject(eli.id, 'k2'), bytes('{}'))).rejects.toThrow();
    expect(await stored(SENDS_STREAM)).toBe(before);
  });

  it('refuses an agent publishing into the event log, directly or under the team’s API prefix', async () => {
    const before = await stored(EVENT_LOG_STREAM);
    const nc = await nats.connectWithJoinCode(dana.joinCode);
    for (const js of [jetstream(nc), jetstream(nc, { apiPrefix: ORG_API })])
      await expect(js.publish(eventLogSubject('v2'), bytes('{}'), { msgID: 'forged' })).rejects.toThrow();
    expect(await stored(EVENT_LOG_STREAM)).toBe(before);
  });

  it("hears nothing of another agent's replies, whatever it listens to", async () => {
    const nc = await nats.connectWithJoinCode(dana.joinCode);
    const heard: string[] = [];
    nc.subscribe('>', { callback: (_e, msg) => void heard.push(msg.subject) });
    nc.subscribe(`${agentInboxPrefix(eli.id)}.>`, { callback: (_e, msg) => void heard.push(msg.subject) });
    await nc.flush();
    const other = await nats.connectWithJoinCode(eli.joinCode);
    await jetstream(other).publish(sendSubject(eli.id, `k-${Date.now()}`), bytes('{}'));
    await other.flush();
    await nc.flush();
    expect(heard).toEqual([]);
  });
});

describe("an agent's files", () => {
  it("may put and read files in its own bucket, and not in another agent's", async () => {
    const relay = await nats.connectAsRelay();
    await ensureAgentFiles(relay, dana.id);
    await ensureAgentFiles(relay, eli.id);
    const dir = tempDir('parley-agent-files-');
    try {
      const path = `${dir.path}/f.txt`;
      writeFileSync(path, 'mine');
      const nc = await nats.connectWithJoinCode(dana.joinCode);
      const own = await openAgentFiles(nc, dana.id);
      await putFile(own, 'k1/0', path);
      expect(new TextDecoder().decode((await own.getBlob('k1/0')) ?? new Uint8Array())).toBe('mine');
      // Eli's bucket lives in Eli's account: from Dana's there is no such thing.
      await expect(openAgentFiles(nc, eli.id)).rejects.toThrow(/not found/i);
      await expect(
        jetstream(nc).publish(`$O.${agentFilesBucket(eli.id)}.C.forged`, bytes('x')),
      ).rejects.toThrow();
      const eliFiles = await openAgentFilesAsRelay(relay, eli.id);
      expect((await eliFiles.status()).size).toBe(0);
    } finally {
      dir.remove();
    }
  });
});

describe('agent remove', () => {
  it("closes the removed agent's connection and refuses the next one", async () => {
    const added = await nats.directory.add('Fay');
    const nc = await nats.connectWithJoinCode(added.joinCode);
    const closed = nc.closed();
    const removed = await nats.directory.remove('Fay');
    expect(removed.applied).toBe(true);
    await closed;
    expect(nc.isClosed()).toBe(true);
    const seed = new TextEncoder().encode(parseJoinCode(added.joinCode).seed);
    await expect(
      connect({ servers: nats.server.url, authenticator: nkeyAuthenticator(seed) }),
    ).rejects.toThrow(/authorization/i);
    expect(nats.directory.list().map((a) => a.name)).toEqual(['Dana', 'Eli']);
  });

  it('leaves the other agents connected', async () => {
    const nc = await nats.connectWithJoinCode(eli.joinCode);
    const added = await nats.directory.add('Gus');
    await nats.directory.remove(added.agent.id);
    const ack = await jetstream(nc).publish(sendSubject(eli.id, 'k3'), bytes('{}'));
    expect(ack.duplicate).toBe(false);
  });
});
