/** Shared setup for the API client's integration tests: a real sandbox over HTTP, and its control API. */
import { request } from 'undici';
import { startSandbox, type RunningSandbox } from '../../../../sandbox/index.ts';
import { PartnerApiClient, type PartnerApiClientOptions } from '../../../../electron/core/api/client.ts';
import type { AttemptRecord } from '../../../../electron/core/api/http.ts';

export interface TestSandbox extends RunningSandbox {
  token: string;
  control: Control;
}

export async function startTestSandbox(): Promise<TestSandbox> {
  const sandbox = await startSandbox({ seed: 'demo', quiet: true, speed: 20 });
  const token = sandbox.tokens[0] as string;
  return { ...sandbox, token, control: new Control(sandbox.url, sandbox.adminSecret) };
}

/** The sandbox's /__sandbox API (not part of the service). */
export class Control {
  readonly #url: string;
  readonly #secret: string;

  constructor(url: string, secret: string) {
    this.#url = url;
    this.#secret = secret;
  }

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await request(`${this.#url}/__sandbox${path}`, {
      method,
      headers: {
        'x-sandbox-admin-secret': this.#secret,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300)
      throw new Error(`control ${method} ${path}: ${response.statusCode} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  addFault(fault: {
    kind: 'error' | 'rate_limit' | 'reset' | 'latency';
    path?: string;
    method?: string;
    status?: number;
    retryAfterSeconds?: number;
    latencyMs?: number;
    times?: number;
  }): Promise<unknown> {
    return this.call('POST', '/faults', fault);
  }

  clearFaults(): Promise<unknown> {
    return this.call('DELETE', '/faults');
  }

  setRateLimit(perSecond: number, burst: number): Promise<unknown> {
    return this.call('PUT', '/rate-limit', { per_second: perSecond, burst });
  }

  setCustomer(identifier: string, patch: Record<string, unknown>): Promise<unknown> {
    return this.call('PUT', `/customers/${encodeURIComponent(identifier)}`, patch);
  }

  setOrg(patch: { share_contact?: boolean; manual_typing?: boolean }): Promise<unknown> {
    return this.call('PUT', '/org', patch);
  }
}

/** A client whose retries are quick (tests keep the policy, not the 1 s waits) and whose attempts are recorded. */
export function testClient(
  sandbox: TestSandbox,
  options: Partial<PartnerApiClientOptions> = {},
): { client: PartnerApiClient; attempts: AttemptRecord[] } {
  const attempts: AttemptRecord[] = [];
  const client = new PartnerApiClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    backoff: { baseMs: 20, capMs: 200 },
    onAttempt: (attempt) => attempts.push(attempt),
    ...options,
  });
  return { client, attempts };
}

/** The demo organization's first line. */
export async function firstLine(client: PartnerApiClient): Promise<string> {
  const lines = await client.lines.list();
  const line = lines[0];
  if (!line) throw new Error('the demo seed has no lines');
  return line.phone_number;
}

let counter = 0;
/**
 * A customer number no seeded chat uses (the demo seed uses +1510555 01xx), who does not auto-reply:
 * a simulated reply arriving mid-test would change message counts.
 */
export async function freshCustomer(
  sandbox: TestSandbox,
  persona: Record<string, unknown> = {},
): Promise<string> {
  counter += 1;
  const number = `+1628555${String(1000 + counter).padStart(4, '0')}`;
  await sandbox.control.setCustomer(number, { auto_reply: false, ...persona });
  return number;
}
