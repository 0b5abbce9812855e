/**
 * Answers `parley.info`: what this relay serves, so a desktop joining knows the organization's API
 * version before it opens anything. A request's body is ignored (there is nothing to ask).
 */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { RELAY_INFO_SUBJECT } from '../core/relay-host.ts';

export function serveRelayInfo(nc: NatsConnection, info: { apiVersion: 'v2' | 'v3' }): Subscription {
  const answer = JSON.stringify({ apiVersion: info.apiVersion });
  return nc.subscribe(RELAY_INFO_SUBJECT, {
    queue: 'parley-relay',
    callback: (error, msg) => {
      if (!error && msg.reply) msg.respond(answer);
    },
  });
}
