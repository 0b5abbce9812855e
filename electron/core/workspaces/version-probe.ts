/**
 * The connect-time probe: the token tried on V2 and V3 at once (api/v3/probe.ts). V2 must work (a
 * workspace's contacts always go through it); V3 is reported, and preferred by the registry.
 */
import { probeApiVersions } from '../api/v3/probe.ts';
import type { ApiVersionsAvailable } from './registry-types.ts';

export async function probeWorkspaceVersions(
  connection: { baseUrl: string; tokenHeader: string; token: string },
  options: { signal?: AbortSignal } = {},
): Promise<{ lines: number; versions: ApiVersionsAvailable }> {
  const probe = await probeApiVersions(connection, options.signal ? { signal: options.signal } : {});
  if (!probe.v2.ok) throw probe.v2.error;
  return {
    lines: probe.v2.lines,
    versions: probe.v3.ok
      ? { v2: true, v3: true }
      : { v2: true, v3: false, v3Refusal: probe.v3.error.message },
  };
}
