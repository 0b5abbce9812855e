/**
 * The relay of the demo organization (`npm run relay` with no service named): the embedded sandbox
 * started with it, and yesterday's demo forgotten, since the demo's service is new on every launch.
 * Apart from relay.ts so a real organization's wiring reads without the demo's differences.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { rmSync } from 'node:fs';
import { EVENT_LOG_STREAM, SENDS_STREAM } from '../core/relay-host.ts';

/** The organization's service as the relay reaches it (RelayService in relay.ts). */
export interface DemoRelayService {
  baseUrl: string;
  apiVersion: 'v2';
  token: string;
}

/** The embedded sandbox with the demo organization, stopped with the relay. */
export async function startDemoService(stack: Array<() => Promise<unknown>>): Promise<DemoRelayService> {
  const { EmbeddedDemoSandbox } = await import('../hosts/demo-sandbox.ts');
  const sandbox = new EmbeddedDemoSandbox();
  stack.push(() => sandbox.stop());
  const { url, token } = await sandbox.start();
  return { baseUrl: url, apiVersion: 'v2', token };
}

/**
 * The demo's service is new on every launch: yesterday's store, log and sends describe another
 * organization, so they go (an organization's relay keeps them, of course).
 */
export async function forgetPreviousDemo(nc: NatsConnection, orgDir: string): Promise<void> {
  rmSync(orgDir, { recursive: true, force: true });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.purge(EVENT_LOG_STREAM);
  await jsm.streams.purge(SENDS_STREAM);
}
