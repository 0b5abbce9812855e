import { PartnerApiError } from './errors.ts';

/** Every V2 path hangs below this prefix. */
export const V2_PREFIX = '/api/partner/v2';

/** Every V3 path hangs below this prefix. */
export const V3_PREFIX = '/api/partner/v3';

/**
 * The service's base address in one canonical spelling: no trailing slash, and without an API prefix
 * that users often paste along with the host (`https://host/api/partner/v2/`). Throws a user-facing
 * validation error for anything that is not an http(s) URL.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw invalidBaseUrl(
      `"${input}" is not a web address; it should look like https://messaging.example.com`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidBaseUrl(
      `The address must start with https:// (or http:// for a local service), not ${url.protocol}`,
    );
  }
  if (url.username || url.password)
    throw invalidBaseUrl('The address must not contain a user name or password');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/partner\/v[23]$/i, '');
  return `${url.origin}${path}`;
}

function invalidBaseUrl(message: string): PartnerApiError {
  return new PartnerApiError({ kind: 'validation', code: 'invalid_base_url', message, retryable: false });
}
