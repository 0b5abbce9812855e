import { PartnerApiError } from '../../errors.ts';

/** A path segment for an opaque V3 id; refuses locally what can only be a 400 or 404 (empty, blank). */
export function v3Segment(id: string, what: string): string {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new PartnerApiError({
      kind: 'validation',
      code: 'invalid_id',
      retryable: false,
      message: `${what} id is missing`,
    });
  }
  return encodeURIComponent(id.trim());
}

/** The response's `X-Trace-ID` (V3 puts it on every answer; events the request causes carry it too). */
export function traceIdOf(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers['x-trace-id'];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
