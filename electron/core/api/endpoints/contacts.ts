import { contactFindResponse, contactListResponse, contactResponse } from '../envelopes.ts';
import { PartnerApiError } from '../errors.ts';
import type { CallOptions } from '../http.ts';
import {
  listPages,
  type Page,
  type PageRequest,
  pageFromPagination,
  pageQuery,
  type PagesOptions,
} from '../pagination.ts';
import { toE164 } from '../phone.ts';
import type { ApiContact } from '../schemas.ts';
import { type EndpointContext, idSegment } from './context.ts';

/** Fields of a contact to write; on update only the given ones change. */
export interface ContactInput {
  firstName?: string;
  lastName?: string;
  email?: string;
  /** Normalized to E.164 before sending. */
  phoneNumber?: string;
  company?: string;
  title?: string;
  location?: string;
  /** Email of the organization's user who owns the contact (default: the first admin). */
  ownerEmail?: string;
}

const FIELD_NAMES = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phoneNumber: 'phone_number',
  company: 'company',
  title: 'title',
  location: 'location',
  ownerEmail: 'user_email',
} as const satisfies Record<keyof ContactInput, string>;

/** The organization's contacts: `/contacts` (V2 only; V3 has no contacts API). */
export class ContactsApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  async list(request: PageRequest = {}, options: CallOptions = {}): Promise<Page<ApiContact>> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/contacts',
      query: pageQuery(request),
      schema: contactListResponse,
    });
    return pageFromPagination(data.contacts, data.pagination);
  }

  pages(request: PagesOptions = {}, options: CallOptions = {}): AsyncGenerator<Page<ApiContact>> {
    return listPages((page, o) => this.list(page, o), request, options);
  }

  /** The first contact matching the email OR the phone number; null when none does. */
  async find(
    query: { email?: string; phoneNumber?: string },
    options: CallOptions = {},
  ): Promise<ApiContact | null> {
    const email = query.email?.trim() || undefined;
    const phone = query.phoneNumber?.trim() || undefined;
    if (!email && !phone) {
      throw new PartnerApiError({
        kind: 'validation',
        code: 'MISSING_SEARCH_PARAMS',
        retryable: false,
        message: 'Give an email address or a phone number to search for',
      });
    }
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/contacts/find',
      query: { email, phone_number: phone && toE164(phone, this.#ctx.defaultCountry) },
      schema: contactFindResponse,
    });
    return data;
  }

  async get(contactId: number, options: CallOptions = {}): Promise<ApiContact> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/contacts/${idSegment(contactId, 'Contact')}`,
      schema: contactResponse,
    });
    return data;
  }

  async create(input: ContactInput, options: CallOptions = {}): Promise<ApiContact> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/contacts',
      json: { contact: this.#body(input) },
      schema: contactResponse,
    });
    return data;
  }

  /** Partial update (PATCH): only the given fields change. */
  async update(contactId: number, input: ContactInput, options: CallOptions = {}): Promise<ApiContact> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PATCH',
      path: `/contacts/${idSegment(contactId, 'Contact')}`,
      json: { contact: this.#body(input) },
      schema: contactResponse,
    });
    return data;
  }

  async delete(contactId: number, options: CallOptions = {}): Promise<void> {
    await this.#ctx.http.request({
      ...options,
      method: 'DELETE',
      path: `/contacts/${idSegment(contactId, 'Contact')}`,
    });
  }

  #body(input: ContactInput): Record<string, string> {
    const body: Record<string, string> = {};
    for (const [key, name] of Object.entries(FIELD_NAMES) as [keyof ContactInput, string][]) {
      const value = input[key];
      if (value === undefined) continue;
      body[name] =
        key === 'phoneNumber' && value.trim() !== '' ? toE164(value, this.#ctx.defaultCountry) : value;
    }
    return body;
  }
}
