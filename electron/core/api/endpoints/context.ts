/** What every endpoint group shares, and small helpers for building their requests. */
import type { CountryCode } from 'libphonenumber-js';
import { PartnerApiError } from '../errors.ts';
import type { PartnerHttp } from '../http.ts';

export interface EndpointContext {
  http: PartnerHttp;
  /** Country assumed for numbers typed without a country code. */
  defaultCountry: CountryCode;
  maxAttachmentBytes: number;
}

/** A path segment for an integer id; refuses locally what can only be a 404 (NaN, 0, fractions). */
export function idSegment(id: number, what: string): string {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new PartnerApiError({
      kind: 'validation',
      code: 'invalid_id',
      retryable: false,
      message: `${what} id must be a positive integer, got ${String(id)}`,
    });
  }
  return String(id);
}

/** ISO 8601 for a query parameter that takes a date-time. */
export function isoTime(value: Date | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value instanceof Date ? value.toISOString() : value;
}
