/**
 * `npm run relay -- agent add|remove` for a relay on a nats-server run elsewhere (`--nats-url`,
 * `--nats-creds`): the relay does not configure that server, so the command writes the server's
 * users (the relay's own and every agent's, with their permissions) to one file and says in one line
 * what to do with it. Doing so — the file in place of the server's users, the server reloaded — is
 * what makes the printed join code work, and what makes a removed agent's code stop working.
 * The real CLI in a child process, a real relay, a real external nats-server (startTestNats).
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { askRelayInfo } from '../../../electron/core/relay/relay-info.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import { sandboxFor, tempDir } from '../core/helpers.ts';
import { SLOW_POLLING } from '../core/realtime/helpers.ts';
import { startTestNats, type TestNats } from './helpers.ts';

const run = promisify(execFile);
const relayDir = tempDir('parley-external-relay-');
let nats: TestNats;
let sandbox: RunningSandbox;
let relay: RunningRelay;

/** The relay's CLI, as `npm run relay -- …` runs it, on this relay's folder. */
async function relayCli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [
    'electron/relay/cli.ts',
    '--data-dir',
    relayDir.path,
    ...args,
  ]);
  return stdout;
}

/** What the line says to do: the users file in place of the server's accounts, the server reloaded twice. */
async function applyUsersFile(usersFile: string): Promise<void> {
  const users = JSON.parse(
    readFileSync(usersFile, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n'),
  ) as { accounts: unknown };
  const configFile = join(nats.dataDir, 'nats', 'nats.conf');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(configFile, JSON.stringify({ ...config, accounts: users.accounts }, null, 2));
  expect(await nats.server.reload()).toBe(true);
  expect(await nats.server.reload()).toBe(true);
}

beforeAll(async () => {
  nats = await startTestNats();
  sandbox = await sandboxFor();
  relay = await startRelay({
    dataDir: relayDir.path,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: sandbox.tokens[0] as string },
    nats: {
      url: nats.server.url,
      seed: new TextDecoder().decode(nats.directory.relaySeed()),
      responderSeed: new TextDecoder().decode(nats.directory.responderSeed()),
    },
    sync: SLOW_POLLING,
    vault: new InMemoryVault(),
  });
}, 90_000);

afterAll(async () => {
  await relay?.stop();
  await sandbox?.stop();
  await nats?.close();
  relayDir.remove();
});

describe('agents of a relay on an external nats-server', () => {
  let joinCode: string;
  let usersFile: string;

  it('adds an agent and says in one line how to apply it; done, the join code works', async () => {
    const printed = await relayCli('agent', 'add', 'Dana');
    joinCode = printed.split('\n').find((line) => line.startsWith('parley-join-1.')) as string;
    expect(joinCode).toBeDefined();
    const said = printed.split('\n').filter((line) => line.startsWith('This relay uses the nats-server'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(nats.server.url);
    expect(said[0]).toMatch(
      /reload it twice \(nats-server --signal reload\); until then this code is refused\.$/,
    );
    usersFile = / copy (\S+) over /.exec(said[0] as string)?.[1] as string;

    // Not applied yet: the external server does not know Dana.
    await expect(connectWithJoinCode(joinCode, { reconnect: false })).rejects.toThrow(/authorization/i);

    await applyUsersFile(usersFile);
    const { nc } = await connectWithJoinCode(joinCode, { reconnect: false });
    try {
      expect(await askRelayInfo(nc)).toMatchObject({ apiVersion: 'v2' });
    } finally {
      await nc.close();
    }
  }, 60_000);

  it("removes an agent the same way: applied, its code no longer works, the relay's own still does", async () => {
    const printed = await relayCli('agent', 'remove', 'Dana');
    expect(printed).toMatch(
      /^Removed Dana\. This relay uses the nats-server at .* until then this code is accepted\.$/m,
    );
    await applyUsersFile(usersFile);
    await expect(connectWithJoinCode(joinCode, { reconnect: false })).rejects.toThrow(/authorization/i);
    expect(await relay.connection.rtt()).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
