/**
 * The browser host's defences, over real sockets: the per-launch secret, the WebSocket's Origin
 * check, the Host check, loopback-only binding, nothing served but the renderer's files, a
 * customer's files served as sandboxed data, authenticated and bounded uploads, frames that are not
 * calls, and security headers on every response.
 */
import { writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsClient } from 'ws';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { vaultKeys } from '../../../electron/core/vault/index.ts';
import { DEMO_TOKEN } from '../../../sandbox/index.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import { arrangeStore, inspectStore } from '../store-inspector.ts';
import { HOSTILE_FILES, SCRIPT_CAPABLE } from './hostile-files.ts';
import { firstSync, PNG, quietDemo, stubRenderer } from './support.ts';

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

/** Bytes written straight to the socket (requests no HTTP client would send); the raw answer back. */
function rawSocket(bytes: string): Promise<string> {
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

/** The headers every response must carry, whatever answered it. */
function expectHardened(response: { headers: IncomingHttpHeaders }, what: string): void {
  expect(response.headers['content-security-policy'], what).toMatch(/default-src '(self|none)'/);
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
}

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

  it('lets the browser keep a build’s content-named assets for good, and asks it to check the page every time', async () => {
    // Given an asset named by its content, as the build names them (written before the launch)
    const asset = await raw('/assets/Inbox-Bq3xZ9_a.js', { headers: { cookie } });
    const page = await raw('/', { headers: { cookie } });
    const unnamed = await raw('/assets/app.js', { headers: { cookie } });

    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(unnamed.headers['cache-control']).toBe('no-cache');
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

describe('the Host header (DNS rebinding)', () => {
  it.each(['localhost', '127.0.0.1'])('serves the page at %s:<port>', async (name) => {
    const response = await raw('/', { headers: { cookie, host: `${name}:${port}` } });
    expect(response.status).toBe(200);
  });

  it.each(['evil.example', `evil.example:PORT`, '127.0.0.1', 'localhost', '127.0.0.2:PORT', '[::1]:PORT'])(
    'refuses Host %s on HTTP, even with the cookie, and sets no cookie',
    async (name) => {
      const host = name.replace('PORT', String(port));
      for (const path of ['/', `/?k=${secret}`, '/attachments/x']) {
        const response = await raw(path, { headers: { cookie, host } });
        expect(response.status, `${host} ${path}`).toBe(403);
        expect(response.headers['set-cookie'], `${host} ${path}`).toBeUndefined();
        expectHardened(response, `${host} ${path}`);
      }
    },
  );

  it('refuses a request without a Host', async () => {
    const answer = await rawSocket(`GET / HTTP/1.0\r\nCookie: ${cookie}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.[01] 403/);
  });

  it.each(['evil.example', `evil.example:PORT`, '127.0.0.1'])(
    'refuses Host %s on the WebSocket, even with the cookie and Origin',
    async (name) => {
      const hostHeader = name.replace('PORT', String(port));
      expect(await upgrade({ cookie, origin: host.server.origin, host: hostHeader })).toBe(403);
    },
  );

  it('accepts the WebSocket at localhost:<port> from that page', async () => {
    expect(
      await upgrade({
        cookie,
        origin: host.server.origin.replace('127.0.0.1', 'localhost'),
        host: `localhost:${port}`,
      }),
    ).toBe(101);
  });
});

describe('a customer’s files', () => {
  let files: Server;
  const stagedIds: string[] = [];
  const attachmentIds: string[] = [];

  beforeAll(async () => {
    // The service's file host: serves each file's bytes (the stated type is what the row says).
    files = createServer((request, response) => {
      const file = HOSTILE_FILES[Number(request.url?.slice(1))];
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file.bytes);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
    await firstSync(host.core);
    // Arrange: each file as the service stated it, on a message the store already holds, and as a
    // staged file with that stated type.
    const { staged } = host.core.session.store;
    const message = inspectStore(host.core.session.store, (db) =>
      db.get<{ key: string }>(
        'SELECT key FROM messages m WHERE NOT EXISTS (SELECT 1 FROM attachments a WHERE a.message_key = m.key) ORDER BY sent_at LIMIT 1',
      ),
    );
    HOSTILE_FILES.forEach((file, i) => {
      const id = `hostile-${i}`;
      arrangeStore(host.core.session.store, (db) => {
        db.run(
          'INSERT INTO attachments (id, message_key, position, url, filename, mime_type, size) VALUES (?, ?, ?, ?, ?, ?, ?)',
          id,
          message!.key,
          i,
          `${filesUrl}/${i}`,
          file.filename,
          file.mimeType,
          file.bytes.length,
        );
      });
      attachmentIds.push(id);
      const path = join(dir.path, `staged-${i}`);
      writeFileSync(path, file.bytes);
      const stagedId = crypto.randomUUID();
      staged.add({
        id: stagedId,
        path,
        filename: file.filename,
        mimeType: file.mimeType,
        size: file.bytes.length,
        createdAt: Date.now(),
      });
      stagedIds.push(stagedId);
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => files?.close(resolve));
  });

  it.each(HOSTILE_FILES.map((file, i) => [file.what, i] as const))(
    '%s: served by its base type, sandboxed, never a script-capable document',
    async (_what, i) => {
      const file = HOSTILE_FILES[i]!;
      for (const path of [`/attachments/${attachmentIds[i]}`, `/staged/${stagedIds[i]}`]) {
        const response = await raw(path, { headers: { cookie } });
        const where = `${path}: ${file.what}`;
        expect(response.status, where).toBe(200);
        expect(response.headers['content-type'], where).toBe(file.served);
        expect(response.headers['content-type'], where).not.toMatch(SCRIPT_CAPABLE);
        expect(response.headers['content-disposition'], where).toMatch(
          file.inline ? /^inline;/ : /^attachment;/,
        );
        expect(response.headers['content-security-policy'], where).toBe("default-src 'none'; sandbox");
        expect(response.headers['x-content-type-options'], where).toBe('nosniff');
      }
    },
  );

  it('stages a text upload as a download of opaque bytes, not a document', async () => {
    const form = multipart('note.txt', Buffer.from('<script>alert(1)</script>'));
    const uploaded = await raw('/upload', {
      method: 'POST',
      body: form.body,
      headers: {
        cookie,
        'x-parley-upload': '1',
        'content-type': form.contentType,
        'content-length': String(form.body.length),
      },
    });
    const { id, previewUrl } = JSON.parse(uploaded.body) as { id: string; previewUrl: string };
    expect(previewUrl).toBe(`parley-staged:${id}`);
    const served = await raw(`/staged/${id}`, { headers: { cookie } });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''note.txt`);
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });
});

describe('frames that are not calls', () => {
  /** A WebSocket as the page opens it (cookie and Origin), with every answer it gets. */
  async function pageSocket() {
    const ws = new WsClient(`${host.server.origin.replace('http:', 'ws:')}/bridge`, {
      headers: { cookie, origin: host.server.origin },
    });
    const answers: Array<{ id: unknown; ok: boolean; value?: unknown; error?: { code: string } }> = [];
    ws.on('message', (data) => answers.push(JSON.parse(String(data)) as (typeof answers)[number]));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const next = async () => {
      const before = answers.length;
      await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThan(before);
      return answers[before]!;
    };
    return { ws, answers, closed, next };
  }

  async function stillAnswers(): Promise<void> {
    const page = await pageSocket();
    page.ws.send(JSON.stringify({ id: 7, method: 'app.info', input: {} }));
    expect(await page.next()).toMatchObject({ id: 7, ok: true, value: { host: 'browser' } });
    page.ws.close();
  }

  it.each([
    ['null', 'null', null],
    ['an array', '[1, 2]', null],
    ['a number', '42', null],
    ['a string', '"app.info"', null],
    ['an empty object', '{}', null],
    ['not JSON', '{"id": 1, "method":', null],
    ['an empty frame', '', null],
    ['a string id', '{"id": "1", "method": "app.info", "input": {}}', null],
    ['an object id', '{"id": {"n": 1}, "method": "app.info", "input": {}}', null],
    ['a fractional id', '{"id": 1.5, "method": "app.info", "input": {}}', null],
    ['a negative id', '{"id": -1, "method": "app.info", "input": {}}', null],
    ['a huge id', '{"id": 1e300, "method": "app.info", "input": {}}', null],
    ['no method', '{"id": 3, "input": {}}', 3],
    ['a numeric method', '{"id": 4, "method": 5, "input": {}}', 4],
    ['an empty method', '{"id": 5, "method": "", "input": {}}', 5],
    ['an unknown field', '{"id": 6, "method": "app.info", "input": {}, "admin": true}', 6],
    ['__proto__ games', '{"id": 8, "method": "app.info", "__proto__": {"ok": true}}', 8],
  ])('answers %s with a protocol error, and the socket stays usable', async (_what, frame, id) => {
    const page = await pageSocket();
    page.ws.send(frame);
    expect(await page.next()).toMatchObject({ id, ok: false, error: { code: 'invalid_input' } });
    page.ws.send(JSON.stringify({ id: 9, method: 'app.info', input: {} }));
    expect(await page.next()).toMatchObject({ id: 9, ok: true });
    page.ws.close();
  });

  it('answers a binary frame with a protocol error', async () => {
    const page = await pageSocket();
    page.ws.send(Buffer.from(JSON.stringify({ id: 1, method: 'app.info', input: {} })), { binary: true });
    expect(await page.next()).toMatchObject({ id: null, ok: false, error: { code: 'invalid_input' } });
    page.ws.close();
  });

  it('answers a method the contract does not have (staging a path included) with unknown_method', async () => {
    const page = await pageSocket();
    page.ws.send(JSON.stringify({ id: 1, method: 'attachments.stagePath', input: { path: '/etc/hosts' } }));
    expect(await page.next()).toMatchObject({ id: 1, ok: false, error: { code: 'unknown_method' } });
    page.ws.close();
  });

  it('closes the socket on a text frame that is not UTF-8, and lives on', async () => {
    const page = await pageSocket();
    page.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]), { binary: false });
    expect(await page.closed).toBe(1007);
    await stillAnswers();
  });

  it('closes the socket on a frame over the limit, and lives on', async () => {
    const page = await pageSocket();
    page.ws.send(JSON.stringify({ id: 1, method: 'app.info', input: { pad: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(await page.closed).toBe(1009);
    await stillAnswers();
  });

  it('survives a burst of every bad frame at once on one socket, then answers a good call', async () => {
    const page = await pageSocket();
    for (const frame of ['null', '[]', '0', 'true', '{"id":null}', '{"id":1,"method":null}'])
      page.ws.send(frame);
    page.ws.send(JSON.stringify({ id: 99, method: 'app.info', input: {} }));
    await expect.poll(() => page.answers.find((a) => a.id === 99)?.ok, { timeout: 10_000 }).toBe(true);
    page.ws.close();
    await stillAnswers();
  });
});

describe('errors the framework answers', () => {
  it.each([
    ['a malformed escape', '/%zz'],
    ['a lone percent', '/%'],
    ['a malformed escape in an attachment id', '/attachments/%zz'],
    ['a bad escape with a script in it', '/%zz<script>alert(1)</script>'],
  ])('%s: 400 with the headers, and the path is not echoed', async (_what, path) => {
    const response = await raw(path, { headers: { cookie } });
    expect(response.status).toBe(400);
    expectHardened(response, path);
    expect(response.body).not.toContain('%zz');
    expect(response.body).not.toContain('script');
  });

  it('a request the HTTP parser refuses: 400 with the headers', async () => {
    const answer = await rawSocket('GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(answer.toLowerCase()).toContain("content-security-policy: default-src 'self'");
  });

  it('every status the host can answer carries the headers and says nothing of the request', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const responses = {
      400: await raw('/%zz', { headers: { cookie } }),
      401: await raw('/evil-path'),
      403: await raw('/', { headers: { cookie, host: 'evil.example' } }),
      404: await raw('/evil-path', { headers: { cookie } }),
      'method not routed': await raw('/evil-path', { headers: { cookie }, method: 'DELETE' }),
      413: await raw('/upload', {
        method: 'POST',
        body: big,
        headers: { cookie, 'x-parley-upload': '1', 'content-type': 'application/json' },
      }),
      415: await raw('/upload', {
        method: 'POST',
        body: Buffer.from('<evil-path/>'),
        headers: { cookie, 'x-parley-upload': '1', 'content-type': 'application/evil-path' },
      }),
    };
    expect(responses[413].status).toBe(413);
    expect(responses[415].status).toBe(415);
    for (const [what, response] of Object.entries(responses)) {
      expectHardened(response, what);
      expect(response.body, what).not.toContain('evil');
    }
  });
});

// Last: it leaves the host without an open workspace.
describe('with no workspace open', () => {
  it('answers a staged file with 404 and the headers, not a failure', async () => {
    // Given a workspace whose token the keychain no longer has, made the active one: nothing opens.
    const service = { baseUrl: demo.sandbox().url, token: DEMO_TOKEN };
    await host.core.registry.add({ name: 'Working', ...service });
    const locked = await host.core.registry.add({ name: 'Locked out', ...service }, { activate: false });
    await host.core.vault.delete(vaultKeys.workspaceToken(locked.id));
    await host.core.registry.switch(locked.id);
    await eventually(() => {
      try {
        return !host.core.session;
      } catch {
        return true;
      }
    }, 'the session to close');

    const response = await raw(`/staged/${crypto.randomUUID()}`, { headers: { cookie } });

    expect(response.status).toBe(404);
    expectHardened(response, 'staged with no workspace');
  });
});
