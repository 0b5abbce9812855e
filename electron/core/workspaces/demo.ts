import { registerSecret } from '../log/logger.ts';
import type { DemoSandboxPort } from './registry-types.ts';
import { DEFAULT_TOKEN_HEADER, type DemoWorkspace, type WorkspaceConnection } from './workspace.ts';

/** The built-in demo workspace, made whenever no workspace of the user's own exists. */
export function newDemoWorkspace(id: string, now: Date): DemoWorkspace {
  return {
    id,
    name: 'Demo',
    kind: 'demo',
    baseUrl: null,
    tokenHeader: DEFAULT_TOKEN_HEADER,
    createdAt: now.toISOString(),
    // The embedded sandbox speaks both; the demo starts on V2, where every feature is.
    apiVersion: 'v2',
  };
}

/** The demo's service: the embedded sandbox, started on first use (and tried again if that failed). */
export class DemoService {
  readonly #port: DemoSandboxPort;
  #started: Promise<{ url: string; token: string }> | undefined;

  constructor(port: DemoSandboxPort) {
    this.#port = port;
  }

  async connection(tokenHeader: string): Promise<WorkspaceConnection> {
    this.#started ??= this.#port.start().catch((error: unknown) => {
      this.#started = undefined; // let a later call try again
      throw error;
    });
    const { url, token } = await this.#started;
    registerSecret(token);
    return { baseUrl: url, tokenHeader, token };
  }
}
