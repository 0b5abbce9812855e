/**
 * A refused call reaches the agent in words: what is wrong with which field, and the limit, the way
 * the real dispatcher words a schema's refusal (never zod's own "Too big: expected string to have
 * <=10000 characters"), and the same sentence the renderer shows when it refuses first.
 */
import { describe, expect, it } from 'vitest';
import { createDispatcher, type Handlers } from '../../../../electron/core/app/dispatch.ts';
import { toBridgeError } from '../../../../electron/core/app/errors.ts';
import type { HandlerContext } from '../../../../electron/core/app/handler-context.ts';
import { issueInWords } from '../../../../electron/core/app/input-in-words.ts';
import { createWorkbenchHandlers } from '../../../../electron/core/app/workbench-handlers.ts';
import { fieldLabel, tooLongText } from '../../../../shared/contract/input-words.ts';
import { MAX_NOTE_CHARS } from '../../../../shared/contract/limits.ts';
import { cannedFileSchema } from '../../../../shared/canned-file.ts';
import { ALL_MALFORMED } from '../../../integration/bridge/malformed.ts';

const ran: string[] = [];
/** Handlers that only record that they ran: a refused call must never reach one. */
const handlers = new Proxy({} as Handlers, {
  get: (_target, method) => () => {
    ran.push(String(method));
    return null;
  },
});
const dispatch = createDispatcher(handlers);

async function refusal(method: string, input: unknown) {
  const result = await dispatch(method, input);
  if (result.ok) throw new Error(`${method} was not refused`);
  return result.error;
}

/** zod's own wording, which must never reach the agent. */
const ZOD_WORDING = /Too (big|small): expected|Invalid input|expected string|received undefined|>=|<=/;

describe('a refused call, in words', () => {
  it('a 20,000-character note: too long, with its length and the limit; nothing runs', async () => {
    expect(await refusal('notes.add', { chatId: 1, text: 'x'.repeat(20_000) })).toEqual({
      code: 'invalid_input',
      message: 'The note is too long: 20,000 characters, the limit is 10,000.',
      retryable: false,
      field: 'text',
    });
    expect(ran).toEqual([]);
  });

  it('says it the way the renderer says it when it refuses first', async () => {
    const text = 'x'.repeat(MAX_NOTE_CHARS + 1);
    const { message } = await refusal('notes.edit', { id: 1, text });
    expect(message).toBe(tooLongText(fieldLabel('notes.edit', ['text']), MAX_NOTE_CHARS, text.length));
  });

  it('an empty import file, a blank note: empty', async () => {
    expect((await refusal('canned.import', { json: '' })).message).toBe('The canned-reply file is empty.');
    expect((await refusal('notes.add', { chatId: 1, text: '   ' })).message).toBe('The note is empty.');
  });

  it('a canned reply’s title and text over their limits', async () => {
    const title = await refusal('canned.save', { title: 't'.repeat(121), body: 'hi' });
    expect(title).toMatchObject({
      message: 'The title is too long: 121 characters, the limit is 120.',
      field: 'title',
    });
    const body = await refusal('canned.save', { title: 'Hi', body: 'b'.repeat(5001) });
    expect(body.message).toBe('The reply is too long: 5,001 characters, the limit is 5,000.');
  });

  it('lists, numbers, choices, formats and unknown fields', async () => {
    const recipients = Array.from({ length: 31 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);
    expect((await refusal('chats.start', { lineId: 1, recipients, text: 'hi' })).message).toBe(
      'Too many recipients: 31, the limit is 30.',
    );
    expect((await refusal('workbench.updateSettings', { overdueMinutes: 5000 })).message).toBe(
      'The overdue threshold is too large: 5,000, the limit is 1,440.',
    );
    expect((await refusal('settings.update', { theme: 'pink' })).message).toBe(
      'The theme must be one of: light, dark, system.',
    );
    expect((await refusal('attachments.unstage', { ids: ['nope'] })).message).toBe(
      'Item 1 of ids must be an id Parley made.',
    );
    expect(await refusal('chats.list', { colour: 'red' })).toMatchObject({
      message: 'Parley does not know the field “colour” here.',
      field: 'colour',
    });
    expect((await refusal('chats.details', {})).message).toBe('The conversation is missing.');
  });

  it('keeps a sentence the schema wrote itself', async () => {
    const quiet = await refusal('workbench.updateSettings', { quietHours: { start: '7am', end: '08:00' } });
    expect(quiet).toMatchObject({ message: 'Use a time like 07:30', field: 'quietHours.start' });
  });

  it.each(ALL_MALFORMED.map((c) => [c.method, c.what, c] as const))(
    '%s, %s: words, not zod’s',
    async (_method, _what, malformed) => {
      const error = await refusal(malformed.method, malformed.input);
      expect(error.field).toBe(malformed.field);
      expect(error.message).not.toMatch(ZOD_WORDING);
      expect(error.message).toMatch(/^[A-Z“].*[a-z0-9”.)]$/);
    },
  );
});

describe('any other schema’s refusal', () => {
  it('is worded from the issue alone, naming the field by its path', () => {
    const parsed = cannedFileSchema.safeParse({
      format: 'parley.canned-replies',
      version: 1,
      replies: [{ title: 'x'.repeat(200), body: 'hi' }],
    });
    if (parsed.success) throw new Error('expected a refusal');
    expect(toBridgeError(parsed.error)).toEqual({
      code: 'invalid_input',
      message: 'The title is too long: the limit is 120.',
      retryable: false,
      field: 'replies.0.title',
    });
  });

  it('words an issue zod has not finished (with its input) or has', () => {
    const raw = {
      code: 'too_big' as const,
      origin: 'string',
      maximum: 10,
      input: 'x'.repeat(12),
      path: [] as PropertyKey[],
    };
    expect(issueInWords(raw, 'the group')).toBe('The group is too long: 12 characters, the limit is 10.');
    expect(issueInWords({ ...raw, input: undefined, message: '' }, 'the group')).toBe(
      'The group is too long: the limit is 10.',
    );
  });
});

describe('a canned-reply file that cannot be imported', () => {
  /** The import handler over a workspace it must never reach: a refused file writes nothing. */
  const handlers = createWorkbenchHandlers({
    get session(): never {
      throw new Error('the store was reached');
    },
  } as unknown as HandlerContext);
  const set = (replies: unknown[], extra: object = {}) =>
    JSON.stringify({ format: 'parley.canned-replies', version: 1, replies, ...extra });

  async function importRefusal(json: string): Promise<string> {
    try {
      await handlers['canned.import']({ json, replace: false });
    } catch (error) {
      return toBridgeError(error).message;
    }
    throw new Error('imported');
  }

  it.each([
    [
      'a reply without its text',
      set([{ title: 'hi' }]),
      'The file is not a Parley canned-reply set: The text of reply 1 is missing.',
    ],
    [
      'a title too long, by its reply',
      set([
        { title: 'a', body: 'b' },
        { title: 't'.repeat(200), body: 'b' },
      ]),
      'The file is not a Parley canned-reply set: The title of reply 2 is too long: 200 characters, the limit is 120.',
    ],
    [
      'too many replies',
      set(Array.from({ length: 1001 }, () => ({ title: 'a', body: 'b' }))),
      'The file is not a Parley canned-reply set: Too many replies: 1,001, the limit is 1,000.',
    ],
    [
      'a prototype key deep in a reply',
      set([{ title: 'a', body: 'b', constructor: { prototype: { polluted: true } } }]),
      'The file is not a Parley canned-reply set: Parley does not know the field “constructor” in reply 1.',
    ],
    [
      '10,000-deep nesting',
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      'The file is not a Parley canned-reply set: The file’s contents must be a set of fields.',
    ],
    [
      'a path to a local file',
      set([
        {
          title: 'a',
          body: 'b',
          attachments: [{ filename: '/etc/passwd', mimeType: 'text/plain', data: 'aGk=' }],
        },
      ]),
      '“/etc/passwd” (text/plain), file 1 of reply 1, is not a kind of file Parley can send.',
    ],
    [
      'another version',
      set([], { version: 2 }),
      'The file is not a Parley canned-reply set: The version must be “1”.',
    ],
  ])('%s', async (_what, json, words) => {
    expect(await importRefusal(json)).toBe(words);
    expect({}).not.toHaveProperty('polluted');
  });
});
