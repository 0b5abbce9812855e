/**
 * The browser transport, end to end over real sockets: the browser host (startBrowserHost, what
 * `npm run web` runs) with the demo workspace, and the renderer's own WebSocket transport
 * (renderer/bridge/transports.ts) connecting to it the way a page does, with the session cookie and
 * the page's Origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { createParleyClient, type ParleyApi, type Transport } from '../../../shared/contract/client.ts';
import { METHOD_NAMES } from '../../../shared/contract/methods.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';
import { eventually, tempDir } from '../core/helpers.ts';
import type { BridgeUnderTest } from './contract-call-kit.ts';
import { contractCalls } from './contract-calls.ts';
import { malformedCases } from './malformed.ts';
import { connectAsPage, firstSync, quietDemo, stopPageHost, stubRenderer, worldSnapshot } from './support.ts';

const dir = tempDir('parley-browser-bridge-');
const demo = quietDemo();
let second: RunningSandbox;
let host: BrowserHost;
let transport: Transport;
let parley: ParleyApi;
/** Methods as they reached the core, after the WebSocket. */
const carried: string[] = [];

beforeAll(async () => {
  second = await startSandbox({ seed: 'empty', quiet: true, tokens: ['branch-a', 'branch-b'] });
  host = await startBrowserHost({
    dataDir: dir.path,
    rendererDir: stubRenderer(dir.path).dir,
    vaultService: 'parley-test-bridge-browser',
    demo,
  });
  const dispatch = host.core.dispatch;
  Object.defineProperty(host.core, 'dispatch', {
    value: (method: string, input: unknown) => {
      carried.push(method);
      return dispatch(method, input);
    },
  });
  transport = await connectAsPage(host);
  parley = createParleyClient(transport);
  await firstSync(host.core);
});

afterAll(async () => {
  await stopPageHost(host);
  await second?.stop();
  dir.remove();
});

describe('malformed input through the browser transport', () => {
  let before: Record<string, string>;
  beforeAll(async () => {
    before = await worldSnapshot(host.core, demo.sandbox());
  });

  it.each(METHOD_NAMES)(
    '%s rejects each malformed input with invalid_input and the field',
    async (method) => {
      for (const malformed of malformedCases(method)) {
        await expect(
          transport.invoke(method, malformed.input),
          `${method}: ${malformed.what}`,
        ).rejects.toMatchObject({
          code: 'invalid_input',
          field: malformed.field,
        });
      }
    },
  );

  it('changed nothing, in the core or on the service', async () => {
    expect(await worldSnapshot(host.core, demo.sandbox())).toEqual(before);
  });
});

describe('a call too large for one frame', () => {
  it('is refused in words before it is sent, and the calls around it are answered on the same connection', async () => {
    const disconnected: string[] = [];
    const off = transport.subscribe((event) => {
      if (event === 'bridge.disconnected') disconnected.push(event);
    });
    // Given a call in flight
    const before = transport.invoke('app.info', {});
    // When the page makes a call over the frame limit: 1.5 million characters, 4.5 MB in UTF-8
    const tooLarge = transport.invoke('canned.import', { json: '€'.repeat(1_500_000) });
    // Then it is refused with its size and the limit, and nothing else is lost
    await expect(tooLarge).rejects.toEqual({
      code: 'invalid_input',
      message: 'This is too large to hand to Parley in one go: 4.3 MB, the limit is 4.0 MB.',
      retryable: false,
    });
    await expect(before).resolves.toMatchObject({ host: 'browser' });
    await expect(transport.invoke('app.info', {})).resolves.toMatchObject({ host: 'browser' });
    expect(disconnected).toEqual([]);
    off();
  });
});

describe('events through the browser transport', () => {
  it('pushes core events to the page', async () => {
    const seen: string[] = [];
    const off = parley.on('settings.changed', (settings) => seen.push(settings.theme));
    await parley.settings.update({ theme: 'light' });
    await eventually(() => seen.includes('light'), 'settings.changed');
    off();
    await parley.settings.update({ theme: 'system' });
  });
});

describe('every method through the browser transport', () => {
  const t = {} as BridgeUnderTest;
  beforeAll(() => {
    carried.length = 0;
    Object.assign(t, {
      host: 'browser',
      parley,
      core: host.core,
      demo: demo.sandbox(),
      second: { url: second.url, tokens: ['branch-a', 'branch-b'] },
      dir: dir.path,
      opened: null,
    } satisfies BridgeUnderTest);
  });

  for (const [method, call] of Object.entries(contractCalls())) {
    it(method, () => call(t));
  }

  it('carried every method of the contract to the core', () => {
    expect(METHOD_NAMES.filter((method) => !carried.includes(method))).toEqual([]);
  });
});
