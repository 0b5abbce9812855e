/** Every kind of job the outbox can run, by the name stored with it. */
import type { OutboxRow } from '../../store/outbox-repo.ts';
import { createChat } from './create-chat.ts';
import { deleteMessage } from './delete.ts';
import { edit } from './edit.ts';
import type { JobType } from './job-type.ts';
import { react } from './react.ts';
import { sendMessage } from './send-message.ts';

const JOB_TYPES = {
  send_message: sendMessage,
  create_chat: createChat,
  react,
  edit,
  delete: deleteMessage,
} as const;

export type JobKind = keyof typeof JOB_TYPES;

/** A stored job with its payload read back by its kind's schema. */
export interface ParsedJob {
  type: JobType<unknown>;
  payload: unknown;
}

/** Reads a stored job back; undefined when its kind is unknown or its payload does not fit. */
export function parseJob(job: OutboxRow): ParsedJob | undefined {
  if (!Object.hasOwn(JOB_TYPES, job.kind)) return undefined;
  const type = JOB_TYPES[job.kind as JobKind] as JobType<unknown>;
  const parsed = type.schema.safeParse(job.payload);
  return parsed.success ? { type, payload: parsed.data } : undefined;
}
