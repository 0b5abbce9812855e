/**
 * A relay in a process of its own, for tests that SIGKILL it: started from a JSON config (argv[2]) on
 * a shared nats-server with a fixed webhook port, its webhook secret in the OS keychain (so the
 * relay started again on the same folder answers the same subscription), or, without a keyring
 * service named, wherever the relay keeps it itself (relayVault). Prints "ready" once its live
 * events are up and its first sync (or catch-up) is done.
 */
import { KeyringVault } from '../../../electron/core/vault/keyring-vault.ts';
import { startRelay } from '../../../electron/relay/relay.ts';

export interface RelayChildConfig {
  dataDir: string;
  serviceUrl: string;
  token: string;
  natsUrl: string;
  natsSeed: string;
  natsResponderSeed: string;
  webhookPort: number;
  keyringService: string | null;
  pollLeaseMs: number;
}

const config = JSON.parse(process.argv[2] as string) as RelayChildConfig;
const relay = await startRelay({
  dataDir: config.dataDir,
  instance: 'crash',
  service: { baseUrl: config.serviceUrl, apiVersion: 'v2', token: config.token },
  nats: { url: config.natsUrl, seed: config.natsSeed, responderSeed: config.natsResponderSeed },
  tunnel: {
    provider: 'custom',
    customPublicUrl: `http://127.0.0.1:${config.webhookPort}`,
    customLocalPort: config.webhookPort,
  },
  pollLeaseMs: config.pollLeaseMs,
  ...(config.keyringService ? { vault: new KeyringVault({ service: config.keyringService }) } : {}),
  sync: { openChatIntervalMs: 60_000, backgroundIntervalMs: 60_000, liveBackgroundIntervalMs: 60_000 },
});
const started = Date.now();
while (relay.realtime.status.state !== 'live' || relay.session.sync.status.phase !== 'incremental') {
  if (Date.now() - started > 60_000) throw new Error('the relay did not come up');
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.stdout.write('ready\n');
process.once('SIGTERM', () => void relay.stop().then(() => process.exit(0)));
