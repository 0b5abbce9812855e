/**
 * Phone numbers as the service wants them (E.164), shared by the main process (before sending) and
 * the renderer (normalizing as the agent types). Email addresses are valid iMessage handles.
 */
import { AsYouType, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailHandle(input: string): boolean {
  return EMAIL.test(input.trim());
}

/** E.164 for a possible number (national formats read in `country`), else null. */
export function toE164(input: string, country: CountryCode = 'US'): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), country);
  return parsed?.isPossible() ? parsed.number : null;
}

/** A chat handle: an E.164 number or a lower-cased email address; null when it is neither. */
export function toHandle(input: string, country: CountryCode = 'US'): string | null {
  const text = input.trim();
  if (isEmailHandle(text)) return text.toLowerCase();
  return toE164(text, country);
}

/** Pretty national/international formatting for display; falls back to the input. */
export function formatHandle(handle: string, country: CountryCode = 'US'): string {
  if (isEmailHandle(handle)) return handle;
  const parsed = parsePhoneNumberFromString(handle, country);
  if (!parsed) return handle;
  return parsed.country === country ? parsed.formatNational() : parsed.formatInternational();
}

/** Formats a number while it is being typed. */
export function formatAsYouType(input: string, country: CountryCode = 'US'): string {
  if (input.includes('@')) return input;
  return new AsYouType(country).input(input);
}
