/**
 * Phone numbers and handles as the service wants them in requests: E.164 (API-GAPS: formatted input
 * such as "(555) 123-4567" is refused with 422). We normalize before sending and refuse locally what
 * cannot be a phone number, with a message that says what to type instead.
 */
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { PartnerApiError } from './errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** E.164 for `input`, read as a number of `defaultCountry` unless it starts with + (or 00). */
export function toE164(input: string, defaultCountry: CountryCode = 'US', field = 'phone number'): string {
  const text = input.trim().replace(/^00/, '+');
  const parsed = text === '' ? undefined : parsePhoneNumberFromString(text, defaultCountry);
  // isPossible, not isValid: the length is right for the country. isValid would also refuse test
  // ranges (555 numbers) and numbers newer than the bundled metadata.
  if (!parsed || !parsed.isPossible()) {
    throw new PartnerApiError({
      kind: 'validation',
      code: 'invalid_phone_number',
      retryable: false,
      message: `${capitalize(field)} "${input}" is not a phone number that can be texted; use the international format, e.g. +14155550123`,
    });
  }
  return parsed.number;
}

/** A chat participant: an email address (iMessage) kept as-is in lower case, else a number in E.164. */
export function toHandle(input: string, defaultCountry: CountryCode = 'US', field = 'participant'): string {
  const text = input.trim();
  return EMAIL.test(text) ? text.toLowerCase() : toE164(text, defaultCountry, field);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
