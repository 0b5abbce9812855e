/**
 * The browser host's defences, over real sockets: the per-launch secret, the WebSocket's Origin
 * check, the Host check, loopback-only binding, nothing served but the renderer's files,
 * authenticated and bounded uploads, and security headers on every response. A customer's files
 * served as sandboxed data, and frames that are not calls: browser-host-hostile-input.test.ts.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { vaultKeys } from '../../../electron/core/vault/index.ts';
import { DEMO_TOKEN } from '../../../sandbox/index.ts';
import { eventually } from '../core/helpers.ts';
import { inspectStore } from '../store-inspector.ts';
import { PNG } from './support.ts';
import {
  cookie,
  demo,
  expectHardened,
  host,
  MAX_UPLOAD,
  port,
  raw,
  rawSocket,
  renderer,
  secret,
  upgrade,
  upload,
  useSecuredHost,
} from './browser-host-security-kit.ts';

useSecuredHost();

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
