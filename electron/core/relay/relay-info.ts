/**
 * What a relay tells a desktop about itself (`parley.info`, request/reply): the organization's API
 * version, which the joined workspace takes as its own. The reply is untrusted input (zod).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { RelayConnectionError } from './relay-link.ts';
import { RELAY_INFO_SUBJECT } from './subjects.ts';

/** In the relay's one envelope (responder.ts); a relay of the release before answered without `ok`. */
const RelayInfoReply = z
  .object({ ok: z.literal(true).optional(), apiVersion: z.enum(['v2', 'v3']) })
  .strict();
export type RelayInfo = { apiVersion: 'v2' | 'v3' };

/** Asks the relay; throws in words when it does not answer, or answers something else. */
export async function askRelayInfo(nc: NatsConnection, timeoutMs = 5_000): Promise<RelayInfo> {
  let data: unknown;
  try {
    const reply = await nc.request(RELAY_INFO_SUBJECT, undefined, { timeout: timeoutMs });
    data = reply.json();
  } catch {
    throw new RelayConnectionError("Your team's relay did not answer: is it running?", false);
  }
  const parsed = RelayInfoReply.safeParse(data);
  if (!parsed.success)
    throw new RelayConnectionError("Your team's relay answered something Parley does not understand", false);
  return { apiVersion: parsed.data.apiVersion };
}
