/** Turning bridge failures into sentences and form fields. */
import {
  isBridgeErrorShape,
  type BridgeErrorShape,
  type StorageErrorCode,
} from '../../shared/contract/errors.ts';

export function toErrorShape(error: unknown): BridgeErrorShape {
  if (isBridgeErrorShape(error)) return error;
  if (error instanceof Error) return { code: 'internal', message: error.message, retryable: true };
  return { code: 'internal', message: String(error), retryable: true };
}

export function errorText(error: unknown): string {
  return toErrorShape(error).message;
}

const STORAGE_TITLES: Readonly<Record<StorageErrorCode, string>> = {
  disk_full: 'Disk full.',
  storage_read_only: 'Data folder is read-only.',
  storage_permission: 'No permission to write.',
  storage_io: 'Disk error.',
};

/** The headline of a disk problem (the core's message says what to do about it). */
export function storageTitle(code: StorageErrorCode): string {
  return STORAGE_TITLES[code];
}

/** What to tell the agent when connecting a workspace fails, by the core's failure code. */
export function connectFailureText(error: BridgeErrorShape): string {
  switch (error.code) {
    case 'unauthorized':
      return 'The service refused this token. Check that it is the organization’s current integration token.';
    case 'network':
      return 'Parley could not reach that address. Check the URL and your network connection.';
    case 'tls':
      return 'The secure connection failed (TLS certificate problem). Check the URL or your network’s proxy.';
    case 'not_found':
    case 'invalid_response':
      return 'No Partner Messaging Service answered at that URL. Check the base URL.';
    case 'invalid_input':
      return error.message;
    case 'keychain_unavailable':
      return 'The system keychain is locked or unavailable, so the token cannot be stored safely.';
    default:
      return error.message;
  }
}

/** Maps the connect form's bridge field names to its inputs. */
export function connectFieldOf(error: BridgeErrorShape): 'name' | 'baseUrl' | 'token' | 'tokenHeader' | null {
  if (error.code === 'unauthorized') return 'token';
  if (['network', 'tls', 'not_found', 'invalid_response'].includes(error.code)) return 'baseUrl';
  const field = error.field ?? '';
  if (field === 'name' || field === 'baseUrl' || field === 'token' || field === 'tokenHeader') return field;
  return null;
}

/** Why joining a team's relay failed, in words; the core's own message says which (bad code, refused…). */
export function joinFailureText(error: BridgeErrorShape): string {
  if (error.code === 'keychain_unavailable')
    return 'The system keychain is locked or unavailable, so your credentials cannot be stored safely.';
  return error.message;
}

/** Which input of the join form a failure is about. */
export function joinFieldOf(error: BridgeErrorShape): 'joinCode' | 'relayUrl' | 'name' | null {
  if (error.code === 'unauthorized') return 'joinCode';
  if (error.code === 'network') return 'relayUrl';
  const field = error.field ?? '';
  return field === 'joinCode' || field === 'relayUrl' || field === 'name' ? field : null;
}

export type ContactField =
  'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'company' | 'title' | 'location' | 'ownerEmail';

const SERVICE_FIELDS: Readonly<Record<string, ContactField>> = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  phone_number: 'phoneNumber',
  company: 'company',
  title: 'title',
  location: 'location',
  user_email: 'ownerEmail',
  owner_email: 'ownerEmail',
  firstName: 'firstName',
  lastName: 'lastName',
  phoneNumber: 'phoneNumber',
  ownerEmail: 'ownerEmail',
};

/**
 * The contact form field a service validation error is about. The service names the field in its
 * message ("phone_number 555 is not a valid phone number", "user_email … is not a user"); the
 * bridge's own validation names it in `field`.
 */
export function contactFieldOf(error: BridgeErrorShape): ContactField | null {
  if (error.field) {
    const last = error.field.split('.').pop() ?? '';
    if (SERVICE_FIELDS[last]) return SERVICE_FIELDS[last];
  }
  const first = /^\s*([a-z_A-Z]+)/.exec(error.message)?.[1] ?? '';
  return SERVICE_FIELDS[first] ?? null;
}

/** The service's sentence without its leading snake_case field name ("phone_number 555 is …" → "555 is …"). */
export function contactErrorText(error: BridgeErrorShape): string {
  const stripped = error.message.replace(/^\s*[a-z]+_[a-z_]+\s+|^\s*email\s+/, '');
  return stripped.charAt(0).toUpperCase() + stripped.slice(1);
}
