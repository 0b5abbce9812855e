/**
 * Settings writes and the sync: the agent's place is saved as they scroll, and such a write must not
 * cost a poll of the service; a change of the poll interval does reconfigure (and poll) at once.
 * Requests are counted on the real demo service, through its control API (a zero-latency route
 * fault counts every request it sees).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host.ts';
import { control, eventually, tempDir } from '../core/helpers.ts';
import { firstSync, quietDemo, stubRenderer } from './support.ts';

const dir = tempDir('parley-settings-sync-');
const demo = quietDemo();
let host: BrowserHost;

async function call(method: string, input: unknown = {}): Promise<unknown> {
  const result = await host.core.dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value;
}

/** Counts the service's answers to GETs of a chat's messages (its polls), from now on. */
async function countPolls(chatId: number): Promise<() => Promise<number>> {
  const path = `^/api/partner/v2/chats/${chatId}/chat_messages$`;
  const { id } = await control<{ id: number }>(demo.sandbox(), 'POST', '/faults', {
    kind: 'latency',
    latencyMs: 0,
    method: 'GET',
    path,
  });
  return async () => {
    const { faults } = await control<{ faults: Array<{ id: number; hits: number }> }>(
      demo.sandbox(),
      'GET',
      '/faults',
    );
    return faults.find((fault) => fault.id === id)?.hits ?? 0;
  };
}

beforeAll(async () => {
  host = await startBrowserHost({
    dataDir: dir.path,
    rendererDir: stubRenderer(dir.path).dir,
    vaultService: 'parley-test-settings-sync',
    demo,
  });
  await firstSync(host.core);
});

afterAll(async () => {
  await host?.stop();
  await demo.stop();
  dir.remove();
});

describe('saving settings', () => {
  it('a place update polls nothing; a new poll interval polls the open chat at once', async () => {
    const [first, second] = host.core.session.store.chats.list({ limit: 2 });
    if (!first || !second) throw new Error('the demo has fewer than two chats');
    const firstPolls = await countPolls(first.id);
    const secondPolls = await countPolls(second.id);
    // Given the first chat open, polled once on opening, and next due a minute later.
    await call('settings.update', { sync: { pollIntervalMs: 60_000 } });
    await call('chats.open', { chatId: first.id, focused: true });
    await eventually(async () => (await firstPolls()) >= 1, 'the poll on opening');
    const before = await firstPolls();

    // When the agent's place is saved, then another chat opened (polled at once: the marker).
    await call('settings.update', { place: { chatId: first.id, topKey: null } });
    // (A round trip to the service first, as the page's next call would be: a poll the save set off
    // goes out meanwhile, rather than merging into the second chat's.)
    await firstPolls();
    await call('chats.open', { chatId: second.id, focused: true });
    await eventually(async () => (await secondPolls()) >= 1, 'the poll of the second chat');

    // Then the first chat was not polled for the place (a poll would have come before the marker).
    expect(await firstPolls()).toBe(before);
    expect(host.core.publicSettings().place).toEqual({ chatId: first.id, topKey: null });

    // And a change of the interval is followed at once: the open chat is polled again.
    const polled = await secondPolls();
    await call('settings.update', { sync: { pollIntervalMs: 30_000 } });
    await eventually(async () => (await secondPolls()) > polled, 'the poll after the new interval');
  });
});
