/**
 * npm run bench:relay-checks — what the relay's own checks cost (issue #33: "the cost of the new
 * checks per send and per read"), written to docs/bench/relay-checks.json:
 *
 * 1. Per read: an agent's `parley.info` — through its account's import (the server's identity
 *    header, the `_R_` reply), the relay's responder (askerOf, the size check, the per-agent count,
 *    the envelope) — beside the same trivial answer from a bare subscription asked inside the team's
 *    own account, in alternating rounds; and a real read (`parley.read.lines`) by the agent.
 * 2. Per send: the door's rules on the relay (admitRelayedSend: the chat, content, opt-out, V3-only
 *    options) and the team's (refusedByTeam: membership, and with "only the assignee replies" on,
 *    the conversation's assignment read from its bucket), timed in a loop on the relay's store.
 *
 * Prints one JSON object last. `-- --quick` runs fewer rounds (not recorded).
 */
import { loadavg } from 'node:os';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { setLogLevel } from '../../electron/core/log/logger.ts';
import { admitRelayedSend } from '../../electron/core/outbox/send-door.ts';
import { connectWithJoinCode } from '../../electron/core/relay/connect.ts';
import { readSubject, RELAY_INFO_SUBJECT } from '../../electron/core/relay/subjects.ts';
import { ASSIGNMENTS_BUCKET } from '../../electron/core/relay/team-subjects.ts';
import { InMemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { startRelay } from '../../electron/relay/relay.ts';
import { refusedByTeam } from '../../electron/relay/send-check.ts';
import { DEMO_TOKEN, startSandbox } from '../../sandbox/index.ts';
import { tempDir } from '../integration/core/helpers.ts';
import { machine, percentile, writeReport } from './lib.ts';

setLogLevel('warn');
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 6;
const PER_ROUND = quick ? 300 : 1_000;
const SEND_CHECKS = quick ? 500 : 5_000;

const round3 = (n: number | null) => (n === null ? null : Math.round(n * 1000) / 1000);

async function roundTrips(
  nc: NatsConnection,
  subject: string,
  body: string,
  count: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await nc.request(subject, body, { timeout: 5_000 });
    times.push(performance.now() - started);
  }
  return times;
}

function summary(times: number[]): { p50_ms: number | null; p99_ms: number | null } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50_ms: round3(percentile(sorted, 50)), p99_ms: round3(percentile(sorted, 99)) };
}

const load = { before: loadavg().map((n) => Math.round(n * 100) / 100) };
const sandbox = await startSandbox({ seed: 'demo', tokens: [DEMO_TOKEN], quiet: true });
const dir = tempDir('parley-bench-relay-checks-');
const relay = await startRelay({
  dataDir: dir.path,
  service: { baseUrl: sandbox.url, apiVersion: 'v2', token: DEMO_TOKEN },
  vault: new InMemoryVault(),
});
try {
  while (relay.session.sync.status.phase !== 'incremental') await new Promise((r) => setTimeout(r, 100));
  const { joinCode, agent } = await relay.agents.add('Dana');
  const dana = await connectWithJoinCode(joinCode, { reconnect: false });

  // 1. Per read: the whole path an agent's request takes now beside a bare one in one account.
  const nc = relay.connection;
  const answer = { ok: true as const, apiVersion: 'v2' };
  const bare = nc.subscribe('bench.bare', {
    callback: (_e, msg) => void msg.respond(JSON.stringify(answer)),
  });
  const viaResponder: number[] = [];
  const viaBare: number[] = [];
  const reads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    viaBare.push(...(await roundTrips(nc, 'bench.bare', '{}', PER_ROUND)));
    viaResponder.push(...(await roundTrips(dana.nc, RELAY_INFO_SUBJECT, '{}', PER_ROUND)));
    reads.push(...(await roundTrips(dana.nc, readSubject('lines'), '{}', PER_ROUND)));
  }
  bare.unsubscribe();

  // 2. Per send: the door's rules and the team's, on the relay's store and buckets.
  const store = relay.session.store;
  const chat = store.chats.list().find((c) => !c.isGroup);
  if (!chat) throw new Error('the demo organization has no one-to-one chat');
  const send = { kind: 'send' as const, chatId: chat.id, text: 'On my way', files: [], attachmentUrls: [] };
  const agents = () => new Map([[agent.id, agent.name]]);
  const assignments = await new Kvm(nc).open(ASSIGNMENTS_BUCKET);
  const time = async (work: () => unknown): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < SEND_CHECKS; i++) await work();
    return ((performance.now() - started) / SEND_CHECKS) * 1000;
  };
  const doorUs = await time(() =>
    admitRelayedSend(store, { chatId: chat.id, text: send.text, attachmentCount: 0 }),
  );
  const teamUs = await time(() => refusedByTeam(relay.team, assignments, send, agent.id, agents));
  await relay.team.updateSettings({ assigneeOnlyComposer: true });
  const teamAssigneeOnlyUs = await time(() => refusedByTeam(relay.team, assignments, send, agent.id, agents));
  await relay.team.updateSettings({ assigneeOnlyComposer: false });
  await dana.nc.close();

  const bareSummary = summary(viaBare);
  const responderSummary = summary(viaResponder);
  const report = {
    command: `npm run bench:relay-checks${quick ? ' -- --quick' : ''}`,
    machine: machine(),
    load_average_1_5_15: { ...load, after: loadavg().map((n) => Math.round(n * 100) / 100) },
    rounds: ROUNDS,
    requests_per_round: PER_ROUND,
    per_read: {
      bare_subscription_one_account: bareSummary,
      agent_info_through_import_and_responder: responderSummary,
      accounts_and_responder_added_p50_ms: round3((responderSummary.p50_ms ?? 0) - (bareSummary.p50_ms ?? 0)),
      agent_read_lines: summary(reads),
    },
    per_send_us: {
      door_rules: round3(doorUs),
      team_rules: round3(teamUs),
      team_rules_assignee_only: round3(teamAssigneeOnlyUs),
    },
  };
  if (!quick) console.log(`written to ${writeReport('relay-checks', report)}`);
  console.log(JSON.stringify(report));
} finally {
  await relay.stop();
  await sandbox.stop();
  dir.remove();
}
