/**
 * The team's agents: who may connect to the relay's nats-server, and as what. Each agent is an nkey
 * user in an account of its own (nats-accounts.ts), whose imports are exactly `agentImports`; the
 * relay keeps its public key (agents.json); the seed goes into the join code, printed once and
 * stored nowhere here. Removing an agent rewrites the config and reloads the server, which closes
 * that agent's connections at once (nats-server drops clients no longer authorized on reload).
 *
 * The relay's own users are nkeys too (mode 0600): its engine (relay.nk), with every right in the
 * team's account, and its responder (responder.nk), which answers agents and may publish nothing
 * else. Nothing here is the service's token: that one lives only in the relay's process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nkeys } from '@nats-io/transport-node';
import { z } from 'zod';
import { encodeJoinCode, TEAM_ROLES, type TeamRole } from '../core/relay-host.ts';
import { relayAccounts } from './nats-accounts.ts';
import {
  fsyncBeforeAckSupported,
  natsServerVersion,
  reloadNatsServer,
  writeNatsConfig,
} from './nats-server.ts';

const Agent = z.object({
  id: z.string(),
  name: z.string(),
  publicKey: z.string(),
  addedAt: z.number(),
  /** Absent (an agent added before roles): `agent`. */
  role: z.enum(TEAM_ROLES).optional(),
});
export type Agent = z.infer<typeof Agent>;

const AgentsFile = z.object({ agents: z.array(Agent) });
/**
 * Written by the running relay: where agents connect and which host the server listens on; with a
 * nats-server run elsewhere (`--nats-url`), that server and the relay's public key there.
 */
const RelayState = z.object({
  joinUrl: z.string(),
  natsHost: z.string(),
  external: z
    .object({ url: z.string(), relayKey: z.string(), responderKey: z.string().optional() })
    .optional(),
  /** The relay's own server listens with TLS: its files, and the CA for join codes. */
  tls: z.object({ certFile: z.string(), keyFile: z.string(), caFile: z.string().optional() }).optional(),
});
export type RelayState = z.infer<typeof RelayState>;

export const MAX_AGENT_NAME = 80;

/** Where the users of a nats-server run elsewhere are written, for its operator to apply. */
export const EXTERNAL_USERS_FILE = 'users.conf';

/** What `agent add|remove` did: applied to the running server, or to be applied to an external one. */
export type Applied = boolean | { external: string; usersFile: string };

export class AgentDirectory {
  readonly #dir: string;
  readonly #natsDir: string;

  /** `dir`: the relay's own folder (agents.json, relay.nk); `natsDir`: the server's (its config). */
  constructor(dir: string, natsDir: string) {
    this.#dir = dir;
    this.#natsDir = natsDir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  list(): Agent[] {
    const file = join(this.#dir, 'agents.json');
    if (!existsSync(file)) return [];
    return AgentsFile.parse(JSON.parse(readFileSync(file, 'utf8'))).agents;
  }

  /** The relay's own seed, its engine's (created on first use). */
  relaySeed(): Uint8Array {
    return this.#seed('relay.nk');
  }

  /** The seed of the relay's responder, the one user that answers agents (created on first use). */
  responderSeed(): Uint8Array {
    return this.#seed('responder.nk');
  }

  #seed(name: string): Uint8Array {
    const file = join(this.#dir, name);
    if (!existsSync(file))
      writeFileSync(file, new TextDecoder().decode(nkeys.createUser().getSeed()), { mode: 0o600 });
    return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
  }

  /** The relay's last recorded address for agents; undefined before its first start. */
  state(): RelayState | undefined {
    const file = join(this.#dir, 'state.json');
    return existsSync(file) ? RelayState.parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
  }

  recordState(state: RelayState): void {
    writeFileSync(join(this.#dir, 'state.json'), `${JSON.stringify(state)}\n`, { mode: 0o600 });
  }

  /**
   * A nats-server run elsewhere is not this relay's to configure: its accounts (the relay's users
   * and every agent's account) are written to `users.conf` beside the relay's folder, an
   * `accounts` block like deploy/relay/nats/users.conf, for that server's operator to put in
   * place and reload (twice when an agent is new: see #apply).
   */
  writeExternalUsers(external: { relayKey: string; responderKey?: string | undefined }): string {
    const file = join(this.#natsDir, EXTERNAL_USERS_FILE);
    mkdirSync(this.#natsDir, { recursive: true, mode: 0o700 });
    const accounts = this.#accounts(external.relayKey, external.responderKey);
    const header =
      '# Written by the Parley relay (agent add|remove): the accounts of its external nats-server.\n' +
      "# Put it in place of that server's users.conf and reload it twice (nats-server --signal reload):\n" +
      "# nats-server 2.9 wires a new account's imports only on the reload after the one that made it.\n";
    // JSON is valid NATS config syntax, and every value quoted: no name or key can inject a directive.
    writeFileSync(file, `${header}${JSON.stringify({ accounts }, null, 2)}\n`, { mode: 0o600 });
    return file;
  }

  #accounts(engine: string, responder = nkeys.fromSeed(this.responderSeed()).getPublicKey()) {
    return relayAccounts({
      engine,
      responder,
      agents: this.list().map(({ id, publicKey }) => ({ id, publicKey })),
    });
  }

  /** Writes the server's config for the relay and the current agents (before a start or a reload). */
  async writeConfig(natsHost = this.state()?.natsHost, tls = this.state()?.tls): Promise<void> {
    const relay = nkeys.fromSeed(this.relaySeed()).getPublicKey();
    const version = natsServerVersion();
    await writeNatsConfig(this.#natsDir, {
      ...(natsHost ? { host: natsHost } : {}),
      fsyncBeforeAck: version !== undefined && fsyncBeforeAckSupported(version),
      ...(tls ? { tls } : {}),
      accounts: this.#accounts(relay),
    });
  }

  /**
   * Adds an agent and returns its join code (shown once). A running server is reloaded; otherwise
   * the agent can connect from the relay's next start. The team's first agent is an admin (someone
   * can change the team's settings from a desktop); after that, whoever runs the relay decides
   * (`admin`, or `setRole` later).
   */
  async add(
    name: string,
    options: { admin?: boolean } = {},
  ): Promise<{ agent: Agent; joinCode: string; applied: Applied }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > MAX_AGENT_NAME)
      throw new Error(`An agent's name is 1 to ${MAX_AGENT_NAME} characters`);
    const agents = this.list();
    if (agents.some((a) => a.name.toLowerCase() === trimmed.toLowerCase()))
      throw new Error(`There is already an agent named "${trimmed}"`);
    const state = this.state();
    const joinUrl = state?.joinUrl;
    if (!joinUrl) throw new Error('Start the relay once (npm run relay) before adding agents');
    const user = nkeys.createUser();
    const agent: Agent = {
      id: agentIdFor(trimmed),
      name: trimmed,
      publicKey: user.getPublicKey(),
      addedAt: Date.now(),
      role: options.admin || agents.length === 0 ? 'admin' : 'agent',
    };
    this.#save([...agents, agent]);
    const applied = await this.#apply({ newAccount: true });
    const seed = new TextDecoder().decode(user.getSeed());
    // A private CA travels in the code: the desktop trusts that CA for this relay, and no other.
    const ca = state?.tls?.caFile ? readFileSync(state.tls.caFile, 'utf8') : undefined;
    const code = encodeJoinCode({ url: joinUrl, agentId: agent.id, seed, ...(ca ? { ca } : {}) });
    return { agent, joinCode: code, applied };
  }

  /** Removes an agent (by id or name); its connections are closed before this resolves. */
  async remove(idOrName: string): Promise<{ agent: Agent; applied: Applied }> {
    const agents = this.list();
    const agent = this.#find(agents, idOrName);
    this.#save(agents.filter((a) => a !== agent));
    return { agent, applied: await this.#apply() };
  }

  /**
   * Makes an agent (by id or name) an admin or an agent. Nothing to reload: the relay reads roles
   * on every action and shows them to desktops within seconds.
   */
  setRole(idOrName: string, role: TeamRole): Agent {
    const agents = this.list();
    const agent = { ...this.#find(agents, idOrName), role };
    this.#save(agents.map((a) => (a.id === agent.id ? agent : a)));
    return agent;
  }

  #find(agents: Agent[], idOrName: string): Agent {
    const wanted = idOrName.trim().toLowerCase();
    const agent = agents.find((a) => a.id === idOrName || a.name.toLowerCase() === wanted);
    if (!agent) throw new Error(`No agent "${idOrName}" (see: agent list)`);
    return agent;
  }

  /**
   * Writes the accounts and reloads the relay's own server. An account new on a reload has its
   * imports wired by nats-server 2.9 only on the next one (docs/relay-authority.md, t4), so a new
   * agent takes two; the time a reload may take grows with the team (500 agents: ~15 s).
   */
  async #apply(options: { newAccount?: boolean } = {}): Promise<Applied> {
    const external = this.state()?.external;
    if (external) return { external: external.url, usersFile: this.writeExternalUsers(external) };
    await this.writeConfig();
    const timeoutMs = 10_000 + 60 * this.list().length;
    const applied = await reloadNatsServer(this.#natsDir, timeoutMs);
    if (applied && options.newAccount) await reloadNatsServer(this.#natsDir, timeoutMs);
    return applied;
  }

  #save(agents: Agent[]): void {
    writeFileSync(join(this.#dir, 'agents.json'), `${JSON.stringify({ agents }, null, 2)}\n`, {
      mode: 0o600,
    });
  }
}

/** A readable, subject-safe id: the name's letters and a random suffix ("dana-3f9a1c"). */
function agentIdFor(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24);
  return `${slug || 'agent'}-${randomBytes(3).toString('hex')}`;
}
