/**
 * The benchmarks measure the page as an agent's browser holds it, and an agent's browser has no
 * DevTools attached. Playwright drives the page through a DevTools session with the network agent
 * on (`Network.enable` with Chromium's default buffers), and that agent keeps a copy of every
 * response body in the page's renderer for `Network.getResponseBody`: when an image the page drew is
 * let go, its bytes are copied into the agent's buffer as base64 (a 2.3 MB photo: 3.1 MB of the
 * renderer's PartitionAlloc), up to the buffer's size (hundreds of MB). Measured with 30 distinct
 * phone photos drawn once each and let go: +93 MB of the renderer's anonymous memory with
 * Playwright as it is, +1.4 MB with this (docs/bench/README.md, issue #20).
 *
 * `keepNoResponseBodies()` makes Playwright's network agent, in every page it attaches to from then
 * on, keep no bodies (`Network.enable` again with zero-size buffers, on Playwright's own session:
 * one of our own would be a second agent beside it). Playwright has no option for it, so this
 * reaches into its server objects; if they are not where it expects, it throws rather than let a
 * benchmark measure the instrument.
 */
import { createRequire } from 'node:module';

interface ServerPage {
  delegate?: { _mainFrameSession?: { _client?: { send(method: string, params: object): Promise<unknown> } } };
}

let installed = false;

export function keepNoResponseBodies(): void {
  if (installed) return;
  const require = createRequire(import.meta.url);
  const { server } = require('playwright-core/lib/coreBundle') as {
    server?: { Page?: { prototype: { reportAsNew?: (...args: unknown[]) => Promise<unknown> } } };
  };
  const prototype = server?.Page?.prototype;
  const reportAsNew = prototype?.reportAsNew;
  if (!prototype || !reportAsNew)
    throw new Error(
      "keepNoResponseBodies: Playwright's server Page is not where it was; update test/perf/devtools-no-bodies.ts",
    );
  prototype.reportAsNew = async function (this: ServerPage, ...args: unknown[]) {
    const session = this.delegate?._mainFrameSession?._client;
    if (!session)
      throw new Error(
        "keepNoResponseBodies: Playwright's page session is not where it was; update test/perf/devtools-no-bodies.ts",
      );
    await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
    return reportAsNew.apply(this, args);
  };
  installed = true;
}
