/**
 * `npm start`. The app shell (Electron, with the browser host as fallback) is not built yet; until it
 * is, this starts the embedded sandbox with the demo organization and prints how to reach it.
 */
import { DEMO_TOKEN, startSandbox } from '../sandbox/index.ts';

const port = Number(process.env.PARLEY_SANDBOX_PORT ?? 4010);
const sandbox = await startSandbox({ port, tokens: [DEMO_TOKEN], seed: 'demo' });
console.log('Parley: the app shell is not built yet, so `npm start` runs the demo sandbox on its own.');
console.log(`  Partner Messaging Service sandbox: ${sandbox.url}/api/partner/v2`);
console.log(`  token (header X-PARTNER-INTEGRATION-TOKEN): ${sandbox.tokens[0]}`);
console.log(
  `  admin secret (header X-Sandbox-Admin-Secret, control API under /__sandbox): ${sandbox.adminSecret}`,
);
console.log(
  `  try: curl -H 'X-PARTNER-INTEGRATION-TOKEN: ${sandbox.tokens[0]}' ${sandbox.url}/api/partner/v2/phone_numbers`,
);
const stop = async (): Promise<void> => {
  await sandbox.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
