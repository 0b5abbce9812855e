import { z } from 'zod';
import type { BridgeErrorShape } from '../../../shared/contract/errors.ts';
import { isBridgeErrorShape } from '../../../shared/contract/errors.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { redactText } from '../log/logger.ts';
import { SendRefused } from '../outbox/send-rules.ts';
import { AttachmentRejected } from '../outbox/staging.ts';
import { storageProblemOf } from '../store/storage-errors.ts';
import { isVaultUnavailable } from '../vault/index.ts';
import { WorkspaceInputError, WorkspaceNotFoundError } from '../workspaces/index.ts';

/** An error raised by the core on purpose, already in the bridge's shape. */
export class UserFacingError extends Error {
  readonly shape: BridgeErrorShape;
  constructor(code: string, message: string, options: { retryable?: boolean; field?: string } = {}) {
    super(message);
    this.shape = {
      code,
      message,
      retryable: options.retryable ?? false,
      ...(options.field ? { field: options.field } : {}),
    };
  }
}

/**
 * Whatever went wrong, in the one shape that crosses the bridge: a precise message, never a stack
 * trace, a token or a secret (messages pass through the log redactor too).
 */
export function toBridgeError(error: unknown): BridgeErrorShape {
  const shape = classify(error);
  return { ...shape, message: redactText(shape.message) };
}

function classify(error: unknown): BridgeErrorShape {
  // The door's refusals of a send (outbox/send-rules.ts) are already in this shape.
  if (error instanceof UserFacingError || error instanceof SendRefused) return error.shape;
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const path = issue?.path.map(String) ?? [];
    // zod reports an unknown key on the object that holds it; name the key itself as the field.
    if (issue?.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
    const field = path.join('.') || undefined;
    return {
      code: 'invalid_input',
      message: issue ? `${field ? `${field}: ` : ''}${issue.message}` : 'Invalid input',
      retryable: false,
      ...(field ? { field } : {}),
    };
  }
  if (isPartnerApiError(error)) {
    return {
      code: error.kind === 'validation' ? 'invalid_input' : error.kind,
      message: error.message,
      retryable: error.retryable,
    };
  }
  if (error instanceof WorkspaceInputError) {
    return {
      code: 'invalid_input',
      message: error.message,
      retryable: false,
      ...(error.field ? { field: error.field } : {}),
    };
  }
  if (error instanceof WorkspaceNotFoundError)
    return { code: 'not_found', message: error.message, retryable: false };
  if (error instanceof AttachmentRejected)
    return { code: 'attachment_rejected', message: error.message, retryable: false };
  // Disk trouble (full, read-only, no permission), from the store or from files written directly.
  const storage = storageProblemOf(error);
  if (storage) return { code: storage.code, message: storage.message, retryable: true };
  if (isVaultUnavailable(error))
    return { code: 'keychain_unavailable', message: (error as Error).message, retryable: true };
  if (isBridgeErrorShape(error)) return error;
  return {
    code: 'internal',
    message: 'Something went wrong inside Parley. Please try again.',
    retryable: true,
  };
}
