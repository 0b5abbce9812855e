/**
 * bench:team's lightweight followers: many agents' connections in this one process, each following
 * the relay's event log as a desktop's event source does (its follow, `followLog`: a push consumer
 * on the agent's own credentials, every message validated as untrusted input: `checkLogged`) but
 * with no store behind it: the fan-out alone, at a larger team than the desktops. A follow lost
 * (which a desktop would replace) is counted and reported as `lost`.
 *
 *   argv[2] FollowersConfig → {following: n}  (every consumer exists)
 *                           → {arrivals: (number|null)[][]} (every message on every follower, or on {report})
 *   {report: true}   report now;   {stop: true}   close and exit
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { createInterface } from 'node:readline';
import { connectToRelay } from '../../../electron/core/relay/connect.ts';
import { checkLogged } from '../../../electron/core/relay/event-log-checks.ts';
import { parseJoinCode } from '../../../electron/core/relay/join-code.ts';
import { followLog } from '../../../electron/core/relay/log-follow.ts';
import { ORG_API } from '../../../electron/core/relay/grants.ts';
import { EVENT_LOG_STREAM } from '../../../electron/core/relay/subjects.ts';
import { wallNow } from './protocol.ts';

export interface FollowersConfig {
  /** Follower i connects with joinCodes[i % joinCodes.length]. */
  joinCodes: string[];
  followers: number;
  marker: string;
  messages: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as FollowersConfig;
const say = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
const pattern = new RegExp(`${config.marker} (\\d+)`);
const arrivals: Array<Array<number | null>> = Array.from({ length: config.followers }, () =>
  Array.from({ length: config.messages }, () => null),
);
let reported = false;
let skipped = 0;
let lost = 0;
const report = (): void => {
  if (reported) return;
  reported = true;
  say({ arrivals, skipped, lost });
};
/** Arrivals still expected: counted down, not looked for (a scan of every row per message costs the
 * followers' own latency: 200 × 100 entries a message). */
let remaining = config.followers * config.messages;

async function follow(index: number): Promise<NatsConnection> {
  const code = parseJoinCode(config.joinCodes[index % config.joinCodes.length] as string);
  const nc = await connectToRelay(code);
  // From what is logged next, as a desktop that has taken everything before.
  const { state } = await (
    await jetstreamManager(nc, { apiPrefix: ORG_API, checkAPI: false })
  ).streams.info(EVENT_LOG_STREAM);
  await followLog(nc, {
    agentId: code.agentId,
    slot: 'ev',
    fromSeq: state.last_seq + 1,
    onMessage: (msg) => {
      const checked = checkLogged(msg.subject, msg.data, msg.headers?.get('Nats-Msg-Id'));
      if (!checked.ok) {
        skipped++;
        return;
      }
      const i = Number(pattern.exec(checked.body)?.[1] ?? -1);
      const row = arrivals[index] as Array<number | null>;
      if (i >= 0 && i < config.messages && row[i] === null) {
        row[i] = wallNow();
        if (--remaining === 0) report();
      }
    },
    onLost: () => void lost++,
  });
  return nc;
}

// Connected a few at a time, as agents arrive, rather than 200 handshakes in one burst.
const connections: NatsConnection[] = [];
for (let i = 0; i < config.followers; i += 20)
  connections.push(
    ...(await Promise.all(
      Array.from({ length: Math.min(20, config.followers - i) }, (_, k) => follow(i + k)),
    )),
  );
say({ following: connections.length });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { report?: boolean; stop?: boolean };
  if (command.report) report();
  if (command.stop) break;
}
await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
process.exit(0);
