/** V3 client tests: the V3 emulator of the sandbox over real HTTP, with quick retries and recorded attempts. */
import type { AttemptRecord } from '../../../../../electron/core/api/http.ts';
import {
  PartnerApiV3Client,
  type PartnerApiV3ClientOptions,
} from '../../../../../electron/core/api/v3/client.ts';
import type { TestSandbox } from '../helpers.ts';

export { freshCustomer, startTestSandbox, type TestSandbox } from '../helpers.ts';

export function v3TestClient(
  sandbox: TestSandbox,
  options: Partial<PartnerApiV3ClientOptions> = {},
): { api: PartnerApiV3Client; attempts: AttemptRecord[] } {
  const attempts: AttemptRecord[] = [];
  const api = new PartnerApiV3Client({
    baseUrl: sandbox.url,
    token: sandbox.token,
    backoff: { baseMs: 20, capMs: 200 },
    uploads: { backoffBaseMs: 20 },
    onAttempt: (attempt) => attempts.push(attempt),
    ...options,
  });
  return { api, attempts };
}

/** The demo organization's first line, as V3 lists it. */
export async function firstLineV3(api: PartnerApiV3Client): Promise<string> {
  const [line] = await api.lines.list();
  if (!line) throw new Error('the demo seed has no lines');
  return line.phone_number;
}
