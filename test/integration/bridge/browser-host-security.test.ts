/**
 * The browser host's defences, over real sockets: the per-launch secret, the WebSocket's Origin
 * check, loopback-only binding, nothing served but the renderer's files, authenticated and bounded
 * uploads, and security headers on every response.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { tempDir } from '../core/helpers.ts';
import { inspectStore } from '../store-inspector.ts';
import { PNG, quietDemo, stubRenderer } from './support.ts';

const MAX_UPLOAD = 4096;

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const dir = tempDir('parley-browser-security-');
const demo = quietDemo();
let host: BrowserHost;
let port: number;
let secret: string;
let cookie: string;

/** One HTTP request with the path sent exactly as given (no normalization, like curl --path-as-is). */
function raw(
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

/** A WebSocket handshake on /bridge: 101 when accepted, else the refusal's status. */
function upgrade(headers: Record<string, string>, path = '/bridge') {
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

function multipart(filename: string, bytes: Buffer): { body: Buffer; contentType: string } {
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

function upload(headers: Record<string, string>, bytes: Buffer) {
  const form = multipart('photo.png', bytes);
  return raw('/upload', {
    method: 'POST',
    body: form.body,
    headers: { 'content-type': form.contentType, 'content-length': String(form.body.length), ...headers },
  });
}

let renderer: ReturnType<typeof stubRenderer>;

beforeAll(async () => {
  renderer = stubRenderer(dir.path);
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

describe('the per-launch secret', () => {
  it('turns the launch URL into an HttpOnly, SameSite=Strict cookie and drops it from the address', async () => {
    const launch = await raw(`/?k=${secret}`);
    expect(launch.status).toBe(303);
    expect(launch.headers.location).toBe('/');
    expect(launch.headers['set-cookie']?.[0]).toMatch(
      /^parley_session=[^;]+; HttpOnly; SameSite=Strict; Path=\//,
    );
    expect((await raw('/', { headers: { cookie } })).status).toBe(200);
  });

  it.each(['/', '/index.html', '/assets/app.js', '/attachments/x', '/staged/x'])(
    'is required for %s (401 without it)',
    async (path) => {
      const response = await raw(path);
      expect(response.status).toBe(401);
      expect(response.body).not.toContain('parley');
    },
  );

  it('refuses a wrong or stale key, and sets no cookie', async () => {
    const response = await raw(`/?k=${secret.slice(0, -2)}xx`);
    expect(response.status).toBe(401);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect((await raw('/', { headers: { cookie: 'parley_session=guess' } })).status).toBe(401);
  });
});

describe('the WebSocket', () => {
  it('accepts the page: the session cookie and the page’s own Origin', async () => {
    expect(await upgrade({ cookie, origin: host.server.origin })).toBe(101);
  });

  it('refuses a connection without the secret', async () => {
    expect(await upgrade({ origin: host.server.origin })).toBe(403);
  });

  it.each(['http://evil.example', `http://127.0.0.1:${1}`, 'null', 'file://'])(
    'refuses Origin %s, even with the cookie',
    async (origin) => {
      expect(await upgrade({ cookie, origin })).toBe(403);
    },
  );

  it('refuses a connection without an Origin (not a browser page)', async () => {
    expect(await upgrade({ cookie })).toBe(403);
  });

  it('exists only at /bridge', async () => {
    expect(await upgrade({ cookie, origin: host.server.origin }, '/other')).toBe(403);
  });
});

describe('the network', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(new URL(host.server.origin).hostname).toBe('127.0.0.1');
    // Link-local IPv6 (fe80::) is left out: it cannot be dialled without naming its interface.
    const elsewhere = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && !address.address.startsWith('fe80:'))
      .map((address) => address!.address);
    // Linux routes all of 127.0.0.0/8 to loopback: a server on 0.0.0.0 would answer at 127.0.0.2.
    if (process.platform === 'linux') elsewhere.push('127.0.0.2');
    for (const address of elsewhere) {
      await expect(reachable(address, port), `${address}:${port}`).resolves.toBe(false);
    }
    await expect(reachable('127.0.0.1', port)).resolves.toBe(true);
  });
});

function reachable(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('static files', () => {
  it('serves the renderer', async () => {
    const script = await raw('/assets/app.js', { headers: { cookie } });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2E%2E/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5csecret.txt',
    '/..\\secret.txt',
    '/%252e%252e/secret.txt',
    '//../secret.txt',
    '/.env',
    '/assets/../.env',
    `/${'%2e%2e/'.repeat(12)}etc/passwd`,
  ])('answers %s with 404 and nothing outside the renderer', async (path) => {
    const response = await raw(path, { headers: { cookie } });
    expect(response.status).toBe(404);
    expect(response.body).not.toContain(renderer.secret);
    expect(response.body).not.toContain('NOT_FOR_THE_PAGE');
    expect(response.body).not.toContain('root:');
  });
});

describe('uploads', () => {
  it('stages a file sent by the app', async () => {
    const response = await upload({ cookie, 'x-parley-upload': '1' }, PNG);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      filename: 'photo.png',
      mimeType: 'image/png',
      size: PNG.length,
    });
  });

  it('refuses a file over the size limit with 413, staging nothing', async () => {
    const stagedCount = () =>
      inspectStore(
        host.core.session.store,
        (db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM staged_files')?.n,
      );
    const staged = stagedCount();
    const response = await upload({ cookie, 'x-parley-upload': '1' }, Buffer.alloc(MAX_UPLOAD + 1, 7));
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'attachment_rejected' });
    expect(stagedCount()).toBe(staged);
  });

  it('refuses an upload without the app’s header (a cross-site form cannot set it) with 403', async () => {
    expect((await upload({ cookie }, PNG)).status).toBe(403);
  });

  it('refuses an upload without the secret with 401', async () => {
    expect((await upload({ 'x-parley-upload': '1' }, PNG)).status).toBe(401);
  });
});

describe('every response', () => {
  it('carries the Content-Security-Policy and nosniff', async () => {
    const responses = {
      page: await raw('/', { headers: { cookie } }),
      script: await raw('/assets/app.js', { headers: { cookie } }),
      launch: await raw(`/?k=${secret}`),
      'no secret': await raw('/'),
      'not found': await raw('/../secret.txt', { headers: { cookie } }),
      'missing attachment': await raw('/attachments/unknown', { headers: { cookie } }),
      'upload refused': await upload({ cookie }, PNG),
      'upload too large': await upload({ cookie, 'x-parley-upload': '1' }, Buffer.alloc(MAX_UPLOAD + 1)),
    };
    for (const [what, response] of Object.entries(responses)) {
      const csp = String(response.headers['content-security-policy']);
      expect(csp, what).toContain("default-src 'self'");
      expect(csp, what).toContain("script-src 'self'");
      expect(csp, what).toContain("object-src 'none'");
      expect(csp, what).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], what).toBe('nosniff');
    }
  });
});
