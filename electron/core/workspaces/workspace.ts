/**
 * What a workspace is, how workspaces.json stores it, and the checks on what a user types when adding
 * one. No secrets here: a workspace's token lives in the vault under `workspace/<id>/token`.
 */
import { z } from 'zod';
import { normalizeBaseUrl } from '../api/base-url.ts';
import { DEFAULT_TOKEN_HEADER } from '../api/http.ts';
import { RELAY_CA, RELAY_URL } from '../relay/join-code.ts';
import { SUBJECT_TOKEN } from '../relay/subjects.ts';
import { workspaceIdSchema } from '../settings/schema.ts';
import { isLoopbackHost } from '../util.ts';

export { DEFAULT_TOKEN_HEADER };

const common = {
  id: workspaceIdSchema,
  name: z.string().min(1).max(80),
  /** HTTP header that carries the token (the spec's V2 default: X-PARTNER-INTEGRATION-TOKEN). */
  tokenHeader: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/),
  createdAt: z.iso.datetime(),
  /**
   * Which API its chats, messages and lines go through (contacts always use V2). Chosen when it is
   * connected (V3 when the token works there); absent in files written before V3: v2.
   */
  apiVersion: z.enum(['v2', 'v3']).default('v2'),
};

/** A Partner Messaging Service the user connected with their own token. */
export const remoteWorkspaceSchema = z.object({
  ...common,
  kind: z.literal('remote'),
  /** Normalized: http(s), no trailing slash, no /api/partner/v2 suffix. */
  baseUrl: z.url({ protocol: /^https?$/ }),
});

/**
 * The built-in demo, backed by the embedded sandbox. Its address (an ephemeral loopback port) and
 * token exist only while the app runs, so neither is stored: see DemoSandboxPort.
 */
export const demoWorkspaceSchema = z.object({
  ...common,
  kind: z.literal('demo'),
  baseUrl: z.null(),
});

/**
 * An organization reached through its team's relay (issue #18): no token here, only the relay's
 * address and the agent's id; the agent's nkey seed lives in the vault under `workspace/<id>/relay-seed`.
 * `apiVersion` is the organization's, as the relay reports it.
 */
export const relayWorkspaceSchema = z.object({
  ...common,
  kind: z.literal('relay'),
  baseUrl: z.null(),
  relayUrl: z.string().regex(RELAY_URL, 'a nats:// URL'),
  agentId: z.string().regex(SUBJECT_TOKEN),
  /** The private CA the relay's TLS certificate is signed by (from the join code; not a secret). */
  relayCa: RELAY_CA.optional(),
});

export const workspaceSchema = z.discriminatedUnion('kind', [
  remoteWorkspaceSchema,
  demoWorkspaceSchema,
  relayWorkspaceSchema,
]);

export type RemoteWorkspace = z.infer<typeof remoteWorkspaceSchema>;
export type DemoWorkspace = z.infer<typeof demoWorkspaceSchema>;
export type RelayWorkspace = z.infer<typeof relayWorkspaceSchema>;
export type Workspace = z.infer<typeof workspaceSchema>;

/** workspaces.json. `version` lets a later release migrate the file instead of discarding it. */
export const workspacesFileSchema = z.object({
  version: z.literal(1),
  workspaces: z.array(workspaceSchema),
});

/** Everything the API client needs to talk to a workspace's service. */
export interface WorkspaceConnection {
  baseUrl: string;
  tokenHeader: string;
  token: string;
}

/** A workspace operation failed; `message` is written for the user. */
export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
}

/** What the user typed is not usable; `field` says which input to highlight. */
export class WorkspaceInputError extends WorkspaceError {
  override name = 'WorkspaceInputError';
  readonly field: 'name' | 'baseUrl' | 'token' | 'tokenHeader' | 'apiVersion' | 'joinCode' | 'relayUrl';
  constructor(field: WorkspaceInputError['field'], message: string) {
    super(message);
    this.field = field;
  }
}

export class WorkspaceNotFoundError extends WorkspaceError {
  override name = 'WorkspaceNotFoundError';
  constructor(id: string) {
    super(`No workspace with id ${JSON.stringify(id)}`);
  }
}

/** The keychain no longer has this workspace's token or relay credentials (removed by hand, a reset). */
export class WorkspaceTokenMissingError extends WorkspaceError {
  override name = 'WorkspaceTokenMissingError';
  readonly workspaceId: string;
  constructor(workspace: Workspace) {
    super(
      workspace.kind === 'relay'
        ? `This desktop's credentials for "${workspace.name}" are missing from the system keychain. Join your team again with a new join code.`
        : `The API token for "${workspace.name}" is missing from the system keychain. Enter it again to reconnect.`,
    );
    this.workspaceId = workspace.id;
  }
}

export function parseName(input: string): string {
  const name = input.trim();
  if (name === '') throw new WorkspaceInputError('name', 'Give the workspace a name');
  if (name.length > 80) throw new WorkspaceInputError('name', 'Keep the name under 80 characters');
  return name;
}

export function parseToken(input: string): string {
  const token = input.trim();
  if (token === '') throw new WorkspaceInputError('token', 'Enter the API token');
  // Inner whitespace is almost always a copy-paste accident, and line breaks cannot go in a header.
  if (/\s/.test(token) || [...token].some((c) => c < ' ' || c === '\u007f')) {
    throw new WorkspaceInputError(
      'token',
      'The token contains spaces or line breaks; paste it again without them',
    );
  }
  return token;
}

export function parseTokenHeader(input: string | undefined): string {
  const header = input?.trim() || DEFAULT_TOKEN_HEADER;
  if (!common.tokenHeader.safeParse(header).success) {
    throw new WorkspaceInputError('tokenHeader', `"${header}" is not a valid HTTP header name`);
  }
  return header;
}

/**
 * The canonical base URL. Plain http is refused except on this machine (a local sandbox or proxy):
 * over a network it would send the token in clear text. `allowInsecureHttp` lifts that for setups
 * that really need it (a trusted lab network).
 */
export function parseBaseUrl(input: string, allowInsecureHttp = false): string {
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(input);
  } catch (error) {
    throw new WorkspaceInputError('baseUrl', error instanceof Error ? error.message : String(error));
  }
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new WorkspaceInputError(
      'baseUrl',
      `Use https:// for ${url.host}: plain http would send your token unencrypted (http is only allowed for services on this computer)`,
    );
  }
  return baseUrl;
}
