/**
 * Received attachments downloaded through the client: streamed into a file, retried through the
 * network's faults, and the token sent to the service's own origin only, never to another host.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN_HEADER, type AttemptOutcome } from '../../../../electron/core/api/http.ts';
import { freshCustomer, firstLine, startTestSandbox, testClient, type TestSandbox } from './helpers.ts';

let sandbox: TestSandbox;
let dir: string;
/** A file the service holds, at the address a message gives for it, and its bytes. */
let stored: { url: string; content: Buffer };
let foreign: ForeignHost;

const FILES = '^/files/';
const TOKEN_HEADER = DEFAULT_TOKEN_HEADER.toLowerCase();

/** Another web server holding attachments (a third party's storage): it records what it is sent. */
interface ForeignHost {
  url(path: string): string;
  requests: IncomingHttpHeaders[];
  /** The next requests of /flaky answer 503 this many times. */
  failNext(times: number): void;
  close(): Promise<void>;
}

async function startForeignHost(content: Buffer): Promise<ForeignHost> {
  const requests: IncomingHttpHeaders[] = [];
  let failures = 0;
  const server: Server = createServer((request, response) => {
    requests.push(request.headers);
    if (request.url === '/flaky' && failures > 0) {
      failures -= 1;
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': content.length });
    response.end(content);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    failNext: (times) => {
      failures = times;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'parley-download-'));
  const { client } = testClient(sandbox);
  const content = randomBytes(300_000);
  const path = join(dir, 'site-photo.png');
  await writeFile(path, content);
  const { chat } = await client.chats.create({
    line: await firstLine(client),
    participants: [await freshCustomer(sandbox)],
    text: 'photo follows',
  });
  const sent = await client.messages.send(chat.id, { text: 'photo', files: [{ path }] });
  const [attachment] = sent.message.attachments;
  if (!attachment) throw new Error('the sandbox kept no attachment');
  stored = { url: attachment.url, content };
  foreign = await startForeignHost(content);
});

afterEach(async () => {
  await sandbox.control.clearFaults();
  foreign.requests.length = 0;
});

afterAll(async () => {
  await foreign?.close();
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
const target = () => join(dir, `downloaded-${++n}`);

describe('a download from the service', () => {
  it('arrives whole through a connection reset, and the service is heard from on every attempt', async () => {
    const { client, attempts } = testClient(sandbox);
    const outcomes: AttemptOutcome[] = [];
    client.http.onOutcome((outcome) => outcomes.push(outcome));
    await sandbox.control.addFault({ kind: 'reset', method: 'GET', path: FILES, times: 1 });
    const to = target();

    await client.files.download(stored.url, to);

    expect((await readFile(to)).equals(stored.content)).toBe(true);
    expect(attempts.map((a) => [a.status, a.errorKind])).toEqual([
      [0, 'network'],
      [200, undefined],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([0, 200]);
  });

  it('arrives whole after a 503', async () => {
    const { client, attempts } = testClient(sandbox);
    await sandbox.control.addFault({ kind: 'error', status: 503, method: 'GET', path: FILES, times: 1 });
    const to = target();

    await client.files.download(stored.url, to);

    expect((await readFile(to)).equals(stored.content)).toBe(true);
    expect(attempts.map((a) => a.status)).toEqual([503, 200]);
  });

  it('leaves no file behind when the service keeps failing', async () => {
    const { client, attempts } = testClient(sandbox, { maxAttempts: 2 });
    await sandbox.control.addFault({ kind: 'error', status: 500, method: 'GET', path: FILES });
    const to = target();

    await expect(client.files.download(stored.url, to)).rejects.toMatchObject({
      kind: 'server',
      status: 500,
    });

    expect(attempts).toHaveLength(2);
    expect(existsSync(to)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('takes a slot of the token’s budget for each attempt', async () => {
    const { client } = testClient(sandbox);
    const before = client.http.budget.stats().granted;

    await client.files.download(stored.url, target());

    expect(client.http.budget.stats().granted).toBe(before + 1);
  });
});

describe('a download from another host', () => {
  it('never carries the token, and takes nothing of the service’s budget or reachability', async () => {
    const { client } = testClient(sandbox);
    const outcomes: AttemptOutcome[] = [];
    client.http.onOutcome((outcome) => outcomes.push(outcome));
    const before = client.http.budget.stats().granted;
    const to = target();

    await client.files.download(foreign.url('/photo.png'), to);

    expect((await readFile(to)).equals(stored.content)).toBe(true);
    expect(foreign.requests).toHaveLength(1);
    expect(foreign.requests[0]).not.toHaveProperty(TOKEN_HEADER);
    expect(JSON.stringify(foreign.requests)).not.toContain(sandbox.token);
    expect(client.http.budget.stats().granted).toBe(before);
    expect(outcomes).toEqual([]);
  });

  it('is retried after a 503, still without the token', async () => {
    const { client, attempts } = testClient(sandbox);
    foreign.failNext(1);
    const to = target();

    await client.files.download(foreign.url('/flaky'), to);

    expect((await readFile(to)).equals(stored.content)).toBe(true);
    expect(attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(foreign.requests.map((headers) => headers[TOKEN_HEADER])).toEqual([undefined, undefined]);
  });

  it('gets the token when it is the service’s own origin (the same request, the other side of the rule)', async () => {
    const { client } = testClient(sandbox, { baseUrl: foreign.url('') });

    await client.files.download(foreign.url('/photo.png'), target());

    expect(foreign.requests[0]?.[TOKEN_HEADER]).toBe(sandbox.token);
  });
});
