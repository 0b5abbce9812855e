import { z } from 'zod';
import type { BridgeErrorShape } from '../../../shared/contract/errors.ts';
import { isBridgeErrorShape } from '../../../shared/contract/errors.ts';
import { labelFromPath } from '../../../shared/contract/input-words.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { redactText } from '../log/logger.ts';
import { SendRefused } from '../outbox/send-rules.ts';
import { AttachmentRejected } from '../outbox/staging.ts';
import { RelayConnectionError } from '../relay/relay-link.ts';
import { storageProblemOf } from '../store/storage-errors.ts';
import { isVaultUnavailable } from '../vault/index.ts';
import { WorkspaceInputError, WorkspaceNotFoundError } from '../workspaces/index.ts';
import { issueField, issueInWords } from './input-in-words.ts';

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

/** A call's input its schema refused (parsed with `inputErrorMap`): the first issue, in words. */
export function refusedInput(error: z.ZodError): UserFacingError {
  const issue = error.issues[0];
  const field = issue ? issueField(issue) : undefined;
  return new UserFacingError('invalid_input', issue?.message ?? 'The input is not valid.', {
    ...(field ? { field } : {}),
  });
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
    // Input the dispatcher refused arrives worded already (`refusedInput`); any other schema's
    // refusal is worded here from the issue alone, naming the field by its path.
    const issue = error.issues[0];
    const field = issue ? issueField(issue) : undefined;
    return {
      code: 'invalid_input',
      message: issue ? issueInWords(issue, labelFromPath(issue.path)) : 'The input is not valid.',
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
  if (error instanceof RelayConnectionError)
    return error.refused
      ? { code: 'unauthorized', message: error.message, retryable: false }
      : { code: 'network', message: error.message, retryable: true };
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
