/**
 * Answers `parley.info`: what this relay serves, so a desktop joining knows the organization's API
 * version before it opens anything. A request's body is ignored (there is nothing to ask); the
 * answer is the relay's one envelope (core/relay/responder.ts).
 */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { RELAY_INFO_SUBJECT, serveRequests } from '../core/relay-host.ts';

export function serveRelayInfo(nc: NatsConnection, info: { apiVersion: 'v2' | 'v3' }): Subscription {
  return serveRequests(
    nc,
    {
      subject: RELAY_INFO_SUBJECT,
      queue: 'parley-relay',
      maxBytes: 1024,
      what: 'info',
      unavailable: { code: 'internal', message: 'The relay could not say what it serves' },
    },
    () => ({ ok: true, apiVersion: info.apiVersion }),
  );
}
