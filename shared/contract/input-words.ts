/**
 * Refusals of input in the agent's words, the same on both sides: the core words a schema's
 * refusal with them, and the renderer words its own check before sending, so the agent reads one
 * sentence whichever side caught it ("The note is too long: 20,000 characters, the limit is 10,000.").
 * No zod here: the renderer's bundle uses these too.
 */

/**
 * What the agent calls a method's fields, by path (an array index is `*`), as a noun phrase that can
 * start a sentence. A field not named here falls back to `COMMON_FIELD_LABELS`, then to its own name
 * in words ("firstName" → "the first name").
 */
const FIELD_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'notes.add': { text: 'the note', chatId: 'the conversation', contactId: 'the contact' },
  'notes.edit': { text: 'the note' },
  'canned.save': { title: 'the title', body: 'the reply', group: 'the group', stagedIds: 'files' },
  'canned.import': { json: 'the canned-reply file' },
  'messages.send': { text: 'the message' },
  'messages.edit': { text: 'the message' },
  'scheduled.send': { text: 'the message' },
  'scheduled.create': { text: 'the message', at: 'the time to send' },
  'scheduled.update': { text: 'the message', at: 'the time to send' },
  'workbench.quickReply': { text: 'the reply' },
  'chats.start': {
    text: 'the message',
    recipients: 'recipients',
    'recipients.*': 'a recipient',
    displayName: 'the group name',
  },
  'chats.saveDraft': { text: 'the draft' },
  'workbench.updateSettings': {
    agentName: 'your name',
    overdueMinutes: 'the overdue threshold',
    undoSeconds: 'the undo time',
  },
  'workspaces.add': { name: 'the workspace name', baseUrl: 'the base URL' },
  'workspaces.rename': { name: 'the workspace name' },
  'workspaces.join': {
    joinCode: 'the join code',
    relayUrl: "the relay's address",
    name: 'the workspace name',
  },
  'chats.search': { query: 'the search' },
  'contacts.list': { query: 'the search' },
};

/** Fields that mean the same in every method. */
const COMMON_FIELD_LABELS: Readonly<Record<string, string>> = {
  chatId: 'the conversation',
  text: 'the text',
  stagedIds: 'attachments',
  attachmentUrls: 'attachment links',
  'attachmentUrls.*': 'an attachment link',
  token: 'the token',
  baseUrl: 'the base URL',
  limit: 'the page size',
  url: 'the link',
  customPublicUrl: 'the public URL',
};

/** The label of a field of a method's input, by its path (as zod reports it). */
export function fieldLabel(method: string, path: readonly PropertyKey[]): string {
  const key = path.map((segment) => (typeof segment === 'number' ? '*' : String(segment))).join('.');
  const own = Object.hasOwn(FIELD_LABELS, method) ? FIELD_LABELS[method] : undefined;
  if (own && Object.hasOwn(own, key)) return own[key] as string;
  if (Object.hasOwn(COMMON_FIELD_LABELS, key)) return COMMON_FIELD_LABELS[key] as string;
  return labelFromPath(path);
}

/** "firstName" → "the first name"; "recipients.2" → "item 3 of recipients"; nothing → "the request". */
export function labelFromPath(path: readonly PropertyKey[]): string {
  const names = path.filter((segment) => typeof segment === 'string');
  const last = names.at(-1);
  if (last === undefined) return 'the request';
  const words = `${last
    .slice(0, 80)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')}`.toLowerCase();
  const index = path.at(-1);
  return typeof index === 'number' ? `item ${formatCount(index + 1)} of ${words}` : `the ${words}`;
}

/** "20,000": counts as the agent reads them. */
export function formatCount(n: number | bigint): string {
  return n.toLocaleString('en-US');
}

/** A label at the start of a sentence. */
export function sentenceStart(label: string): string {
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** "The note is too long: 20,000 characters, the limit is 10,000." (without the length if unknown) */
export function tooLongText(label: string, max: number, length?: number): string {
  const given = length === undefined ? '' : ` ${formatCount(length)} characters,`;
  return `${sentenceStart(label)} is too long:${given} the limit is ${formatCount(max)}.`;
}

/** "The note is empty." */
export function emptyText(label: string): string {
  return `${sentenceStart(label)} is empty.`;
}
