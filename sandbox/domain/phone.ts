import { parsePhoneNumberFromString } from 'libphonenumber-js';

const E164 = /^\+[1-9]\d{6,14}$/;
const US_TEN_DIGITS = /^[2-9]\d{9}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}

/**
 * Request rule for phone numbers (API-GAPS): E.164, or ten US digits which get +1. Anything
 * formatted is refused; the caller answers 422.
 */
export function strictPhone(input: string): string | null {
  const text = input.trim();
  if (E164.test(text)) return text;
  if (US_TEN_DIGITS.test(text)) return `+1${text}`;
  return null;
}

/** A handle is an E.164 number (by the strict rule) or an email address (iMessage). */
export function strictHandle(input: string): string | null {
  const text = input.trim();
  if (isEmail(text)) return text.toLowerCase();
  return strictPhone(text);
}

/** `contacts/find` and contact writes: formatted national or international input normalized to E.164. */
export function normalizePhone(input: string, defaultCountry: 'US' = 'US'): string | null {
  const strict = strictPhone(input);
  if (strict) return strict;
  const parsed = parsePhoneNumberFromString(input, defaultCountry);
  return parsed?.isPossible() ? parsed.number : null;
}
