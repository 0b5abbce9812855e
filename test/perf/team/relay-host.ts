/**
 * bench:team's relay, in its own process so its CPU and memory are its own: the real relay
 * (startRelay: the organization's one sync and one subscription, its own nats-server) on the
 * benchmark's sandbox. Driven over stdin/stdout, one JSON object per line:
 *
 *   argv[2] {sandboxUrl, token, dataDir}   → {ready, natsPid, firstSyncS}  (once synced and live)
 *   {add: count, prefix}                   → {joinCodes}                    (agent add, each)
 *   {logged: {marker, count}}              → {logged}    (when each `<marker> <i>` entered the event log)
 *   {stop: true}                           → the relay stops and the process exits
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { setLogSink } from '../../../electron/core/log/logger.ts';
import { connectToRelay } from '../../../electron/core/relay/connect.ts';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay } from '../../../electron/relay/relay.ts';
import { waitFor } from './protocol.ts';

interface RelayHostConfig {
  sandboxUrl: string;
  token: string;
  dataDir: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as RelayHostConfig;
// The relay's log lines would interleave with the protocol on stdout.
setLogSink((line, level) => {
  if (level === 'warn' || level === 'error') process.stderr.write(`relay: ${line.slice(0, 300)}\n`);
});
const say = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

const started = performance.now();
const relay = await startRelay({
  dataDir: config.dataDir,
  service: { baseUrl: config.sandboxUrl, apiVersion: 'v2', token: config.token },
  // The webhook secret stays in this process (no keychain on a benchmark machine).
  vault: new InMemoryVault(),
});
await waitFor(() => relay.session.sync.status.phase === 'incremental', "the relay's first sync", 600_000);
await waitFor(() => relay.realtime.status.state === 'live', "the relay's live events", 60_000);
// The bench's relay starts its own nats-server (no external one is given), so it is there to measure.
if (!relay.nats) throw new Error("the bench's relay runs its own nats-server");
const nats = relay.nats;
say({ ready: true, natsPid: nats.pid, firstSyncS: (performance.now() - started) / 1000 });

/**
 * Each add reloads nats-server and waits (10 s at most) for it to apply the new users; on a loaded
 * machine, quick reloads in a row can leave the last one unapplied. Every code must connect before
 * the desktops are given them: reload again until each does.
 */
async function untilAccepted(joinCodes: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const refused: string[] = [];
    for (const code of joinCodes) {
      const nc = await connectToRelay(parseJoinCode(code), { reconnect: false }).catch(() => null);
      if (nc) await nc.close();
      else refused.push(code);
    }
    if (refused.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${refused.length} join codes still refused`);
    await nats.reload();
  }
}

/**
 * When each customer message `<marker> <i>` was stored in the event log: the stream's own timestamp
 * (wall clock of this machine, ms), read back from the newest messages of the log.
 */
async function loggedAt(marker: string, count: number): Promise<Array<number | null>> {
  const jsm = await jetstreamManager(relay.connection);
  const { state } = await jsm.streams.info(EVENT_LOG_STREAM);
  const logged: Array<number | null> = Array.from({ length: count }, () => null);
  const pattern = new RegExp(`${marker} (\\d+)"`);
  for (let seq = state.last_seq; seq >= Math.max(state.first_seq, state.last_seq - 5 * count); seq--) {
    const stored = await jsm.streams.getMessage(EVENT_LOG_STREAM, { seq }).catch(() => null);
    const i = Number(pattern.exec(stored?.string() ?? '')?.[1] ?? -1);
    if (stored && i >= 0 && i < count) logged[i] = stored.time.getTime();
  }
  return logged;
}

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as {
    add?: number;
    prefix?: string;
    logged?: { marker: string; count: number };
    stop?: boolean;
  };
  if (command.logged) say({ logged: await loggedAt(command.logged.marker, command.logged.count) });
  if (command.add) {
    const joinCodes: string[] = [];
    for (let i = 0; i < command.add; i++)
      joinCodes.push((await relay.agents.add(`${command.prefix ?? 'Agent'} ${i + 1}`)).joinCode);
    await untilAccepted(joinCodes);
    say({ joinCodes });
  }
  if (command.stop) break;
}
await relay.stop();
process.exit(0);
