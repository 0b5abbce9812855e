/**
 * The browser host's port from launch to launch: the same origin each time (the browser keeps the
 * app's code cached for it), and another one when that port is taken.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { tempDir } from '../core/helpers.ts';
import { quietDemo, stubRenderer } from './support.ts';

const dir = tempDir('parley-browser-port-');
const demo = quietDemo();
const renderer = stubRenderer(dir.path);
const running: BrowserHost[] = [];
let squatter: Server | undefined;

async function launch(): Promise<BrowserHost> {
  const host = await startBrowserHost({
    dataDir: dir.path,
    rendererDir: renderer.dir,
    vaultService: 'parley-test-browser-port',
    demo,
  });
  running.push(host);
  return host;
}

async function quit(host: BrowserHost): Promise<void> {
  await host.stop();
  running.splice(running.indexOf(host), 1);
}

afterAll(async () => {
  for (const host of running) await host.stop();
  squatter?.close();
  await demo.stop();
  dir.remove();
});

it('listens where the last launch on this data folder did; elsewhere when another program has that port', async () => {
  // Given a first launch on a free port
  const first = await launch();
  const port = first.server.port;
  await quit(first);

  // When Parley starts again on the same folder, then it is at the same address
  const second = await launch();
  expect(second.server.port).toBe(port);
  expect(new URL(second.url).port).toBe(String(port));
  await quit(second);

  // When another program has taken that port meanwhile, then Parley starts anyway, elsewhere
  squatter = createServer();
  await new Promise<void>((resolve) => squatter?.listen(port, '127.0.0.1', resolve));
  const third = await launch();
  expect(third.server.port).not.toBe(port);
  // (its launch URL answers there: the page's session starts)
  const launched = await fetch(third.url, { redirect: 'manual' });
  expect(launched.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  await quit(third);
});
