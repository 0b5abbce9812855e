/** Request-parameter helpers that answer in the spec's error codes. */
import { strictHandle, strictPhone } from '../domain/phone.ts';
import { parseTime } from '../domain/time.ts';
import { ApiError, invalidParams, missingParam } from './errors.ts';

export const IDEMPOTENCY_KEY = /^[a-zA-Z0-9_-]+$/;

export type Body = Record<string, unknown>;

export function asObject(value: unknown, name: string): Body {
  if (value === undefined || value === null) throw missingParam(name);
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`${name} must be an object`);
  return value as Body;
}

export function optionalString(body: Body, key: string, name = key): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParams(`${name} must be a string`);
  return value;
}

export function requiredString(body: Body, key: string, name = key, code = 'missing_param'): string {
  const value = optionalString(body, key, name);
  if (value === undefined) throw missingParam(name, code);
  return value;
}

export function stringArray(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v): v is string => typeof v === 'string')) throw invalidParams(`${name} must be strings`);
  return list;
}

export function phoneParam(value: string, name: string): string {
  const phone = strictPhone(value);
  if (!phone) throw invalidParams(`${name} must be an E.164 phone number (e.g. +14155550123)`);
  return phone;
}

export function handleParam(value: string, name: string): string {
  const handle = strictHandle(value);
  if (!handle) throw invalidParams(`${name} must be an E.164 phone number or an email address`);
  return handle;
}

export function idempotencyKeyParam(value: string | undefined, name: string): string | null {
  if (value === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(value)) throw invalidParams(`${name} must match ^[a-zA-Z0-9_-]+$`);
  return value;
}

/** Path ids: a positive integer, else 404 (there is no such resource). */
export function pathId(value: string | undefined, notFound: () => ApiError): number {
  if (!value || !/^\d{1,15}$/.test(value)) throw notFound();
  return Number(value);
}

export interface Paging {
  page: number;
  perPage: number;
}

function positiveInt(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1) {
    throw invalidParams(`${name} must be a positive integer`);
  }
  return Number(value);
}

/** page ≥ 1, per_page ≥ 1 clamped to 100 (API-GAPS). */
export function pagingParams(query: Body, onError?: (e: ApiError) => ApiError): Paging {
  try {
    return {
      page: positiveInt(query.page, 'page', 1),
      perPage: Math.min(100, positiveInt(query.per_page, 'per_page', 25)),
    };
  } catch (error) {
    if (error instanceof ApiError && onError) throw onError(error);
    throw error;
  }
}

export function pageOf<T>(
  items: readonly T[],
  paging: Paging,
): { slice: T[]; totalPages: number; totalCount: number } {
  const start = (paging.page - 1) * paging.perPage;
  return {
    slice: items.slice(start, start + paging.perPage),
    totalPages: Math.ceil(items.length / paging.perPage),
    totalCount: items.length,
  };
}

export function timeParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = typeof value === 'string' ? parseTime(value) : null;
  if (ms === null) throw invalidParams(`${name} must be an ISO 8601 date-time`);
  return ms;
}
