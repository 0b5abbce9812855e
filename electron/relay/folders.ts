/**
 * The folders of a relay's data folder, named in one place (the deployment's backups name them too:
 * docs/relay.md, "Backups"): the organization's store, the relay's users and keys, and nats-server's
 * config and JetStream files.
 */
import { join } from 'node:path';
import { AgentDirectory } from './agents.ts';

export function relayFolders(dataDir: string): { organization: string; relay: string; nats: string } {
  return {
    organization: join(dataDir, 'organization'),
    relay: join(dataDir, 'relay'),
    nats: join(dataDir, 'nats'),
  };
}

/** The relay's agents, kept in its data folder. */
export function agentDirectoryIn(dataDir: string): AgentDirectory {
  const folders = relayFolders(dataDir);
  return new AgentDirectory(folders.relay, folders.nats);
}
