/**
 * The messaging port of a desktop joined to its team's relay: the same port the V2 and V3 adapters
 * implement, so the desktop's store, sync engine, reconciler and outbox work unchanged. Reads are
 * answered by the relay from its store (no request reaches the service, whatever the team's size);
 * every change goes once through the relay with its key (relay-calls.ts); files travel through the
 * agent's own object store bucket (files.ts).
 *
 * Ids are the relay's local ids. On V3 each reply also names the UUIDs behind them, bound in this
 * store's `remoteIds` before the records are returned, so a V3 event from the log maps to the same
 * local id here as on the relay and every other desktop.
 *
 * Contacts are not part of the port (they are always V2's): `contacts.list` has the shape of the V2
 * client's, for the sync engine (see its constructor).
 */
import type { ApiVersion } from '../../../shared/domain.ts';
import type { CallOptions } from '../api/http.ts';
import type { Page, PageRequest } from '../api/pagination.ts';
import type { ApiContact } from '../api/schemas.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { LineRecord, MessageRecord } from '../store/records.ts';
import type {
  ContactsPort,
  ListedChat,
  MessagesPage,
  MessagingService,
  NewChatRequest,
  OutgoingContent,
  PolledMessage,
  ReactionChoice,
} from '../sync/messaging.ts';
import type { ChangeRequest } from './changes.ts';
import { getFile, openAgentFiles, putFile } from './files.ts';
import { NewestPages } from './newest-pages.ts';
import {
  changeKey,
  connectionOf,
  RelayCalls,
  type RelayCallOptions,
  type RelayConnection,
} from './relay-calls.ts';

/** The relay answers at most this many records a page. */
const MAX_PAGE = 200;
const CHAT_PAGE = 100;

export interface RelayMessagingOptions extends RelayCallOptions {
  /** The agent's connection (connectWithJoinCode), or how to get it once the relay answers; its id. */
  nc: RelayConnection;
  agentId: string;
  /** The desktop's store (V3 ids are bound in it). */
  store: LocalStore;
  /** The organization's API version, as the relay runs it. */
  version: ApiVersion;
}

/** What a send carries for the team's send-time check (core/team/team-desk.ts decides it). */
export interface TeamSendPlan {
  /** The newest activity of the chat the agent had seen when it sent. */
  seenSeq?: number;
  /** "Send anyway": published under this key (the held one's stays taken), replacing `resendOf`. */
  subjectKey?: string;
  resendOf?: string;
}

export class RelayMessaging implements MessagingService {
  readonly version: ApiVersion;
  /** A relay chat's revision is when the relay's copy of it last changed, not a count. */
  readonly revisionCountsMessages = false;
  /**
   * The organization's contacts from the relay, in the V2 client's shape (`SyncEngine`'s `client`,
   * the joined session's ContactsPort): listed from the relay's store, changed through the relay
   * once each, like every other change.
   */
  readonly contacts: ContactsPort;
  /** Set by the team layer of a joined workspace: what each send carries for its check. */
  planSend: ((chatId: number, key: string) => Promise<TeamSendPlan>) | undefined;
  readonly #calls: RelayCalls;
  readonly #newest: NewestPages;
  readonly #options: RelayMessagingOptions;

  constructor(options: RelayMessagingOptions) {
    this.version = options.version;
    this.#options = options;
    this.#calls = new RelayCalls(options.nc, options.agentId, options.store, options);
    this.contacts = {
      list: (request = {}, call = {}) => this.#contacts(request, call),
      create: (contact, call = {}) => this.#changeContact({ kind: 'createContact', contact }, call),
      update: (contactId, contact, call = {}) =>
        this.#changeContact({ kind: 'updateContact', contactId, contact }, call),
      delete: async (contactId, call = {}) => {
        const change = { kind: 'deleteContact', contactId } as const;
        await this.#calls.change('deleteContact', changeKey(call), change, call);
      },
    };
    this.#newest = new NewestPages({
      many: (input, call) => this.#calls.read('port-newest', input, call),
      one: (chatId, limit, call) => this.#page(chatId, limit, undefined, call),
    });
  }

  /** V3: chats this store has without their UUID (kept from before) get it, and the relay's id with it. */
  async prepare(options: CallOptions): Promise<void> {
    if (this.version !== 'v3') return;
    const { store } = this.#options;
    const unnamed = store.chats
      .ids()
      .filter((id) => id > 0 && store.remoteIds.remoteId('chat', id) === undefined);
    for (let at = 0; at < unnamed.length; at += 5_000)
      await this.#calls.read('port-ids', { chatIds: unnamed.slice(at, at + 5_000) }, options);
  }

  lines(options: CallOptions): Promise<LineRecord[]> {
    return this.#calls.read('port-lines', {}, options);
  }

  async *chatPages(line: { id: number; phoneNumber: string }, options: CallOptions) {
    for (let offset = 0; ;) {
      const page = await this.#calls.read(
        'port-chats',
        { lineId: line.id, offset, limit: CHAT_PAGE },
        options,
      );
      if (page.chats.length > 0) yield page.chats as ListedChat[];
      if (!page.more) return;
      offset += page.chats.length;
    }
  }

  async chat(chatId: number, options: CallOptions): Promise<ListedChat | undefined> {
    return ((await this.#calls.read('port-chat', { chatId }, options)) as ListedChat | null) ?? undefined;
  }

  /** Asked together with the other chats' asked in the same turn (newest-pages.ts). */
  async newestMessages(chatId: number, count: number, options: CallOptions): Promise<MessagesPage> {
    return this.#newest.page(chatId, Math.min(count, MAX_PAGE), options);
  }

  async *messagePages(chatId: number, pageSize: number, options: CallOptions) {
    let before: { sentAt: number; key: string } | undefined;
    for (;;) {
      const page = await this.#calls.read(
        'port-messages',
        { chatId, limit: Math.min(pageSize, MAX_PAGE), ...(before ? { before } : {}) },
        options,
      );
      yield { messages: page.messages as MessageRecord[], complete: page.complete };
      if (page.complete || !page.next) return;
      before = page.next;
    }
  }

  olderMessages(chatId: number, before: number | null, count: number, options: CallOptions) {
    // Strictly before `before`: every key sorts after the empty one.
    return this.#page(chatId, count, before === null ? undefined : { sentAt: before, key: '' }, options);
  }

  async message(chatId: number, messageId: number, options: CallOptions): Promise<PolledMessage> {
    return (await this.#calls.read('port-message', { chatId, messageId }, options)) as PolledMessage;
  }

  async send(chatId: number, content: OutgoingContent, options: CallOptions): Promise<MessageRecord> {
    const key = content.idempotencyKey ?? changeKey(options);
    const plan = (await this.planSend?.(chatId, key)) ?? {};
    const body = await this.#content(key, content, options);
    const team = {
      ...(plan.seenSeq === undefined ? {} : { seenSeq: plan.seenSeq }),
      ...(plan.resendOf ? { resendOf: plan.resendOf } : {}),
    };
    const send = { kind: 'send', chatId, ...body, ...team } as const;
    return (await this.#calls.change('send', plan.subjectKey ?? key, send, options)) as MessageRecord;
  }

  /** A send of this agent the relay held: what it had not seen, and up to where. */
  heldOutcome(key: string): Promise<{ message: string; latestSeq: number } | undefined> {
    return this.#calls.heldOutcome(key);
  }

  async createChat(request: NewChatRequest, options: CallOptions) {
    const key = request.content.idempotencyKey ?? changeKey(options);
    const body = await this.#content(key, request.content, options);
    const created = await this.#calls.change(
      'createChat',
      key,
      {
        kind: 'createChat',
        lineNumber: request.lineNumber,
        recipients: [...request.recipients],
        displayName: request.displayName,
        ...body,
      },
      options,
    );
    return created as { chat: ListedChat; message: MessageRecord };
  }

  react(messageId: number, reaction: ReactionChoice, operation: 'add' | 'remove', options: CallOptions) {
    return this.#calls.change(
      'react',
      changeKey(options),
      { kind: 'react', messageId, reaction, operation },
      options,
    );
  }

  async edit(chatId: number, messageId: number, text: string, options: CallOptions) {
    const edit = { kind: 'edit', chatId, messageId, text } as const;
    return (await this.#calls.change('edit', changeKey(options), edit, options)) as MessageRecord;
  }

  async delete(chatId: number, messageId: number, options: CallOptions) {
    const change = { kind: 'delete', chatId, messageId } as const;
    await this.#calls.change('delete', changeKey(options), change, options);
  }

  /** Reading a chat up to its newest message is one change, however often it is marked. */
  async markRead(chatId: number, options: CallOptions) {
    const key = options.changeKey ?? readMarkKey(this.#options.store, chatId);
    await this.#calls.change('markRead', key, { kind: 'markRead', chatId }, options);
  }

  /** Not keyed: each change of the indicator is meant to go, and one repeated is harmless. */
  async typing(chatId: number, typing: boolean, options: CallOptions) {
    await this.#calls.change('typing', changeKey(), { kind: 'typing', chatId, typing }, options);
  }

  async shareContact(chatId: number, options: CallOptions) {
    await this.#calls.change('shareContact', changeKey(options), { kind: 'shareContact', chatId }, options);
  }

  async setForwarding(lineId: number, forwardingNumber: string | null, options: CallOptions) {
    const change = { kind: 'setForwarding', lineId, forwardingNumber } as const;
    return (await this.#calls.change('setForwarding', changeKey(options), change, options)) as LineRecord;
  }

  async checkImessage(handle: string, options: CallOptions) {
    return (await this.#calls.read('port-imessage', { handle }, options)).available;
  }

  /**
   * The relay fetches the bytes (its token, the address its store holds for the attachment) into
   * this agent's bucket; they are saved from there. Only the id travels: the row may carry more.
   */
  async downloadAttachment(attachment: { id: string; url: string }, to: string, options: CallOptions) {
    const key = changeKey();
    const { object } = await this.#calls.read('port-download', { id: attachment.id, key }, options);
    const files = await openAgentFiles(connectionOf(this.#options.nc), this.#options.agentId);
    try {
      if (!(await getFile(files, object, to))) throw new Error('the relay put no file');
    } finally {
      await files.delete(object).catch(() => undefined);
    }
  }

  async migrationId(chatId: number, options: CallOptions) {
    return this.#calls.read('port-migration', { chatId }, options);
  }

  async #page(
    chatId: number,
    count: number,
    before: { sentAt: number; key: string } | undefined,
    options: CallOptions,
  ): Promise<MessagesPage> {
    const page = await this.#calls.read(
      'port-messages',
      { chatId, limit: Math.min(count, MAX_PAGE), ...(before ? { before } : {}) },
      options,
    );
    return { messages: page.messages as MessageRecord[], complete: page.complete };
  }

  /** A send's content as the relay takes it, its files put into this agent's bucket first. */
  async #content(key: string, content: OutgoingContent, options: CallOptions) {
    const files: Array<{ object: string; filename: string; mimeType: string }> = [];
    if (content.files.length > 0) {
      await this.#calls.read('port-files', {}, options);
      const bucket = await openAgentFiles(connectionOf(this.#options.nc), this.#options.agentId);
      for (const [index, file] of content.files.entries()) {
        const { object } = await putFile(bucket, `${key}/${index}`, file.path);
        files.push({ object, filename: file.filename, mimeType: file.mimeType });
      }
    }
    return {
      text: content.text,
      attachmentUrls: [...content.attachmentUrls],
      files,
      ...(content.replyTo ? { replyTo: content.replyTo } : {}),
      ...(content.effect ? { effect: content.effect } : {}),
      ...(content.preferredService ? { preferredService: content.preferredService } : {}),
    } as Omit<Extract<ChangeRequest, { kind: 'send' }>, 'kind' | 'chatId'>;
  }

  async #changeContact(
    change: Extract<ChangeRequest, { kind: 'createContact' | 'updateContact' }>,
    options: CallOptions,
  ): Promise<ApiContact> {
    return (await this.#calls.change(change.kind, changeKey(options), change, options)) as ApiContact;
  }

  async #contacts(request: PageRequest, options: CallOptions): Promise<Page<ApiContact>> {
    const page = Math.max(1, request.page ?? 1);
    const perPage = Math.min(MAX_PAGE, Math.max(1, request.perPage ?? 100));
    const { contacts, total } = await this.#calls.read(
      'port-contacts',
      { offset: (page - 1) * perPage, limit: perPage },
      options,
    );
    return {
      items: contacts as ApiContact[],
      page,
      perPage,
      totalPages: Math.max(1, Math.ceil(total / perPage)),
      totalCount: total,
    };
  }
}

/**
 * A read mark's key: the chat and the newest message this desktop has of it, so marking the same
 * state again (a retry, the read marker's next round) is the same change, and a new message read
 * is a new one.
 */
function readMarkKey(store: LocalStore, chatId: number): string {
  const newest = store.messages.page(chatId, { limit: 1 })[0];
  const upTo = newest ? (newest.id ?? `t${newest.sentAt}`) : 'none';
  return `read-${chatId}-${upTo}`.replaceAll(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);
}
