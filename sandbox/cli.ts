import { parseArgs } from 'node:util';
import { DEMO_TOKEN, startSandbox } from './index.ts';

const USAGE = `Usage: npm run sandbox -- [--port <p>] [--token <t> …] [--seed demo|empty|bulk:<chats>x<messages>]
                       [--admin-secret <s>] [--speed <x>] [--quiet] [--rate <per-second>] [--burst <n>]`;

/** `npm run sandbox`: the Partner Messaging Service emulator on 127.0.0.1. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      token: { type: 'string', multiple: true },
      seed: { type: 'string', default: 'demo' },
      'admin-secret': { type: 'string' },
      speed: { type: 'string', default: '1' },
      quiet: { type: 'boolean', default: false },
      rate: { type: 'string' },
      burst: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  const speed = Number(values.speed);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port ${values.port} is not a port`);
  if (!(speed > 0)) throw new Error(`--speed ${values.speed} must be a positive number`);
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  const burst = values.burst === undefined ? undefined : Number(values.burst);
  const sandbox = await startSandbox({
    port,
    tokens: values.token?.length ? values.token : [DEMO_TOKEN],
    seed: values.seed,
    ...(values['admin-secret'] ? { adminSecret: values['admin-secret'] } : {}),
    speed,
    quiet: values.quiet,
    ...(rate || burst
      ? { config: { rateLimit: { perSecond: rate ?? 50, burst: burst ?? Math.max(100, rate ?? 0) } } }
      : {}),
  });
  console.log(`Partner Messaging Service sandbox listening on ${sandbox.url}`);
  console.log(`  API base:      ${sandbox.url}/api/partner/v2`);
  sandbox.tokens.forEach((token, i) =>
    console.log(
      `  token (org ${i + 1}): ${token}${i === 0 ? `  [seed: ${values.seed}]` : '  [seed: empty]'}`,
    ),
  );
  console.log(
    `  admin secret:  ${sandbox.adminSecret}  (header X-Sandbox-Admin-Secret, control API under /__sandbox)`,
  );
  console.log(`  speed ${speed}x${values.quiet ? ', quiet' : ''}. Ctrl+C stops.`);
  const stop = async (): Promise<void> => {
    await sandbox.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(1);
});
