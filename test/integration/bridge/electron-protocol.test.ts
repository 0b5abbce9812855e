/**
 * The Electron shell's app-owned protocol without the Electron runtime: plain fetch-API Request →
 * Response, serving the renderer and received and staged files, a customer's hostile files included.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL } from '../../../electron/hosts/electron/channels.ts';
import { createAppProtocolHandler, RENDERER_CSP } from '../../../electron/hosts/electron/protocol.ts';
import { tempDir } from '../core/helpers.ts';
import { HOSTILE_FILES, SCRIPT_CAPABLE } from './hostile-files.ts';
import { PNG, stubRenderer } from './support.ts';

const dir = tempDir('parley-electron-shell-');
let handler: (request: Request) => Promise<Response>;
let secret: string;

beforeAll(() => {
  const renderer = stubRenderer(dir.path);
  secret = renderer.secret;
  // A link inside the renderer's folder that points out of it must not be followed.
  symlinkSync(join(dir.path, 'secret.txt'), join(renderer.dir, 'assets', 'link.txt'));
  const files = join(dir.path, 'files');
  mkdirSync(files);
  writeFileSync(join(files, 'a1'), PNG);
  writeFileSync(
    join(files, 'svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  handler = createAppProtocolHandler({
    rendererDir: renderer.dir,
    attachment: async (id) =>
      id === 'a1'
        ? { path: join(files, 'a1'), mimeType: 'image/png', filename: 'photo.png' }
        : id === 'svg'
          ? { path: join(files, 'svg'), mimeType: 'image/svg+xml', filename: 'logo.svg' }
          : undefined,
    thumbnail: async () => undefined,
    staged: (id) =>
      id === 's1' ? { path: join(files, 'a1'), mimeType: 'image/png', filename: 'draft.png' } : undefined,
  });
  HOSTILE_FILES.forEach((file, i) => writeFileSync(join(files, `hostile-${i}`), file.bytes));
  const hostile = (id: string) => {
    const i = Number(/^hostile-(\d+)$/.exec(id)?.[1] ?? -1);
    const file = HOSTILE_FILES[i];
    return file && { path: join(files, id), mimeType: file.mimeType, filename: file.filename };
  };
  hostileHandler = createAppProtocolHandler({
    rendererDir: renderer.dir,
    attachment: async (id) => hostile(id),
    thumbnail: async (id) => hostile(id),
    staged: hostile,
  });
});

let hostileHandler: (request: Request) => Promise<Response>;

afterAll(() => dir.remove());

const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('the parley:// protocol', () => {
  it('serves the renderer at parley://app with the strict CSP', async () => {
    for (const url of [APP_ENTRY_URL, 'parley://app/']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
      expect(await response.text()).toContain('<title>Parley</title>');
    }
    const script = await get('parley://app/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('allows the renderer only its own scripts, no inline script, no network, no frames', () => {
    expect(RENDERER_CSP).toContain("default-src 'none'");
    expect(RENDERER_CSP).toContain("script-src 'self';");
    expect(RENDERER_CSP).not.toMatch(/script-src[^;]*unsafe/);
    expect(RENDERER_CSP).toMatch(/connect-src 'self' parley:;/);
    expect(RENDERER_CSP).toContain("frame-src 'none'");
    expect(RENDERER_CSP).toContain("object-src 'none'");
  });

  it.each([
    'parley://app/%2e%2e/secret.txt',
    'parley://app/..%2fsecret.txt',
    'parley://app/assets/..%2f..%2fsecret.txt',
    'parley://app/..%5csecret.txt',
    'parley://app/%2e%2e%5csecret.txt',
    'parley://app/%252e%252e/secret.txt',
    'parley://app/.env',
    'parley://app/assets/link.txt',
    'parley://app/assets',
    'parley://app/nothing.js',
    'parley://app/%00',
    'parley://app/%E0%A4%A',
    `parley://app/${'..%2f'.repeat(12)}etc/passwd`,
    'parley://elsewhere/index.html',
  ])('answers %s with 404 and nothing from outside the renderer', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(body).not.toContain(secret);
    expect(body).not.toContain('root:');
  });

  it('serves received and staged files, media inline and anything else as a download', async () => {
    const image = await get('parley://attachments/a1');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    const svg = await get('parley://attachments/svg');
    expect(svg.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''logo.svg`);
    expect(svg.headers.get('content-security-policy')).toContain('sandbox');
    const staged = await get('parley://staged/s1');
    expect(staged.status).toBe(200);
    // A staged photo is drawn by the app's page from bytes it reads (another origin of the scheme)
    expect(staged.headers.get('access-control-allow-origin')).toBe('parley://app');
    expect(image.headers.get('access-control-allow-origin')).toBeNull();
    expect((await get('parley://attachments/unknown')).status).toBe(404);
    expect((await get('parley://staged/unknown')).status).toBe(404);
  });

  it('refuses anything but GET and HEAD', async () => {
    expect((await get(APP_ENTRY_URL, 'POST')).status).toBe(405);
  });

  it('puts nosniff and a CSP on every response', async () => {
    for (const url of [
      APP_ENTRY_URL,
      'parley://app/%2e%2e/x',
      'parley://attachments/a1',
      'parley://staged/none',
    ]) {
      const response = await get(url);
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), url).toBeTruthy();
    }
  });
});

describe('a customer’s files through parley://', () => {
  it.each(HOSTILE_FILES.map((file, i) => [file.what, i] as const))(
    '%s: served by its base type, sandboxed, never a script-capable document',
    async (_what, i) => {
      const file = HOSTILE_FILES[i]!;
      for (const host of ['attachments', 'staged']) {
        const response = await hostileHandler(new Request(`parley://${host}/hostile-${i}`));
        const where = `${host}: ${file.what}`;
        expect(response.status, where).toBe(200);
        expect(response.headers.get('content-type'), where).toBe(file.served);
        expect(response.headers.get('content-type'), where).not.toMatch(SCRIPT_CAPABLE);
        expect(response.headers.get('content-disposition'), where).toMatch(
          file.inline ? /^inline;/ : /^attachment;/,
        );
        expect(response.headers.get('content-security-policy'), where).toBe("default-src 'none'; sandbox");
        expect(response.headers.get('x-content-type-options'), where).toBe('nosniff');
        expect(Buffer.from(await response.arrayBuffer()), where).toEqual(file.bytes);
      }
    },
  );
});
