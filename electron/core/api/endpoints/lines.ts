import { phoneNumberListResponse, phoneNumberResponse } from '../envelopes.ts';
import type { CallOptions } from '../http.ts';
import { toE164 } from '../phone.ts';
import type { ApiPhoneNumber } from '../schemas.ts';
import { type EndpointContext, idSegment } from './context.ts';

/** The organization's lines (its phone numbers): `/phone_numbers`. */
export class LinesApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  /** Every line of the organization (not paginated). */
  async list(options: CallOptions = {}): Promise<ApiPhoneNumber[]> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/phone_numbers',
      schema: phoneNumberListResponse,
    });
    return data;
  }

  /**
   * Sets where calls to the line are forwarded when it is unavailable; `null` or '' clears it.
   * `lineId` is the line's id, not its number.
   */
  async updateForwarding(
    lineId: number,
    forwardingNumber: string | null,
    options: CallOptions = {},
  ): Promise<ApiPhoneNumber> {
    const cleared = forwardingNumber === null || forwardingNumber.trim() === '';
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PUT',
      path: `/phone_numbers/${idSegment(lineId, 'Line')}`,
      // The spec: "an empty string clears it".
      json: {
        forwarding_number: cleared
          ? ''
          : toE164(forwardingNumber, this.#ctx.defaultCountry, 'forwarding number'),
      },
      schema: phoneNumberResponse,
    });
    return data;
  }
}
