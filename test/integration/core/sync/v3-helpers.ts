/** Shared by the V3 sync tests: V3 reads straight from the sandbox, and a V3 session on it. */
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import type { AttemptRecord } from '../../../../electron/core/api/http.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { ApiVersion } from '../../../../shared/domain.ts';

/** Reads the service's V3 API directly, bypassing the code under test. */
export async function serviceV3<T = unknown>(sandbox: RunningSandbox, path: string): Promise<T> {
  const response = await fetch(`${sandbox.url}/api/partner/v3${path}`, {
    headers: { authorization: `Bearer ${sandbox.tokens[0] as string}` },
  });
  if (!response.ok) throw new Error(`GET v3 ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export interface V3ChatView {
  id: string;
  service: string;
  is_group: boolean;
  handles: Array<{ handle: string; is_me: boolean }>;
}

/** Every chat V3 lists for the token, all lines, all pages. */
export async function allV3Chats(sandbox: RunningSandbox): Promise<V3ChatView[]> {
  const chats: V3ChatView[] = [];
  let cursor: string | null = null;
  do {
    const page: { chats: V3ChatView[]; next_cursor: string | null } = await serviceV3(
      sandbox,
      `/chats?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    chats.push(...page.chats);
    cursor = page.next_cursor;
  } while (cursor);
  return chats;
}

/** How many messages with this text V3 lists in the chat. */
export async function v3Copies(sandbox: RunningSandbox, v3ChatId: string, text: string): Promise<number> {
  const { messages } = await serviceV3<{ messages: Array<{ parts: Array<{ value?: string }> }> }>(
    sandbox,
    `/chats/${v3ChatId}/messages?limit=100`,
  );
  return messages.filter((m) => m.parts.some((p) => p.value === text)).length;
}

export interface TimedAttempt extends AttemptRecord {
  at: number;
}

export function sessionOn(
  sandbox: RunningSandbox,
  dataDir: string,
  apiVersion: ApiVersion,
  attempts: TimedAttempt[] = [],
): WorkspaceSession {
  return new WorkspaceSession({
    dataDir,
    apiVersion,
    connection: {
      baseUrl: sandbox.url,
      tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
      token: sandbox.tokens[0] as string,
    },
    sync: { openChatIntervalMs: 200, backgroundIntervalMs: 500, markReadDelayMs: 50 },
    client: {
      backoff: { baseMs: 50, capMs: 500 },
      timeoutMs: 4_000,
      onAttempt: (attempt) => attempts.push({ ...attempt, at: Date.now() }),
    },
  });
}
