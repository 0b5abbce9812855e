/** Lines: unread counts for the sidebar, forwarding numbers, iMessage availability. */
import { parley } from '../bridge/parley.ts';
import { forgetOnWorkspaceReset, getState } from '../store/index.ts';

let linesTimer: ReturnType<typeof setTimeout> | undefined;

export async function loadLines(): Promise<void> {
  try {
    getState().receiveLines(await parley.lines.list());
  } catch {
    getState().setLinesError();
  }
}

/** Unread counts move with every read and arrival: reload at most a few times a second. */
export function refreshLines(): void {
  linesTimer ??= setTimeout(() => {
    linesTimer = undefined;
    void loadLines();
  }, 200);
}

/** Sets (or with '' clears) a line's call forwarding number; rejects with the core's error. */
export async function setForwarding(lineId: number, forwardingNumber: string): Promise<void> {
  const line = await parley.lines.setForwarding({ lineId, forwardingNumber });
  getState().upsertLine(line);
}

const imessageCache = new Map<string, boolean | null>();
// Another organization's lines may reach a handle differently.
forgetOnWorkspaceReset(() => imessageCache.clear());

/** Whether a handle can receive iMessage; null when unknown (the service allows few checks). */
export async function checkImessage(handle: string): Promise<boolean | null> {
  if (imessageCache.has(handle)) return imessageCache.get(handle) ?? null;
  const { available } = await parley.lines.checkImessage({ handle });
  // "Unknown" (rate-limited) is not cached: asking again later may get an answer.
  if (available !== null) imessageCache.set(handle, available);
  return available;
}
