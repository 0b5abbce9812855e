/**
 * The check before a desktop joins its team's relay (the registry's RelayProbe): one connection with
 * the agent's credentials, one question (the organization's API version), closed again. Failures
 * come back in words: relay unreachable, credentials refused, not a Parley relay.
 */
import type { JoinCode } from './join-code.ts';
import { connectToRelay } from './connect.ts';
import { relayConnectionError } from './relay-link.ts';
import { askRelayInfo, type RelayInfo } from './relay-info.ts';

export async function probeRelay(code: JoinCode, options: { signal?: AbortSignal } = {}): Promise<RelayInfo> {
  options.signal?.throwIfAborted();
  let nc;
  try {
    nc = await connectToRelay(code, { reconnect: false });
  } catch (error) {
    throw relayConnectionError(error, code.url);
  }
  try {
    return await askRelayInfo(nc);
  } finally {
    await nc.close().catch(() => undefined);
  }
}
