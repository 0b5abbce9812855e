/** "Test connection": each way it can fail gives a precise, presentable error. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeConnection } from '../../../../electron/core/api/probe.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';

/** For targets that never check it. */
const TOKEN = 'tok_probe_test_0001';

let sandbox: TestSandbox;
const servers: Server[] = [];

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  for (const server of servers) server.closeAllConnections?.();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await sandbox?.stop();
});

describe('probeConnection', () => {
  it('resolves with the number of lines', async () => {
    expect(await probeConnection({ baseUrl: sandbox.url, token: sandbox.token })).toEqual({ lines: 3 });
    // A pasted API prefix and trailing slash are fine.
    expect(
      await probeConnection({ baseUrl: `${sandbox.url}/api/partner/v2/`, token: sandbox.token }),
    ).toEqual({ lines: 3 });
  });

  it('a refused token (401)', async () => {
    await expect(probeConnection({ baseUrl: sandbox.url, token: 'tok_wrong_0000' })).rejects.toMatchObject({
      kind: 'unauthorized',
      status: 401,
      message: expect.stringContaining('refused this token'),
    });
  });

  it('a token sent in the wrong header is a 401 that names the header', async () => {
    const error = probeConnection({ baseUrl: sandbox.url, token: sandbox.token, tokenHeader: 'X-API-KEY' });
    await expect(error).rejects.toMatchObject({
      kind: 'unauthorized',
      message: expect.stringContaining('X-API-KEY'),
    });
  });

  it('nothing listening, and an unknown host', async () => {
    const closed = createHttpServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      probeConnection({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN }),
    ).rejects.toMatchObject({
      kind: 'network',
      code: 'ECONNREFUSED',
      message: expect.stringContaining('Nothing is listening'),
    });
    await expect(
      probeConnection({ baseUrl: 'https://parley-no-such-host.invalid', token: TOKEN }),
    ).rejects.toMatchObject({
      kind: 'network',
      message: expect.stringContaining('could not be found'),
    });
  });

  it('TLS: https to a plain-HTTP port, and an untrusted certificate', async () => {
    const port = new URL(sandbox.url).port;
    await expect(
      probeConnection({ baseUrl: `https://127.0.0.1:${port}`, token: TOKEN }),
    ).rejects.toMatchObject({
      kind: 'tls',
      message: expect.stringContaining('does not speak HTTPS'),
    });

    const dir = await mkdtemp(join(tmpdir(), 'parley-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const server = createHttpsServer(
        { key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) },
        (_q, r) => r.end('{}'),
      );
      const tlsPort = await listen(server);
      await expect(
        probeConnection({ baseUrl: `https://localhost:${tlsPort}`, token: TOKEN }),
      ).rejects.toMatchObject({
        kind: 'tls',
        retryable: false,
        message: expect.stringContaining('certificate is not trusted'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a wrong URL: a 404 on the API path, or a web page', async () => {
    await expect(
      probeConnection({ baseUrl: `${sandbox.url}/not-here`, token: sandbox.token }),
    ).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('does not look like a Partner Messaging Service'),
    });
    const website = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Welcome</title>');
    });
    const port = await listen(website);
    await expect(
      probeConnection({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN }),
    ).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringContaining('does not look like a Partner Messaging Service'),
    });
  });

  it('a host that never answers times out', async () => {
    const silent = createHttpServer(() => {});
    const port = await listen(silent);
    await expect(
      probeConnection({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN }, { timeoutMs: 300 }),
    ).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('did not answer within 300 ms'),
    });
  });

  it('can be cancelled', async () => {
    const silent = createHttpServer(() => {});
    const port = await listen(silent);
    const controller = new AbortController();
    const pending = probeConnection(
      { baseUrl: `http://127.0.0.1:${port}`, token: TOKEN },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('refuses an address that is not http(s) before connecting', async () => {
    await expect(probeConnection({ baseUrl: 'messaging.example.com', token: TOKEN })).rejects.toMatchObject({
      kind: 'validation',
      code: 'invalid_base_url',
    });
  });
});
