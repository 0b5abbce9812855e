/**
 * Malformed calls for every method of the contract, derived from its input schema: starting from an
 * input the schema accepts, one field at a time gets a value of the wrong type, a required field goes
 * missing, and an unknown field is added. Each must come back `invalid_input` naming that field.
 */
import { z } from 'zod';
import {
  methods,
  METHOD_NAMES,
  type MethodInput,
  type MethodName,
} from '../../../shared/contract/methods.ts';

const UUID = '3f2c1a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c';

/** An input each method's schema accepts. Typed by the contract: a new method needs an entry here. */
export const VALID_INPUTS: { [M in MethodName]: MethodInput<M> } = {
  'workspaces.list': {},
  'workspaces.probe': { baseUrl: 'https://api.example.com', token: 'tok', tokenHeader: 'X-Token' },
  'workspaces.add': {
    name: 'Acme',
    baseUrl: 'https://api.example.com',
    token: 'tok',
    tokenHeader: 'X-Token',
  },
  'workspaces.join': {
    joinCode: 'parley-join-1.e30',
    relayUrl: 'nats://relay.example.com:4222',
    name: 'Team',
  },
  'workspaces.switch': { id: 'ws1' },
  'workspaces.rename': { id: 'ws1', name: 'Acme' },
  'workspaces.updateToken': { id: 'ws1', token: 'tok' },
  'workspaces.setApiVersion': { id: 'ws1', apiVersion: 'v3' },
  'workspaces.remove': { id: 'ws1' },
  'chats.list': { lineId: 1, archived: false, unreadOnly: false, service: 'SMS', limit: 10, offset: 0 },
  'chats.details': { chatId: 1 },
  'chats.open': { chatId: 1, focused: true },
  'chats.setFlags': { chatId: 1, pinned: true, archived: false, markedUnread: false },
  'chats.start': {
    lineId: 1,
    recipients: ['+14155550123'],
    displayName: 'Team',
    text: 'hi',
    stagedIds: [UUID],
    attachmentUrls: ['https://example.com/a.png'],
  },
  'chats.refresh': { chatId: 1 },
  'chats.migrationId': { chatId: 1 },
  'chats.shareContact': { chatId: 1 },
  'chats.typing': { chatId: 1, typing: true },
  'chats.search': { query: 'order', limit: 10 },
  'chats.getDraft': { chatId: 1 },
  'chats.saveDraft': { chatId: 1, text: 'draft', stagedIds: [UUID] },
  'messages.page': { chatId: 1, before: { sentAt: 1, key: 'm1' }, limit: 10 },
  'messages.loadOlder': { chatId: 1 },
  'messages.get': { keys: ['m1'] },
  'messages.send': {
    chatId: 1,
    text: 'hi',
    stagedIds: [UUID],
    attachmentUrls: ['https://example.com/a.png'],
    clientKey: UUID,
    replyTo: { messageKey: 'm1', partIndex: 0 },
    effect: { type: 'screen', name: 'confetti' },
    preferredService: 'iMessage',
  },
  'messages.thread': { key: 'm1' },
  'messages.retry': { key: 'm1' },
  'messages.discard': { key: 'm1' },
  'messages.edit': { key: 'm1', text: 'edited' },
  'messages.delete': { key: 'm1' },
  'messages.react': { messageId: 1, kind: 'love', operation: 'add' },
  'attachments.unstage': { ids: [UUID] },
  'attachments.open': { attachmentId: 'a1', save: false },
  'contacts.list': { query: 'ann', limit: 10, offset: 0 },
  'contacts.create': { firstName: 'Ann', phoneNumber: '+14155550123' },
  'contacts.update': { id: 1, fields: { company: 'Acme' } },
  'contacts.delete': { id: 1 },
  'contacts.chats': { id: 1 },
  'lines.list': {},
  'lines.setForwarding': { lineId: 1, forwardingNumber: '+14155550123' },
  'lines.checkImessage': { handle: '+14155550123' },
  'webhooks.status': {},
  'webhooks.configure': { enabled: true, provider: 'custom', customPublicUrl: 'https://hooks.example.com' },
  'settings.get': {},
  'settings.update': {
    theme: 'dark',
    typingMode: 'manual',
    notifications: { enabled: true },
    sync: { pollIntervalMs: 5000 },
  },
  'app.info': {},
  'app.syncStatus': {},
  'app.storageStatus': {},
  'app.syncNow': {},
  'app.openExternal': { url: 'https://example.com' },
  'app.recentCalls': { limit: 10 },
  'canned.list': {},
  'canned.save': {
    id: 1,
    title: 'Greeting',
    body: 'Hi {first_name|there}',
    group: 'Openers',
    stagedIds: [UUID],
    keepAttachmentIds: [1],
  },
  'canned.delete': { id: 1 },
  'canned.stageAttachments': { id: 1 },
  'canned.export': {},
  'canned.import': { json: '{}', replace: false },
  'notes.list': { chatId: 1 },
  'notes.add': { chatId: 1, text: 'Prefers calls after 5pm' },
  'notes.edit': { id: 1, text: 'Prefers calls after 6pm' },
  'notes.delete': { id: 1 },
  'workbench.chatContext': { chatId: 1 },
  'waiting.list': {},
  'workbench.settings': {},
  'workbench.updateSettings': {
    agentName: 'Sam',
    overdueMinutes: 15,
    undoSeconds: 5,
    quietHours: { start: '22:00', end: '07:00' },
    mutedLineIds: [1],
  },
  'scheduled.list': { chatId: 1 },
  'scheduled.send': { chatId: 1, text: 'On my way', stagedIds: [UUID], attachmentUrls: [] },
  'scheduled.create': {
    chatId: 1,
    text: 'Good morning',
    stagedIds: [],
    attachmentUrls: [],
    at: 1_900_000_000_000,
  },
  'scheduled.update': { id: 1, text: 'Good morning!', at: 1_900_000_000_000 },
  'scheduled.sendNow': { id: 1 },
  'scheduled.withdraw': { id: 1, toComposer: true },
  'snooze.list': {},
  'snooze.set': { chatId: 1, until: 1_900_000_000_000 },
  'snooze.clear': { chatId: 1 },
  'workbench.quickReply': { chatId: 1, text: 'On it!' },
  'team.state': {},
  'team.setAvailability': { availability: 'busy' },
  'team.activity': { chatId: 1, activity: 'viewing' },
  'team.assign': { chatId: 1, to: 'dana', note: 'Yours now' },
  'team.takeOver': { chatId: 1 },
  'team.setDone': { chatId: 1, done: true },
  'team.listNotes': { chatId: 1 },
  'team.addNote': { chatId: 1, text: '@dana can you check this?' },
  'team.listReplies': {},
  'team.saveReply': { title: 'Hours', body: 'We are open 9 to 5.' },
  'team.removeReply': { id: 'r1' },
  'team.updateSettings': { roundRobin: true },
  'team.answerHeld': { key: 'b7f1c9a4-0c1e-4f7e-9a53-2f0c6a8f3d21', answer: 'sendAnyway' },
};

export interface MalformedCase {
  method: MethodName;
  /** What is wrong, for the test's name. */
  what: string;
  input: unknown;
  /** The field the error must name. */
  field: string;
}

/** Values of every JSON type; for each field, the first its schema refuses is the wrong one. */
const CANDIDATES: readonly unknown[] = [12345, 'not-the-right-type', true, ['a'], { nested: 1 }];

/** All malformed cases of one method. */
export function malformedCases(method: MethodName): MalformedCase[] {
  const schema = methods[method].input as unknown as z.ZodObject<Record<string, z.ZodType>>;
  const valid = VALID_INPUTS[method] as Record<string, unknown>;
  const cases: MalformedCase[] = [
    {
      method,
      what: 'an unknown field',
      input: { ...valid, unexpectedField: true },
      field: 'unexpectedField',
    },
  ];
  for (const [key, field] of Object.entries(schema.shape)) {
    const wrong = CANDIDATES.find((value) => !field.safeParse(value).success);
    if (wrong !== undefined) {
      cases.push({ method, what: `${key} of the wrong type`, input: { ...valid, [key]: wrong }, field: key });
    }
    if (!field.safeParse(undefined).success) {
      const { [key]: _omitted, ...rest } = valid;
      cases.push({ method, what: `${key} missing`, input: rest, field: key });
    }
  }
  return cases;
}

export const ALL_MALFORMED: readonly MalformedCase[] = METHOD_NAMES.flatMap(malformedCases);
