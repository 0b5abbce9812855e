import { PartnerApiError } from '../errors.ts';
import type { CallOptions } from '../http.ts';
import type { EndpointContext } from './context.ts';

/** Received attachments, fetched from the address a message gives for them. */
export class FilesApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  /**
   * Streams the file at `url` into `to` (whole or not at all). Network failures and 5xx are retried
   * like any GET; the token and the budget apply only when `url` is on the service's own origin (an
   * attachment may live on a third party's storage, which must never see the token).
   */
  async download(url: string, to: string, options: CallOptions = {}): Promise<void> {
    if (!isWebAddress(url))
      throw new PartnerApiError({
        kind: 'validation',
        code: 'invalid_url',
        retryable: false,
        message: 'The attachment has no web address to download it from',
      });
    await this.#ctx.http.request({ ...options, method: 'GET', url, path: '(attachment)', saveTo: to });
  }
}

function isWebAddress(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
