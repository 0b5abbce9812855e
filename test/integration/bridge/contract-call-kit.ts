/** What every bridge method's call in contract-calls.ts is given, and what the calls share. */
import type { AppCore } from '../../../electron/core/app/app-core.ts';
import type { ParleyApi } from '../../../shared/contract/client.ts';
import type { RunningSandbox } from '../../../sandbox/index.ts';
import type { Fixtures } from './contract-fixtures.ts';

export interface BridgeUnderTest {
  host: 'electron' | 'browser';
  /** The renderer's client over the transport under test. */
  parley: ParleyApi;
  /** The core behind it: fixtures are looked up in its store (arrange), never the answers (assert). */
  core: AppCore;
  /** The demo workspace's service. */
  demo: RunningSandbox;
  /** Another service with two organizations, to connect as more workspaces. */
  second: { url: string; tokens: readonly [string, string] };
  /** A folder for files the test creates. */
  dir: string;
  /** What the Electron host did through the OS (links, files opened); null in the browser host. */
  opened: { links: string[]; files: string[] } | null;
}

export type Call = (t: BridgeUnderTest) => Promise<void>;

/** What the calls learn and hand on, in order: the fixtures (from 'app.info', the first) and workspace ids. */
export interface CallState {
  f: Fixtures;
  demoWorkspaceId: string;
  secondWorkspaceId: string;
  thirdWorkspaceId: string;
}

export const outbox = (t: BridgeUnderTest, key: string) => t.core.session.store.outbox.byMessageKey(key);
