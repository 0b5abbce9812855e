/**
 * What a kind of outbox job is: the schema its stored payload is read back with (a stored job is
 * input like any other), and what running it does. One file per kind beside this one, as Signal's
 * `ts/jobs/helpers/` has; the engine (../outbox.ts) only schedules, retries and records.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { stagedAttachmentId, stagedResource } from '../../../../shared/contract/staged.ts';
import type { CallOptions } from '../../api/http.ts';
import type { LocalStore } from '../../store/local-store.ts';
import type { OutboxRow } from '../../store/outbox-repo.ts';
import type { MessagingService } from '../../sync/messaging.ts';
import type { Reconciler } from '../../sync/reconciler.ts';
import { AttachmentRejected, type Staging } from '../staging.ts';

export interface OutboxHooks {
  /** A send was accepted: the sync engine watches its delivery status. */
  accepted?(messageKey: string): void;
}

/** What a job may use: the workspace's store, service, reconciler and staged files. */
export interface JobContext {
  readonly store: LocalStore;
  readonly api: MessagingService;
  readonly reconciler: Reconciler;
  readonly staging: Staging;
  readonly hooks: OutboxHooks;
}

export interface JobType<Payload> {
  readonly schema: z.ZodType<Payload>;
  /** Does the job on the service and records the answer; throws to let the engine retry or fail it. */
  run(context: JobContext, job: OutboxRow, payload: Payload, options: CallOptions): Promise<void>;
  /** The job failed for good: take back what was shown at once (a reaction), in the engine's transaction. */
  failed?(context: JobContext, payload: Payload): void;
}

/** Key shared by the job, the optimistic message and the service's idempotency check. */
export function newKey(): string {
  return `p${randomUUID().replaceAll('-', '')}`;
}

/** The staged files of a send, as the client uploads them. */
export function stagedFiles(
  staging: Staging,
  stagedIds: readonly string[],
): Array<{ path: string; filename: string; mimeType: string }> {
  return stagedIds.map((id) => {
    const file = staging.get(id);
    if (!file) throw new AttachmentRejected('An attachment of this message is no longer available');
    return { path: file.path, filename: file.filename, mimeType: file.mimeType };
  });
}

/** The staged files of a send, as its optimistic message shows them. */
export function optimisticAttachments(staging: Staging, stagedIds: readonly string[]) {
  return stagedIds.map((id) => {
    const file = staging.get(id);
    if (!file) throw new AttachmentRejected('An attachment was not staged');
    return {
      id: stagedAttachmentId(id),
      url: stagedResource(id),
      filename: file.filename,
      mimeType: file.mimeType,
      size: file.size,
    };
  });
}
