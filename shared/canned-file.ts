/**
 * The schemas of canned replies and of a canned-reply set file (export / import), validated in the
 * core; apart from workbench.ts so the renderer's boot bundle does not carry zod.
 */
import { z } from 'zod';
import { MAX_CANNED_BODY_CHARS, MAX_CANNED_GROUP_CHARS, MAX_CANNED_TITLE_CHARS } from './contract/limits.ts';
import { CANNED_FILE_FORMAT, MAX_CANNED_ATTACHMENT_BYTES, MAX_CANNED_ATTACHMENTS } from './workbench.ts';

export const cannedTitle = z.string().trim().min(1).max(MAX_CANNED_TITLE_CHARS);
export const cannedBody = z.string().max(MAX_CANNED_BODY_CHARS);
export const cannedGroup = z.string().trim().max(MAX_CANNED_GROUP_CHARS);

const base64 = z
  .string()
  .max(Math.ceil((MAX_CANNED_ATTACHMENT_BYTES * 4) / 3) + 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'A file’s data must be base64');

export const cannedFileSchema = z
  .object({
    format: z.literal(CANNED_FILE_FORMAT),
    version: z.literal(1),
    replies: z
      .array(
        z
          .object({
            title: cannedTitle,
            body: cannedBody,
            group: cannedGroup.default(''),
            attachments: z
              .array(
                z
                  .object({
                    filename: z.string().trim().min(1).max(200),
                    mimeType: z.string().min(1).max(100),
                    data: base64,
                  })
                  .strict(),
              )
              .max(MAX_CANNED_ATTACHMENTS)
              .default([]),
          })
          .strict()
          .refine((reply) => reply.body.trim() !== '' || reply.attachments.length > 0, {
            message: 'A reply needs text or an attachment',
            path: ['body'],
          }),
      )
      .max(1000),
  })
  .strict();

export type CannedFile = z.output<typeof cannedFileSchema>;
