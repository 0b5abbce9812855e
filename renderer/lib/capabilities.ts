/**
 * What a workspace can do, derived from its API version here and nowhere else. Components ask for a
 * capability (`capabilities.effects`), never for a version: a control the workspace cannot use is
 * not rendered at all, and one it can use but this chat or message cannot is disabled with its reason.
 */
import type { ApiVersion, Chat } from '../../shared/domain.ts';

export interface Capabilities {
  /** The version these were derived from, for the words "API V2" / "API V3" only. */
  version: ApiVersion;
  /** Replying to a message in its thread (the Reply action, the quote above the composer). */
  replies: boolean;
  /** Sending with an iMessage effect (the composer's Effect picker). */
  effects: boolean;
  /** Asking for iMessage, RCS or SMS per message (the composer's "Send as"). */
  serviceChoice: boolean;
  /** Any one emoji as a reaction, beside the six tapbacks. */
  customReactions: boolean;
  /** Edits limited by the service (5 within 15 minutes of sending); unlimited otherwise. */
  editWindow: boolean;
  /** The chat's health and the line's reputation, reported by the service. */
  standing: boolean;
}

const V2: Capabilities = Object.freeze({
  version: 'v2',
  replies: false,
  effects: false,
  serviceChoice: false,
  customReactions: false,
  editWindow: false,
  standing: false,
});

const V3: Capabilities = Object.freeze({
  version: 'v3',
  replies: true,
  effects: true,
  serviceChoice: true,
  customReactions: true,
  editWindow: true,
  standing: true,
});

/** One object per version, so a selector returning it keeps its identity (no re-render). */
export function capabilitiesOf(version: ApiVersion): Capabilities {
  return version === 'v3' ? V3 : V2;
}

/** V3 when the chat came from V3 or the workspace speaks it; absent data means V2. */
export function apiVersionOf(
  chat: Pick<Chat, 'apiVersion'> | undefined,
  workspace?: { apiVersion?: ApiVersion } | null,
): ApiVersion {
  return chat?.apiVersion === 'v3' || workspace?.apiVersion === 'v3' ? 'v3' : 'v2';
}

export function versionText(version: ApiVersion): string {
  return version === 'v3' ? 'V3' : 'V2';
}
