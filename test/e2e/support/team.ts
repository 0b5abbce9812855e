/**
 * A team for end-to-end tests: a real relay (startRelay: its own nats-server in a temp folder, the
 * organization on a quiet in-process sandbox, so every customer message is one the test sends) and
 * two browser hosts, each joined with its own agent's join code, as two agents' desktops.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callCore } from './parley.ts';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../../electron/relay/relay.ts';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract/methods.ts';
import { DEMO_TOKEN, startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';
import { control } from '../../integration/core/helpers.ts';

/** One agent's desktop: a browser host joined to the relay. */
export class TeamDesktop {
  readonly host: BrowserHost;
  readonly agentId: string;
  readonly name: string;
  readonly dataDir: string;

  constructor(host: BrowserHost, agentId: string, name: string, dataDir: string) {
    this.host = host;
    this.agentId = agentId;
    this.name = name;
    this.dataDir = dataDir;
  }

  get url(): string {
    return this.host.url;
  }

  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
    return callCore(this.host, method, input);
  }

  /** Opens the desktop's page and waits for the joined inbox's rows. */
  async open(page: Page): Promise<void> {
    await page.goto(this.url);
    await page.getByRole('listbox', { name: 'Conversations' }).getByRole('option').first().waitFor();
  }
}

export interface Team {
  relay: RunningRelay;
  sandbox: RunningSandbox;
  desktops: TeamDesktop[];
  /** The sandbox's control API (faults, simulated customers). */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts the relay and one joined desktop per name, each with its first sync done. */
export async function startTeam(names: readonly string[]): Promise<Team> {
  const sandbox = await startSandbox({ seed: 'demo', tokens: [DEMO_TOKEN], quiet: true });
  const relayDir = mkdtempSync(join(tmpdir(), 'parley-e2e-relay-'));
  const relay = await startRelay({
    dataDir: relayDir,
    service: { baseUrl: sandbox.url, apiVersion: 'v2', token: DEMO_TOKEN },
    vault: new InMemoryVault(),
  });
  const desktops: TeamDesktop[] = [];
  const stop = async () => {
    for (const desktop of desktops) {
      await desktop.host.stop().catch(() => undefined);
      rmSync(desktop.dataDir, { recursive: true, force: true });
    }
    await relay.stop();
    await sandbox.stop();
    rmSync(relayDir, { recursive: true, force: true });
  };
  try {
    await until('the relay’s first sync', () => relay.session.sync.status.phase === 'incremental');
    for (const name of names) {
      const { joinCode, agent } = await relay.agents.add(name);
      const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-agent-'));
      const host = await startBrowserHost({
        dataDir,
        port: 0,
        vaultService: `parley-e2e-${randomUUID()}`,
        // Until it joins, the desktop shows the organization's sandbox as its demo.
        demo: { start: async () => ({ url: sandbox.url, token: DEMO_TOKEN }), stop: async () => {} },
      });
      const desktop = new TeamDesktop(host, agent.id, name, dataDir);
      desktops.push(desktop);
      await desktop.call('workspaces.join', { joinCode, name: 'Harbor team' });
      const everyChat = relay.session.store.chats.count();
      await until(`${name}'s inbox through the relay`, async () => {
        const status = await desktop.call('app.syncStatus', {});
        return status.phase === 'incremental' && status.chatsKnown >= everyChat;
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    relay,
    sandbox,
    desktops,
    control: (method, path, body) => control(sandbox, method, path, body),
    stop,
  };
}
