import type { RunningSandbox } from '../../sandbox/index.ts';
import type { DemoSandboxPort } from '../core/index.ts';

/**
 * The demo workspace's service: the embedded sandbox with the demo organization and live simulated
 * customers, on an ephemeral loopback port, started on first use and stopped with the app. The hosts
 * build it and pass it to the core, which knows only the DemoSandboxPort (so core never loads the
 * sandbox or its web server). The sandbox and its web server are loaded on that first use too: an
 * agent's own workspace starts without them.
 */
export class EmbeddedDemoSandbox implements DemoSandboxPort {
  #running: Promise<RunningSandbox> | undefined;
  readonly #speed: number;

  constructor(options: { speed?: number } = {}) {
    this.#speed = options.speed ?? 1;
  }

  async start(): Promise<{ url: string; token: string }> {
    this.#running ??= import('../../sandbox/index.ts').then(({ DEMO_TOKEN, startSandbox }) =>
      startSandbox({ seed: 'demo', tokens: [DEMO_TOKEN], speed: this.#speed }),
    );
    const sandbox = await this.#running;
    return { url: sandbox.url, token: sandbox.tokens[0] as string };
  }

  async stop(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    await (await running)?.stop();
  }
}
