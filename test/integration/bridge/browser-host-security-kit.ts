/**
 * The browser host both security test files run against (browser-host-security.test.ts and
 * browser-host-hostile-input.test.ts): one host per file on a stub renderer with a small upload
 * limit, its secret and session cookie (set up by `useSecuredHost`), and the raw requests the tests
 * send it.
 */
import { writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { tempDir } from '../core/helpers.ts';
import { quietDemo, stubRenderer } from './support.ts';

export const MAX_UPLOAD = 4096;

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export const dir = tempDir('parley-browser-security-');
export const demo = quietDemo();
export let host: BrowserHost;
export let port: number;
export let secret: string;
export let cookie: string;

/** One HTTP request with the path sent exactly as given (no normalization, like curl --path-as-is). */
export function raw(
  path: string,
  options: { headers?: Record<string, string>; method?: string; body?: Buffer } = {},
) {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Bytes written straight to the socket (requests no HTTP client would send); the raw answer back. */
export function rawSocket(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A WebSocket handshake on /bridge: 101 when accepted, else the refusal's status. */
export function upgrade(headers: Record<string, string>, path = '/bridge') {
  return new Promise<number>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

export function multipart(filename: string, bytes: Buffer): { body: Buffer; contentType: string } {
  const boundary = '----parley-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export function upload(headers: Record<string, string>, bytes: Buffer) {
  const form = multipart('photo.png', bytes);
  return raw('/upload', {
    method: 'POST',
    body: form.body,
    headers: { 'content-type': form.contentType, 'content-length': String(form.body.length), ...headers },
  });
}

export let renderer: ReturnType<typeof stubRenderer>;

/** One host for the whole file: started before its first test, stopped after its last. */
export function useSecuredHost(): void {
  beforeAll(async () => {
    renderer = stubRenderer(dir.path);
    writeFileSync(join(renderer.dir, 'assets', 'Inbox-Bq3xZ9_a.js'), 'export {};\n');
    host = await startBrowserHost({
      dataDir: dir.path,
      rendererDir: renderer.dir,
      vaultService: 'parley-test-bridge-security',
      maxUploadBytes: MAX_UPLOAD,
      demo,
    });
    port = host.server.port;
    secret = new URL(host.url).searchParams.get('k') as string;
    const launch = await raw(`/?k=${secret}`);
    cookie = String(launch.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
  });

  afterAll(async () => {
    await host?.stop();
    dir.remove();
  });
}

/** The headers every response must carry, whatever answered it. */
export function expectHardened(response: { headers: IncomingHttpHeaders }, what: string): void {
  expect(response.headers['content-security-policy'], what).toMatch(/default-src '(self|none)'/);
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
}
