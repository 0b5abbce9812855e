import type { CallOptions } from '../../http.ts';
import type { EndpointContext } from '../../endpoints/context.ts';
import { toE164 } from '../../phone.ts';
import {
  type V3Capability,
  type V3PhoneNumber,
  v3CapabilitySchema,
  v3PhoneNumberListSchema,
  v3PhoneNumberSchema,
} from '../schemas.ts';
import { v3Handle } from '../outgoing.ts';
import { v3Segment } from './segment.ts';

/** The organization's lines (`/phone_numbers`) and the iMessage capability check. */
export class V3LinesApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  async list(options: CallOptions = {}): Promise<V3PhoneNumber[]> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/phone_numbers',
      schema: v3PhoneNumberListSchema,
    });
    return data;
  }

  /** Sets (or with null clears) where calls to the line are forwarded. `id` is the record's id. */
  async setForwarding(
    id: string,
    forwardingNumber: string | null,
    options: CallOptions = {},
  ): Promise<V3PhoneNumber> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PUT',
      path: `/phone_numbers/${v3Segment(id, 'Phone number')}`,
      idempotent: true,
      json: {
        forwarding_number:
          forwardingNumber === null
            ? null
            : toE164(forwardingNumber, this.#ctx.defaultCountry, 'forwarding number'),
      },
      schema: v3PhoneNumberSchema,
    });
    return data;
  }

  /** Whether `address` (a number or email) can receive iMessage, optionally from one line. */
  async checkIMessage(address: string, from?: string, options: CallOptions = {}): Promise<V3Capability> {
    const country = this.#ctx.defaultCountry;
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/capability/check_imessage',
      idempotent: true,
      endpointRateLimit: true,
      json: {
        address: v3Handle(address, country, 'address'),
        ...(from === undefined ? {} : { from: v3Handle(from, country, 'line') }),
      },
      schema: v3CapabilitySchema,
    });
    return data;
  }
}
