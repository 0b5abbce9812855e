/**
 * A team on a real nats-server: the relay's streams and the team's buckets, a team relay on the
 * relay's own connection, and agents joined with their join codes (their own permissions), as the
 * relay and several desktop cores would be.
 */
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { TeamClient } from '../../../electron/core/team/team-client.ts';
import { TeamRelay, type TeamRelayOptions } from '../../../electron/core/team/team-relay.ts';
import { appendToEventLog } from '../../../electron/relay/event-log.ts';
import { serveFollows } from '../../../electron/relay/follows.ts';
import { ensureRelayStreams } from '../../../electron/relay/streams.ts';
import { ensureTeamStreams } from '../../../electron/relay/team-streams.ts';
import { startTestNats, type TestNats } from '../relay/helpers.ts';

export interface TestAgent {
  id: string;
  name: string;
  joinCode: string;
  /** A fresh connection with the agent's credentials (a desktop starting). */
  connect(): Promise<NatsConnection>;
  /** A team client on a fresh connection. */
  client(): Promise<TeamClient>;
}

export interface TestTeam {
  nats: TestNats;
  relayConnection: NatsConnection;
  relay: TeamRelay;
  agents: Record<string, TestAgent>;
  /** Another relay of the same organization (high availability), stopped with the team. */
  startAnotherRelay(options?: Partial<TeamRelayOptions>): Promise<TeamRelay>;
  /** A customer's message (V2 `message.received`), logged as the relay logs a verified delivery. */
  customerWrites(chatId: number, text: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTestTeam(
  names: string[],
  options: Partial<TeamRelayOptions> = {},
): Promise<TestTeam> {
  const nats = await startTestNats();
  const relayConnection = await nats.connectAsRelay();
  await ensureRelayStreams(relayConnection);
  await ensureTeamStreams(relayConnection);
  const agents: Record<string, TestAgent> = {};
  for (const name of names) {
    const { agent, joinCode } = await nats.directory.add(name);
    const connect = () => nats.connectWithJoinCode(joinCode);
    agents[name] = {
      id: agent.id,
      name,
      joinCode,
      connect,
      client: async () => new TeamClient(await connect(), agent.id),
    };
  }
  // The follows desktops ask for (presence, assignments, notes…), made as the relay makes them.
  const follows = serveFollows(await nats.connectAsResponder(), relayConnection);
  const relays: TeamRelay[] = [];
  const startRelay = async (more: Partial<TeamRelayOptions> = {}) => {
    const relay = await TeamRelay.start({
      nc: await nats.connectAsRelay(),
      responder: await nats.connectAsResponder(),
      agents: () => nats.directory.list(),
      ...options,
      ...more,
    });
    relays.push(relay);
    return relay;
  };
  const relay = await startRelay();
  let n = 0;
  const js = jetstream(relayConnection);
  return {
    nats,
    relayConnection,
    relay,
    agents,
    startAnotherRelay: startRelay,
    async customerWrites(chatId, text) {
      const eventId = `evt-${Date.now()}-${++n}`;
      const body = {
        api_version: 'v2',
        created_at: new Date().toISOString(),
        event_id: eventId,
        event_type: 'message.received',
        data: {
          id: String(1000 + n),
          chat_id: String(chatId),
          text,
          sent_at: '2026-11-21 10:00:00 +0000',
          from_phone: '+14155550101',
        },
      };
      await appendToEventLog(js, {
        eventId,
        apiVersion: 'v2',
        body: new TextEncoder().encode(JSON.stringify(body)),
      });
    },
    async close() {
      for (const relay of relays) await relay.stop().catch(() => undefined);
      await follows.drain().catch(() => undefined);
      await nats.close();
    },
  };
}
