/**
 * The browser host's defences against hostile input, over real sockets: a customer's files served
 * as sandboxed data whatever they claim to be, and WebSocket frames that are not calls.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsClient } from 'ws';
import { arrangeStore, inspectStore } from '../store-inspector.ts';
import { HOSTILE_FILES, SCRIPT_CAPABLE } from './hostile-files.ts';
import { firstSync } from './support.ts';
import { cookie, dir, host, multipart, raw, useSecuredHost } from './browser-host-security-kit.ts';

useSecuredHost();

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
