import { readFile } from 'node:fs/promises';
import mime from 'mime-types';
import { labelFromPath } from '../../../shared/contract/input-words.ts';
import { stagedView } from '../../../shared/contract/staged.ts';
import type { CannedReply, StagedAttachment } from '../../../shared/contract/views.ts';
import { cannedFileSchema, type CannedFile } from '../../../shared/canned-file.ts';
import {
  CANNED_FILE_FORMAT,
  MAX_CANNED_ATTACHMENT_BYTES,
  MAX_CANNED_ATTACHMENTS,
} from '../../../shared/workbench.ts';
import { ALLOWED_ATTACHMENT_TYPES } from '../api/outgoing.ts';
import type { CannedFileInput } from '../store/canned-replies-repo.ts';
import { createScheduleHandlers, type ScheduleMethod } from './schedule-handlers.ts';
import type { Handlers } from './dispatch.ts';
import type { HandlerContext } from './handler-context.ts';
import { UserFacingError } from './errors.ts';
import { issueInWords } from './input-in-words.ts';
import { addTeamNote, chatNotesWithTeam, joinedTeam } from './team-handlers.ts';

type WorkbenchMethod =
  | 'canned.list'
  | 'canned.save'
  | 'canned.delete'
  | 'canned.stageAttachments'
  | 'canned.export'
  | 'canned.import'
  | 'notes.list'
  | 'notes.add'
  | 'notes.edit'
  | 'notes.delete'
  | 'workbench.chatContext'
  | 'waiting.list'
  | 'workbench.settings'
  | 'workbench.updateSettings'
  | ScheduleMethod;

/** The workbench's bridge methods: canned replies, private notes, waiting on you. Inputs arrive validated. */
export function createWorkbenchHandlers(core: HandlerContext): Pick<Handlers, WorkbenchMethod> {
  return { ...createCoreWorkbenchHandlers(core), ...createScheduleHandlers(core) };
}

function createCoreWorkbenchHandlers(
  core: HandlerContext,
): Pick<Handlers, Exclude<WorkbenchMethod, ScheduleMethod>> {
  const s = () => core.session;
  const store = () => core.session.store;

  const readStaged = async (ids: readonly string[]): Promise<CannedFileInput[]> => {
    const files: CannedFileInput[] = [];
    for (const [i, id] of ids.entries()) {
      const file = s().staging.get(id);
      if (!file)
        throw new UserFacingError('not_found', 'That attachment is no longer staged', {
          field: `stagedIds.${i}`,
        });
      if (file.size > MAX_CANNED_ATTACHMENT_BYTES)
        throw new UserFacingError(
          'invalid_input',
          `"${file.filename}" is larger than 1 MB; canned replies keep small files only`,
          { field: `stagedIds.${i}` },
        );
      files.push({ filename: file.filename, mimeType: file.mimeType, data: await readFile(file.path) });
    }
    return files;
  };

  return {
    'canned.list': () => store().canned.list(),
    'canned.save': async ({ id, title, body, group, stagedIds, keepAttachmentIds }) => {
      const existing = id === undefined ? undefined : store().canned.get(id);
      if (id !== undefined && !existing) throw new UserFacingError('not_found', 'No such canned reply');
      const kept = (existing?.attachments ?? []).filter((a) => keepAttachmentIds.includes(a.id));
      if (kept.length + stagedIds.length > MAX_CANNED_ATTACHMENTS)
        throw new UserFacingError(
          'invalid_input',
          `A canned reply holds at most ${MAX_CANNED_ATTACHMENTS} files`,
          {
            field: 'stagedIds',
          },
        );
      if (body.trim() === '' && kept.length + stagedIds.length === 0)
        throw new UserFacingError('invalid_input', 'Write the reply or attach a file', { field: 'body' });
      const files = await readStaged(stagedIds);
      const savedId = store().transaction(() => {
        const fields = { title, body, group };
        if (id === undefined) return store().canned.create(fields, files);
        store().canned.update(
          id,
          fields,
          kept.map((a) => a.id),
          files,
        );
        return id;
      });
      // The files now live with the reply; the staged copies are not needed.
      await s().staging.release(stagedIds);
      return store().canned.get(savedId) as CannedReply;
    },
    'canned.delete': ({ id }) => {
      if (!store().canned.remove(id)) throw new UserFacingError('not_found', 'No such canned reply');
    },
    'canned.stageAttachments': async ({ id }) => {
      if (!store().canned.get(id)) throw new UserFacingError('not_found', 'No such canned reply');
      const staged: StagedAttachment[] = [];
      for (const file of store().canned.filesOf(id))
        staged.push(stagedView(await s().staging.stageBytes(file.data, file.filename)));
      return staged;
    },
    'canned.export': () => {
      const file: CannedFile = {
        format: CANNED_FILE_FORMAT,
        version: 1,
        replies: store()
          .canned.list()
          .map((reply) => ({
            title: reply.title,
            body: reply.body,
            group: reply.group,
            attachments: store()
              .canned.filesOf(reply.id)
              .map((f) => ({
                filename: f.filename,
                mimeType: f.mimeType,
                data: Buffer.from(f.data).toString('base64'),
              })),
          })),
      };
      const day = new Date().toISOString().slice(0, 10);
      return { filename: `parley-canned-replies-${day}.json`, json: `${JSON.stringify(file, null, 2)}\n` };
    },
    'canned.import': ({ json, replace }) => {
      const parsed = parseCannedFile(json);
      const imported = store().transaction(() => {
        if (replace) store().canned.removeAll();
        for (const reply of parsed.replies)
          store().canned.create(
            { title: reply.title, body: reply.body, group: reply.group },
            reply.attachments.map((a) => ({
              filename: a.filename,
              mimeType: a.mimeType,
              data: Buffer.from(a.data, 'base64'),
            })),
          );
        return parsed.replies.length;
      });
      return { imported, replies: store().canned.list() };
    },

    'notes.list': ({ chatId, contactId }) => {
      if (chatId === undefined) return store().notes.forContact(contactId as number);
      // On a team, a chat's notes are the team's (team-handlers.ts): every agent sees them.
      const team = joinedTeam(core);
      const own = store().notes.forChat(chatId);
      return team ? chatNotesWithTeam(team, chatId, own) : own;
    },
    'notes.add': async ({ chatId, contactId, text }) => {
      if (chatId !== undefined) {
        if (!store().chats.exists(chatId))
          throw new UserFacingError('not_found', 'No such chat', { field: 'chatId' });
        const team = joinedTeam(core);
        if (team) return addTeamNote(team, chatId, text);
        return store().notes.add({ chatId }, text);
      }
      if (!store().contacts.get(contactId as number))
        throw new UserFacingError('not_found', 'No such contact', { field: 'contactId' });
      return store().notes.add({ contactId: contactId as number }, text);
    },
    'notes.edit': ({ id, text }) => {
      if (!store().notes.get(id)) throw new UserFacingError('not_found', 'No such note');
      return store().notes.edit(id, text) ?? notFound();
    },
    'notes.delete': ({ id }) => {
      if (!store().notes.remove(id)) throw new UserFacingError('not_found', 'No such note');
    },

    'workbench.chatContext': ({ chatId }) => {
      const chat = store().chats.get(chatId);
      if (!chat) throw new UserFacingError('not_found', 'No such chat');
      const customers = chat.handles.filter((h) => !h.isMe);
      const contactId =
        customers.length === 1 ? store().workbench.contactIdFor(customers[0]?.identifier as string) : null;
      return {
        contact: contactId === null ? null : (store().contacts.get(contactId) ?? null),
        line: store().lines.get(chat.lineId) ?? null,
        notes: store().notes.forChat(chatId),
        contactNotes: contactId === null ? [] : store().notes.forContact(contactId),
      };
    },
    'waiting.list': () => {
      const entries = store().workbench.waiting();
      const chats = new Map(
        store()
          .chats.byIds(entries.map((e) => e.chatId))
          .map((c) => [c.id, c]),
      );
      return entries.flatMap((entry) => {
        const chat = chats.get(entry.chatId);
        return chat ? [{ chat, since: entry.since }] : [];
      });
    },
    'workbench.settings': () => store().workbench.settings(),
    'workbench.updateSettings': (patch) => store().workbench.updateSettings(patch),
  };
}

const REPLY_PARTS: Readonly<Record<string, string>> = {
  title: 'the title',
  body: 'the text',
  group: 'the group',
  attachments: 'the files',
};
const FILE_PARTS: Readonly<Record<string, string>> = {
  filename: 'the name',
  mimeType: 'the type',
  data: 'the data',
};

/** Where in a canned-reply file something is wrong, as the agent would say it: "the title of reply 4". */
function cannedFileLabel(path: readonly PropertyKey[]): string {
  const [top, reply, part, file, fileField] = path;
  if (top === undefined) return 'the file’s contents';
  if (top !== 'replies' || typeof reply !== 'number') return labelFromPath(path);
  const which = `reply ${reply + 1}`;
  if (typeof part !== 'string') return which;
  if (part === 'attachments' && typeof file === 'number') {
    const attachment = `file ${file + 1} of ${which}`;
    const name =
      typeof fileField === 'string' && Object.hasOwn(FILE_PARTS, fileField)
        ? FILE_PARTS[fileField]
        : undefined;
    return name ? `${name} of ${attachment}` : attachment;
  }
  return `${Object.hasOwn(REPLY_PARTS, part) ? REPLY_PARTS[part] : labelFromPath([part])} of ${which}`;
}

/** A canned-reply set file, checked whole before anything is written. */
function parseCannedFile(json: string): CannedFile {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new UserFacingError('invalid_input', 'The file is not JSON; choose a Parley canned-reply file', {
      field: 'json',
    });
  }
  const result = cannedFileSchema.safeParse(raw, {
    error: (issue) => issueInWords(issue, cannedFileLabel(issue.path ?? [])),
  });
  if (!result.success) {
    throw new UserFacingError(
      'invalid_input',
      `The file is not a Parley canned-reply set: ${result.error.issues[0]?.message ?? 'unreadable'}`,
      { field: 'json' },
    );
  }
  result.data.replies.forEach((reply, r) =>
    reply.attachments.forEach((a, i) => {
      const type = mime.lookup(a.filename) || 'application/octet-stream';
      const bytes = Buffer.from(a.data, 'base64').byteLength;
      const where = `file ${i + 1} of reply ${r + 1}`;
      if (!ALLOWED_ATTACHMENT_TYPES.has(type) || type !== a.mimeType)
        throw new UserFacingError(
          'invalid_input',
          `“${a.filename}” (${a.mimeType}), ${where}, is not a kind of file Parley can send.`,
          { field: 'json' },
        );
      if (bytes === 0 || bytes > MAX_CANNED_ATTACHMENT_BYTES)
        throw new UserFacingError(
          'invalid_input',
          `“${a.filename}”, ${where}, must be between 1 byte and 1 MB.`,
          { field: 'json' },
        );
    }),
  );
  return result.data;
}

function notFound(): never {
  throw new UserFacingError('not_found', 'No such note');
}
