/**
 * `npm run relay`: the team relay for one organization (see relay.ts and docs/relay.md).
 *
 *   npm run relay [-- --data-dir DIR]                      the demo organization, embedded sandbox
 *   npm run relay -- --service-url URL --api-version v3 --token-file FILE --public-webhook-url URL
 *   npm run relay -- agent add "Dana" [--admin] | agent remove "Dana" | agent list   [--data-dir DIR]
 *   npm run relay -- agent role "Dana" admin|agent   who may change the team's settings (see below)
 *   npm run relay -- audit [--since 2h|DATE] [--json]   the team's audit log (team.ts)
 *   npm run relay -- settings [--set roundRobin=on]…   the team's settings (team.ts)
 *
 * Roles: the team's first agent is an admin; after that the relay's operator decides, with
 * `--admin` or `agent role`. Admins change the team's settings from Parley; the operator always can,
 * here, whatever the roles.
 *
 * The token comes from a file only its owner may read (--token-file) or from PARLEY_SERVICE_TOKEN;
 * never from the command line, where `ps` and shell history would show it.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { agentDirectoryIn } from './folders.ts';
import { readPrivateFile } from './private-file.ts';
import type { RelayOptions, RelayService } from './relay.ts';

const USAGE = `Usage:
  npm run relay [-- --data-dir DIR] [--nats-host HOST] [--join-url nats://HOST:PORT]
  npm run relay -- --service-url URL [--api-version v2|v3] [--token-file FILE] \\
                   --public-webhook-url URL [--webhook-port PORT]
                   [--nats-url nats://HOST:PORT --nats-creds FILE [--nats-responder-creds FILE]]
                   a nats-server run elsewhere (relays sharing one share the responder's seed)
                   [--instance NAME]   a name per relay when two serve one organization
                   [--tls-cert FILE --tls-key FILE [--tls-ca FILE]]   your TLS certificate for agents
                   (without them the relay makes its own CA and certificate in DIR/tls: TLS always;
                   --plaintext turns it off, for a relay listening on 127.0.0.1 alone)
  npm run relay -- agent add NAME [--admin] | agent remove NAME | agent list [--data-dir DIR]
  npm run relay -- agent role NAME|ID admin|agent [--data-dir DIR]
  npm run relay -- audit [--since 2h|DATE] [--json] [--data-dir DIR]
  npm run relay -- settings [--set KEY=on|off]… [--data-dir DIR]
The token: --token-file (a file only you can read) or PARLEY_SERVICE_TOKEN.`;

export function defaultRelayDataDir(): string {
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'parley-relay');
}

/** Reads the token from a file that only its owner may read; refuses one others could read. */
export function readTokenFile(path: string): string {
  return readPrivateFile(path, 'token file');
}

function parse(argv: string[]) {
  if (argv.some((arg) => arg === '--token' || arg.startsWith('--token=')))
    throw new Error(
      'The token is never taken from the command line (ps and shell history would show it): use --token-file or PARLEY_SERVICE_TOKEN',
    );
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      'service-url': { type: 'string' },
      'api-version': { type: 'string', default: 'v2' },
      'token-file': { type: 'string' },
      'token-header': { type: 'string' },
      'public-webhook-url': { type: 'string' },
      'webhook-port': { type: 'string' },
      'nats-host': { type: 'string' },
      'nats-url': { type: 'string' },
      'nats-creds': { type: 'string' },
      'nats-responder-creds': { type: 'string' },
      'poll-lease-ms': { type: 'string' },
      instance: { type: 'string' },
      'join-url': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'tls-ca': { type: 'string' },
      plaintext: { type: 'boolean', default: false },
      since: { type: 'string' },
      json: { type: 'boolean', default: false },
      admin: { type: 'boolean', default: false },
      set: { type: 'string', multiple: true },
      help: { type: 'boolean', default: false },
    },
  });
}

type Parsed = ReturnType<typeof parse>;

async function agentCommand(
  dataDir: string,
  [verb, ...names]: string[],
  options: { admin: boolean },
): Promise<void> {
  const directory = agentDirectoryIn(dataDir);
  const name = names.join(' ');
  if (verb === 'list') {
    const agents = directory.list();
    if (agents.length === 0) console.log('No agents yet: npm run relay -- agent add "Name"');
    for (const agent of agents)
      console.log(
        `${agent.name}\t${agent.id}\t${agent.role ?? 'agent'}\tadded ${new Date(agent.addedAt).toISOString()}`,
      );
    return;
  }
  if (verb === 'role' && names.length >= 2) {
    const role = names.at(-1);
    if (role !== 'admin' && role !== 'agent') throw new Error('A role is admin or agent');
    const agent = directory.setRole(names.slice(0, -1).join(' '), role);
    console.log(`${agent.name} is now ${role === 'admin' ? 'an admin' : 'an agent'} of the team.`);
    return;
  }
  if (verb === 'add' && name) {
    const { agent, joinCode, applied } = await directory.add(name, { admin: options.admin });
    console.log(
      `Added ${agent.name} (${agent.id}) as ${agent.role === 'admin' ? 'an admin' : 'an agent'}. Their join code, shown only this once:\n\n${joinCode}\n`,
    );
    if (typeof applied === 'object') console.log(externalServerLine(applied, 'refused'));
    else if (!applied) console.log('The relay is not running: the code works from its next start.');
    return;
  }
  if (verb === 'remove' && name) {
    const { agent, applied } = await directory.remove(name);
    if (typeof applied === 'object')
      return console.log(`Removed ${agent.name}. ${externalServerLine(applied, 'accepted')}`);
    console.log(
      `Removed ${agent.name}: ${applied ? 'their connections were closed and their code no longer works' : 'their code no longer works'}.`,
    );
    return;
  }
  throw new Error(USAGE);
}

/**
 * A nats-server run elsewhere (`--nats-url`) is not the relay's to configure: its users are written
 * for that server's operator (agents.ts), and this one line says what to do with them.
 */
export function externalServerLine(
  applied: { external: string; usersFile: string },
  until: 'refused' | 'accepted',
): string {
  return `This relay uses the nats-server at ${applied.external}, which it does not configure: copy ${applied.usersFile} over that server's users.conf and reload it twice (nats-server --signal reload); until then this code is ${until}.`;
}

function serviceOf(values: Parsed['values']): RelayService | undefined {
  const baseUrl = values['service-url'];
  if (!baseUrl) return undefined;
  const apiVersion = values['api-version'];
  if (apiVersion !== 'v2' && apiVersion !== 'v3') throw new Error('--api-version is v2 or v3');
  const token = values['token-file']
    ? readTokenFile(resolve(values['token-file']))
    : process.env.PARLEY_SERVICE_TOKEN?.trim();
  if (!token) throw new Error('The relay needs the token: --token-file FILE or PARLEY_SERVICE_TOKEN');
  return {
    baseUrl,
    apiVersion,
    token,
    ...(values['token-header'] ? { tokenHeader: values['token-header'] } : {}),
  };
}

async function runRelay(dataDir: string, values: Parsed['values']): Promise<void> {
  const service = serviceOf(values);
  const publicUrl = values['public-webhook-url'];
  if (service && !publicUrl)
    throw new Error(
      'The service must reach the relay: --public-webhook-url https://… (forwarded to --webhook-port)',
    );
  const options: RelayOptions = {
    dataDir,
    ...(service ? { service } : {}),
    ...(publicUrl
      ? {
          tunnel: {
            provider: 'custom',
            customPublicUrl: publicUrl,
            ...(values['webhook-port'] ? { customLocalPort: Number(values['webhook-port']) } : {}),
          },
        }
      : {}),
    ...(values['nats-host'] ? { natsHost: values['nats-host'] } : {}),
    ...natsOf(values),
    ...(values['poll-lease-ms'] ? { pollLeaseMs: Number(values['poll-lease-ms']) } : {}),
    ...(values.instance ? { instance: values.instance } : {}),
    ...(values['join-url'] ? { joinUrl: values['join-url'] } : {}),
    ...tlsOf(values),
    ...(values.plaintext ? { plaintext: true } : {}),
  };
  const { startRelay } = await import('./relay.ts');
  const relay = await startRelay(options);
  const here = dataDir === defaultRelayDataDir() ? '' : ` --data-dir ${dataDir}`;
  console.log(
    [
      `Parley relay running for ${relay.demo ? 'the demo organization (embedded sandbox)' : service?.baseUrl}.`,
      `Agents connect to ${relay.agents.state()?.joinUrl} (nats-server ${relay.connection.info?.version}, data in ${dataDir}).`,
      `Add an agent (prints their join code once):  npm run relay -- agent add "Dana"${here}`,
      `Then, in Parley (npm start or npm run web): Settings → Join your team, and paste the code.`,
      ...(relay.durabilityWarning ? [`Note: ${relay.durabilityWarning}`] : []),
    ].join('\n'),
  );
  const stop = async (): Promise<void> => {
    await relay.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/**
 * A nats-server run elsewhere (two relays of one organization share it): its URL, the relay's nkey
 * seed there and its responder's (default: the one in DIR/relay), from files only their owner may
 * read (as the token).
 */
function natsOf(values: Parsed['values']): Pick<RelayOptions, 'nats'> {
  const url = values['nats-url'];
  const creds = values['nats-creds'];
  const responder = values['nats-responder-creds'];
  if (!url && !creds && !responder) return {};
  if (!url || !creds) throw new Error('--nats-url and --nats-creds go together');
  return {
    nats: {
      url,
      seed: readPrivateFile(resolve(creds), 'nats credentials file'),
      ...(responder
        ? { responderSeed: readPrivateFile(resolve(responder), "the responder's nats credentials file") }
        : {}),
    },
  };
}

/** TLS on the relay's nats listener: certificate and key (PEM files), and a private CA's certificate. */
function tlsOf(values: Parsed['values']): Pick<RelayOptions, 'tls'> {
  const [certFile, keyFile, caFile] = [values['tls-cert'], values['tls-key'], values['tls-ca']];
  if (!certFile && !keyFile && !caFile) return {};
  if (!certFile || !keyFile)
    throw new Error('--tls-cert and --tls-key go together (--tls-ca for a private CA)');
  // The key is a secret: refused unless only its owner can read it, as the token.
  readPrivateFile(resolve(keyFile), 'TLS key file');
  return {
    tls: {
      certFile: resolve(certFile),
      keyFile: resolve(keyFile),
      ...(caFile ? { caFile: resolve(caFile) } : {}),
    },
  };
}

async function auditCommandIn(dataDir: string, values: Parsed['values']): Promise<void> {
  const { auditCommand } = await import('./team.ts');
  const directory = agentDirectoryIn(dataDir);
  await auditCommand(dataDir, directory, {
    ...(values.since ? { since: values.since } : {}),
    json: values.json,
  });
}

async function main(): Promise<void> {
  const { values, positionals } = parse(process.argv.slice(2));
  if (values.help) return console.log(USAGE);
  const dataDir = resolve(values['data-dir'] ?? defaultRelayDataDir());
  if (positionals[0] === 'agent') return agentCommand(dataDir, positionals.slice(1), values);
  if (positionals[0] === 'audit' && positionals.length === 1) return auditCommandIn(dataDir, values);
  if (positionals[0] === 'settings' && positionals.length === 1) {
    const { settingsCommand } = await import('./team.ts');
    return settingsCommand(dataDir, agentDirectoryIn(dataDir), values.set ?? []);
  }
  if (positionals.length > 0) throw new Error(USAGE);
  await runRelay(dataDir, values);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    // One line, no stack: a missing nats-server or a bad flag is a message, not a crash.
    console.error(`parley relay: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
