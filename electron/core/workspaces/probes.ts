/**
 * What the registry asks before it stores a workspace: the service, with a connect form's fields
 * (the token works, and on which API versions), or a team's relay, with a join code. The fields are
 * read first, each refusal an input error on its field; nothing is stored here.
 */
import type { ApiVersion } from '../../../shared/domain.ts';
import { registerSecret } from '../log/logger.ts';
import { type JoinCode, parseJoinCode, RELAY_URL } from '../relay/join-code.ts';
import type {
  AddWorkspaceInput,
  ApiVersionsAvailable,
  JoinTeamInput,
  WorkspaceRegistryOptions,
} from './registry-types.ts';
import {
  parseBaseUrl,
  parseName,
  parseToken,
  parseTokenHeader,
  WorkspaceError,
  WorkspaceInputError,
} from './workspace.ts';

/** A connect form's service fields, read, and the service's answer to them. */
export async function probeService(
  input: Pick<AddWorkspaceInput, 'baseUrl' | 'token' | 'tokenHeader'>,
  options: Pick<WorkspaceRegistryOptions, 'probe' | 'allowInsecureHttp'>,
  signal: AbortSignal | undefined,
) {
  const token = parseToken(input.token);
  registerSecret(token);
  const baseUrl = parseBaseUrl(input.baseUrl, options.allowInsecureHttp);
  const tokenHeader = parseTokenHeader(input.tokenHeader);
  const connection = { baseUrl, tokenHeader, token };
  return { connection, ...(await options.probe(connection, { signal })) };
}

/** A join form's fields, read, and the relay's answer: the API version it serves. */
export async function probeRelay(
  input: JoinTeamInput,
  options: Pick<WorkspaceRegistryOptions, 'relayProbe'>,
  signal: AbortSignal | undefined,
): Promise<{ code: JoinCode; relayUrl: string; name: string; apiVersion: ApiVersion }> {
  const code = parseJoinCodeInput(input.joinCode);
  registerSecret(code.seed);
  const relayUrl = parseRelayUrl(input.relayUrl, code.url);
  const name = parseName(input.name?.trim() || 'Team');
  const probe = options.relayProbe;
  if (!probe) throw new WorkspaceError('Joining a team is not available here');
  const { apiVersion } = await probe({ ...code, url: relayUrl }, { signal });
  return { code, relayUrl, name, apiVersion };
}

/** A join code as pasted, or an input error on the join code field. */
function parseJoinCodeInput(text: string): JoinCode {
  try {
    return parseJoinCode(text);
  } catch (error) {
    throw new WorkspaceInputError('joinCode', error instanceof Error ? error.message : String(error));
  }
}

/** The relay's address: the one typed (an agent may reach it another way), else the join code's. */
function parseRelayUrl(typed: string | undefined, fromCode: string): string {
  const url = typed?.trim() || fromCode;
  if (!RELAY_URL.test(url))
    throw new WorkspaceInputError('relayUrl', 'The relay address starts with nats:// or tls://');
  return url;
}

/** What a probe that does not report versions (an older one) means: V2 only. */
export const NO_VERSION_REPORT: ApiVersionsAvailable = { v2: true, v3: false };

/**
 * The version to use: the one asked for when the token works there (else an input error saying so),
 * or V3 when it works, else V2. A probe that does not tell (an older one) means V2 only.
 */
export function chooseApiVersion(
  asked: ApiVersion | undefined,
  versions: ApiVersionsAvailable | undefined,
): ApiVersion {
  const available = versions ?? NO_VERSION_REPORT;
  if (asked === undefined) return available.v3 ? 'v3' : 'v2';
  if (!available[asked]) {
    const refusal =
      (asked === 'v3' && available.v3Refusal) ||
      `This service does not accept the token for the ${asked.toUpperCase()} API`;
    throw new WorkspaceInputError('apiVersion', `${refusal}; keep ${asked === 'v3' ? 'V2' : 'V3'}`);
  }
  return asked;
}
