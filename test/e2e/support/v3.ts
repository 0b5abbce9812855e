/**
 * A V3 workspace for end-to-end tests: the demo's service added again speaking V3 (it becomes the
 * active one), and what that service's V3 API says, read with the workspace's token.
 */
import { DEMO_TOKEN } from '../../../sandbox/index.ts';
import { expect, type Parley } from './parley.ts';

export interface V3Part {
  type: string;
  value?: string;
  size_bytes?: number;
  mime_type?: string;
  reactions: Array<{ type: string; custom_emoji: string | null; is_me: boolean }>;
}

export interface V3Message {
  id: string;
  parts: V3Part[];
  reply_to: { message_id: string; part_index: number } | null;
  effect: { type: string; name: string } | null;
  preferred_service?: string | null;
  delivery_status: string;
}

/** What the service's V3 API says, with the workspace's token. */
export async function serviceV3<T>(parley: Parley, path: string): Promise<T> {
  const response = await fetch(`${parley.sandbox.url}/api/partner/v3${path}`, {
    headers: { authorization: `Bearer ${DEMO_TOKEN}` },
  });
  if (!response.ok) throw new Error(`GET v3 ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The service's copy of the chat's message whose text is `text`, if it has one. */
export async function v3MessageOnService(
  parley: Parley,
  v3ChatId: string,
  text: string,
): Promise<V3Message | undefined> {
  const { messages } = await serviceV3<{ messages: V3Message[] }>(
    parley,
    `/chats/${v3ChatId}/messages?limit=20`,
  );
  return messages.find((m) => m.parts.some((p) => p.value === text));
}

/** The agent adds the demo's service again as a V3 workspace; it becomes the active one. */
export async function useV3Workspace(parley: Parley): Promise<void> {
  const added = await parley.call('workspaces.add', {
    name: 'Harbor Dental (V3)',
    baseUrl: parley.sandbox.url,
    token: DEMO_TOKEN,
    apiVersion: 'v3',
  });
  expect(added.apiVersion).toBe('v3');
  await parley.firstSync();
  await parley.call('settings.update', { sync: { pollIntervalMs: 1_000, backgroundPollIntervalMs: 5_000 } });
  // Live events as on the demo: the service's reason for a failed delivery comes only with them.
  await parley.call('webhooks.configure', { enabled: true, provider: 'direct' });
  await expect.poll(async () => (await parley.call('webhooks.status', {})).state).toBe('live');
}
