/**
 * Attachments between a desktop and its relay travel through the JetStream object store, one bucket
 * per agent (`parley_files_<agent>`): an object store's subjects name objects by an encoded name and
 * chunks by a random id, so no permission could keep an agent to a name prefix within a shared
 * bucket; a bucket of its own can be granted whole. It lives in the agent's own account (grants.ts),
 * where nothing of a teammate's is; the relay reaches it through that account's JetStream API, and
 * creates it with a size limit and a time to live, so nothing an agent uploads can fill the server
 * or stay for good. What the relay reads there is as untrusted as anything else from that agent.
 *
 *   desktop send with a file:  put <key>/<n> into its bucket ─▶ send names the object ─▶ relay reads it
 *   desktop download:          relay puts download/<key> into the asker's bucket ─▶ desktop reads it
 */
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { jetstream, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { agentFilesApi, agentFilesDeliveries } from './grants.ts';
import { agentFilesBucket } from './subjects.ts';

/** How long an uploaded or downloaded file stays in a bucket: long enough for a retried send. */
const AGENT_FILES_TTL_MS = 24 * 60 * 60 * 1000;
/** What one agent's files may hold at once. */
const AGENT_FILES_MAX_BYTES = 512 * 1024 * 1024;

/**
 * The relay's reach into an agent's account: its JetStream API there, and where an object read of
 * the relay (a push consumer in that account) delivers back to the relay's own.
 */
function inAgentAccount(nc: NatsConnection, agentId: string): JetStreamClient {
  return jetstream(nc, { apiPrefix: agentFilesApi(agentId), watcherPrefix: agentFilesDeliveries(agentId) });
}

/** Creates (or opens) the agent's bucket with its limits; the relay's engine only. */
export async function ensureAgentFiles(nc: NatsConnection, agentId: string): Promise<ObjectStore> {
  return new Objm(inAgentAccount(nc, agentId)).create(agentFilesBucket(agentId), {
    storage: StorageType.File,
    ttl: nanos(AGENT_FILES_TTL_MS),
    max_bytes: AGENT_FILES_MAX_BYTES,
  });
}

/** The agent's bucket as its desktop opens it: in its own account. */
export function openAgentFiles(nc: NatsConnection, agentId: string): Promise<ObjectStore> {
  return new Objm(nc).open(agentFilesBucket(agentId));
}

/** An agent's bucket as the relay opens it, through that agent's account. */
export function openAgentFilesAsRelay(nc: NatsConnection, agentId: string): Promise<ObjectStore> {
  return new Objm(inAgentAccount(nc, agentId)).open(agentFilesBucket(agentId));
}

/** Puts a file under `name`, streamed in chunks. */
export async function putFile(
  files: ObjectStore,
  name: string,
  path: string,
): Promise<{ object: string; size: number }> {
  const source = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  const info = await files.put({ name }, source);
  return { object: name, size: info.size ?? statSync(path).size };
}

/** Saves the object `name` to `to`, whole or not at all; false when there is no such object. */
export async function getFile(files: ObjectStore, name: string, to: string): Promise<boolean> {
  const result = await files.get(name);
  if (!result) return false;
  const partial = `${to}.part`;
  try {
    await pipeline(Readable.fromWeb(result.data as never), createWriteStream(partial) as Writable);
    const error = await result.error;
    if (error) throw error;
    renameSync(partial, to);
    return true;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
