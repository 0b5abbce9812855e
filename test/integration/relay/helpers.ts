/**
 * A real nats-server for the relay's tests: started on a free port with JetStream in a temp folder,
 * its users written by the relay's own AgentDirectory (the relay's nkey and any agents added).
 */
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { AgentDirectory } from '../../../electron/relay/agents.ts';
import { connectWithJoinCode as connectToRelay } from '../../../electron/core/relay/connect.ts';
import { startNatsServer, type RunningNatsServer } from '../../../electron/relay/nats-server.ts';
import { tempDir } from '../core/helpers.ts';

export interface TestNats {
  dataDir: string;
  directory: AgentDirectory;
  server: RunningNatsServer;
  /** A connection as the relay itself (every permission). */
  connectAsRelay(): Promise<NatsConnection>;
  /** A connection as the agent a join code names, with its own inbox prefix, as a desktop would. */
  connectWithJoinCode(joinCode: string): Promise<NatsConnection>;
  /** Stops the server (or kills it: a crash) and starts it again on the same port and folder. */
  restart(how?: 'stop' | 'kill'): Promise<void>;
  close(): Promise<void>;
}

export async function startTestNats(): Promise<TestNats> {
  const dir = tempDir('parley-relay-');
  const directory = new AgentDirectory(`${dir.path}/relay`, `${dir.path}/nats`);
  await directory.writeConfig('127.0.0.1');
  let server = await startNatsServer({ dir: `${dir.path}/nats` });
  directory.recordState({ joinUrl: server.url, natsHost: '127.0.0.1' });
  const connections: NatsConnection[] = [];
  const track = (nc: NatsConnection) => (connections.push(nc), nc);
  return {
    dataDir: dir.path,
    directory,
    get server() {
      return server;
    },
    connectAsRelay: async () =>
      track(await connect({ servers: server.url, authenticator: nkeyAuthenticator(directory.relaySeed()) })),
    connectWithJoinCode: async (joinCode) => track((await connectToRelay(joinCode, { reconnect: false })).nc),
    async restart(how = 'stop') {
      await (how === 'kill' ? server.kill() : server.stop());
      server = await startNatsServer({ dir: `${dir.path}/nats` });
    },
    async close() {
      await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
      await server.stop();
      dir.remove();
    },
  };
}
