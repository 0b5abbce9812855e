/**
 * Which API versions a token works with: the same token is probed against V2 (its header, GET
 * /api/partner/v2/phone_numbers) and V3 (Bearer, GET /api/partner/v3/phone_numbers), at once, once
 * each, no retries. The connect flow offers V3 when it works and falls back to V2; contacts stay on
 * V2 either way, so a V3 workspace needs both.
 */
import { isPartnerApiError, PartnerApiError } from '../errors.ts';
import { PartnerHttp } from '../http.ts';
import { probeConnection, type ProbeOptions, type ProbeTarget } from '../probe.ts';
import { normalizeBaseUrl, V3_PREFIX } from '../base-url.ts';
import { v3PhoneNumberListSchema } from './schemas.ts';

export type VersionOutcome = { ok: true; lines: number } | { ok: false; error: PartnerApiError };

export interface VersionProbe {
  v2: VersionOutcome;
  v3: VersionOutcome;
  /** The version to use: V3 when it works, else V2 when it works, else null. */
  preferred: 'v3' | 'v2' | null;
}

/**
 * Resolves with what each version answered. Throws (the V2 probe's user-facing error) only when the
 * address cannot be reached at all or the token is missing, since then neither answer means anything.
 */
export async function probeApiVersions(
  target: ProbeTarget,
  options: ProbeOptions = {},
): Promise<VersionProbe> {
  const [v2, v3] = await Promise.all([
    outcome(probeConnection(target, options)),
    outcome(probeV3(target, options)),
  ]);
  if (!v2.ok && !v3.ok && v2.error.status === 0) throw v2.error;
  return { v2, v3, preferred: v3.ok ? 'v3' : v2.ok ? 'v2' : null };
}

/** V3 alone: the number of lines, or a PartnerApiError saying why V3 is not usable with this token. */
async function probeV3(target: ProbeTarget, options: ProbeOptions = {}): Promise<{ lines: number }> {
  const baseUrl = normalizeBaseUrl(target.baseUrl);
  const http = new PartnerHttp({
    ...options.http,
    baseUrl,
    token: target.token.trim(),
    tokenScheme: 'Bearer',
    prefix: V3_PREFIX,
    timeoutMs: options.timeoutMs ?? 15_000,
    maxAttempts: 1,
  });
  try {
    const { data } = await http.request({
      method: 'GET',
      path: '/phone_numbers',
      schema: v3PhoneNumberListSchema,
      signal: options.signal,
    });
    return { lines: data.length };
  } catch (error) {
    throw explainV3(error, baseUrl);
  }
}

async function outcome(probe: Promise<{ lines: number }>): Promise<VersionOutcome> {
  try {
    return { ok: true, lines: (await probe).lines };
  } catch (error) {
    if (isPartnerApiError(error)) return { ok: false, error };
    throw error;
  }
}

function explainV3(error: unknown, baseUrl: string): unknown {
  if (!isPartnerApiError(error)) return error;
  const host = new URL(baseUrl).host;
  if (error.code === '2011') {
    return error.withMessage(`${host} has not enabled the V3 API for this account (code 2011)`);
  }
  if (error.kind === 'unauthorized') {
    return error.withMessage(`${host} refused this token for the V3 API (401, code ${error.code})`);
  }
  if (error.kind === 'not_found' || error.kind === 'invalid_response') {
    return error.withMessage(`${host} does not offer the V3 API`, 'not_found');
  }
  return error;
}
