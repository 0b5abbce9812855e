/** Shared by the core's integration tests: a real sandbox, its control API, temp folders, polling. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../sandbox/index.ts';

export async function sandboxFor(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ seed: 'demo', quiet: true, speed: 20, ...options });
}

/** Calls the sandbox's control API (tests only: faults, injected customers, time). */
export async function control<T = unknown>(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method,
    headers: {
      'x-sandbox-admin-secret': sandbox.adminSecret,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Reads the service directly, bypassing the code under test. It shares the token's rate limit with
 * the app under test, so a 429 is waited out (its Retry-After) and asked again, a few times, as any
 * client must (a check that ran while the app was syncing failed on one in CI).
 */
export async function service<T = unknown>(
  sandbox: RunningSandbox,
  path: string,
  token = sandbox.tokens[0] as string,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${sandbox.url}/api/partner/v2${path}`, {
      headers: { 'x-partner-integration-token': token },
    });
    if (response.status === 429 && attempt < 5) {
      await response.body?.cancel();
      const seconds = Number(response.headers.get('retry-after'));
      await new Promise((r) =>
        setTimeout(r, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000),
      );
      continue;
    }
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
}

export function tempDir(prefix = 'parley-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Polls until `check` returns a truthy value (bounded), returning it. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
