/**
 * The messaging port over the V3 client: V3's pages mapped into the same records as V2's, each
 * page's ids in one go. Which V3 id names a stored chat or message (a V2-era one keeps its id) is
 * `v3-names.ts`'s.
 */
import type { PartnerApiClient } from '../api/client.ts';
import { isPartnerApiError, PartnerApiError } from '../api/errors.ts';
import type { CallOptions } from '../api/http.ts';
import type { PartnerApiV3Client } from '../api/v3/client.ts';
import { v3ChatToDomain, v3LineToDomain, type V3LocalIds, v3MessageToDomain } from '../api/v3/domain-map.ts';
import { v3MessageRecord, v3MessageRecords, v3PageIds } from '../api/v3/records.ts';
import type { V3OutgoingPart } from '../api/v3/outgoing.ts';
import type { V3Chat, V3Message, V3PhoneNumber } from '../api/v3/schemas.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { ChatRecord, MessageRecord } from '../store/records.ts';
import type {
  ListedChat,
  MessagesPage,
  MessagingService,
  NewChatRequest,
  OutgoingContent,
  PolledMessage,
  ReactionChoice,
} from './messaging.ts';
import { notInV3, V3Names } from './v3-names.ts';

const PAGE = 100;

/** How a storage service says a presigned address is no longer good. */
const EXPIRED_STATUSES = [403, 404, 410];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class V3Messaging implements MessagingService {
  readonly version = 'v3' as const;
  readonly revisionCountsMessages = false;
  readonly #v3: PartnerApiV3Client;
  readonly #store: LocalStore;
  readonly #names: V3Names;

  constructor(v3: PartnerApiV3Client, v2: PartnerApiClient, store: LocalStore) {
    this.#v3 = v3;
    this.#store = store;
    this.#names = new V3Names(v2, store);
  }

  /** A workspace that moves from V2 keeps its chats: each is named by its V3 id first (v3-names.ts). */
  prepare(options: CallOptions): Promise<void> {
    return this.#names.nameStoredChats(options);
  }

  async lines(options: CallOptions) {
    const lines = await this.#v3.lines.list(options);
    return this.#store.transaction(() => lines.map((line) => this.#lineRecord(line)));
  }

  /** A listed line, with its record id and reputation (the line's own columns). */
  #lineRecord(line: V3PhoneNumber) {
    return v3LineToDomain(line, this.#store.remoteIds);
  }

  async *chatPages(line: { id: number; phoneNumber: string }, options: CallOptions) {
    for await (const page of this.#v3.chats.pages({ from: line.phoneNumber, limit: PAGE }, options)) {
      yield this.#store.transaction(() => {
        const ids = this.#store.remoteIds.prefetch({
          chat: page.items.map((chat) => chat.id),
          handle: page.items.flatMap((chat) => chat.handles.map((h) => h.id)),
        });
        return page.items.map((chat) => this.#chatRecord(chat, line, ids));
      });
    }
  }

  async chat(chatId: number, options: CallOptions): Promise<ListedChat | undefined> {
    const chat = await this.#v3.chats.get(await this.#names.chat(chatId, options), options);
    const record = this.#store.transaction(() => this.#chatRecord(chat));
    return record.lineId === 0 ? undefined : record;
  }

  async newestMessages(chatId: number, count: number, options: CallOptions): Promise<MessagesPage> {
    const v3ChatId = await this.#names.chat(chatId, options);
    const page = await this.#v3.messages.list(v3ChatId, { limit: Math.min(count, PAGE) }, options);
    return this.#page(v3ChatId, page.items, page.nextCursor === null);
  }

  async *messagePages(chatId: number, pageSize: number, options: CallOptions) {
    const v3ChatId = await this.#names.chat(chatId, options);
    const limit = Math.min(pageSize, PAGE);
    for await (const page of this.#v3.messages.pages(v3ChatId, { limit }, options)) {
      yield this.#page(v3ChatId, page.items, !page.nextCursor);
    }
  }

  async olderMessages(chatId: number, before: number | null, count: number, options: CallOptions) {
    const v3ChatId = await this.#names.chat(chatId, options);
    const older: MessageRecord[] = [];
    for await (const page of this.#v3.messages.pages(v3ChatId, { limit: PAGE }, options)) {
      const records = this.#records(v3ChatId, page.items);
      older.push(...records.filter((m) => before === null || m.sentAt < before));
      if (older.length >= count) return { messages: older.slice(0, count), complete: false };
    }
    return { messages: older, complete: true };
  }

  async message(chatId: number, messageId: number, options: CallOptions): Promise<PolledMessage> {
    const v3ChatId = await this.#names.chat(chatId, options);
    const fresh = await this.#v3.messages.get(this.#names.message(messageId), options);
    const [record] = this.#records(v3ChatId, [fresh]);
    const status = fresh.delivery_status;
    const settled =
      status !== 'pending' && status !== 'queued' && (status !== 'sent' || fresh.service === 'SMS');
    return { record: record as MessageRecord, settled };
  }

  async send(chatId: number, content: OutgoingContent, options: CallOptions): Promise<MessageRecord> {
    const v3ChatId = await this.#names.chat(chatId, options);
    const parts = await this.#parts(content, options);
    const sent = await this.#v3.messages.send(v3ChatId, { parts, ...sendOptionsOf(content) }, options);
    return this.#store.transaction(() =>
      v3MessageRecord(
        v3MessageToDomain(sent.message, this.#store.remoteIds, {
          chatId: sent.chat_id,
          idempotencyKey: content.idempotencyKey ?? null,
        }),
        content.idempotencyKey,
      ),
    );
  }

  async createChat(request: NewChatRequest, options: CallOptions) {
    const { content } = request;
    const created = await this.#v3.chats.create(
      {
        from: request.lineNumber,
        to: request.recipients,
        message: { parts: await this.#parts(content, options), ...sendOptionsOf(content) },
      },
      options,
    );
    const line = this.#store.lines.byNumber(request.lineNumber);
    return this.#store.transaction(() => {
      const chat: ChatRecord = this.#chatRecord(created.chat, line);
      const message = v3MessageRecord(
        v3MessageToDomain(created.message, this.#store.remoteIds, {
          chatId: created.chat.id,
          idempotencyKey: content.idempotencyKey ?? null,
        }),
        content.idempotencyKey,
      );
      return { chat, message };
    });
  }

  async react(
    messageId: number,
    reaction: ReactionChoice,
    operation: 'add' | 'remove',
    options: CallOptions,
  ) {
    await this.#v3.messages
      .react(
        this.#names.message(messageId),
        operation,
        reaction.kind === 'custom'
          ? { type: 'custom', customEmoji: reaction.customEmoji }
          : { type: reaction.kind },
        options,
      )
      .catch(operation === 'remove' ? ignoreNotFound : rethrow);
    return null;
  }

  async edit(chatId: number, messageId: number, text: string, options: CallOptions) {
    const v3ChatId = await this.#names.chat(chatId, options);
    const edited = await this.#v3.messages.edit(this.#names.message(messageId), { text }, options);
    return this.#records(v3ChatId, [edited])[0] as MessageRecord;
  }

  async delete(chatId: number, messageId: number, options: CallOptions) {
    await this.#v3.messages.delete(this.#names.message(messageId), options).catch(ignoreNotFound);
  }

  async markRead(chatId: number, options: CallOptions) {
    await this.#v3.chats.markRead(await this.#names.chat(chatId, options), options);
  }

  async typing(chatId: number, typing: boolean, options: CallOptions) {
    const v3ChatId = await this.#names.chat(chatId, options);
    if (typing) await this.#v3.chats.startTyping(v3ChatId, options);
    else await this.#v3.chats.stopTyping(v3ChatId, options);
  }

  async shareContact(chatId: number, options: CallOptions) {
    await this.#v3.chats.shareContactCard(await this.#names.chat(chatId, options), options);
  }

  /** PUT /phone_numbers/{id} names the line by its record id: remembered from the line sync, else listed. */
  async setForwarding(lineId: number, forwardingNumber: string | null, options: CallOptions) {
    const line = this.#store.lines.get(lineId);
    if (!line) throw notInV3('line');
    let v3Id = line.v3Id;
    if (!v3Id) {
      const listed = await this.#v3.lines.list(options);
      v3Id = listed.find((l) => l.phone_number === line.phoneNumber)?.id;
      if (!v3Id) throw notInV3('line');
    }
    const updated = await this.#v3.lines.setForwarding(v3Id, forwardingNumber, options);
    return this.#store.transaction(() => this.#lineRecord(updated));
  }

  async checkImessage(handle: string, options: CallOptions) {
    return (await this.#v3.lines.checkIMessage(handle, undefined, options)).available;
  }

  /**
   * A media part's `url` is a presigned address, which expires; the attachment's record
   * (GET /attachments/{id}) gives a fresh `download_url`. Asked only when the address is missing or
   * refused as gone (403, 404, 410), and only for an id V3 can name (a UUID).
   */
  async downloadAttachment(attachment: { id: string; url: string }, to: string, options: CallOptions) {
    let refused: unknown;
    if (attachment.url !== '') {
      try {
        return await this.#v3.files.download(attachment.url, to, options);
      } catch (error) {
        if (!(isPartnerApiError(error) && EXPIRED_STATUSES.includes(error.status))) throw error;
        refused = error;
      }
    }
    const fresh = UUID.test(attachment.id)
      ? await this.#v3.attachments.get(attachment.id, options).catch((error: unknown) => {
          throw refused ?? error;
        })
      : undefined;
    if (!fresh?.download_url)
      throw (
        refused ??
        new PartnerApiError({
          kind: 'validation',
          code: 'invalid_url',
          retryable: false,
          message: 'The attachment has no address to download it from',
        })
      );
    await this.#v3.files.download(fresh.download_url, to, options);
  }

  async migrationId(chatId: number, options: CallOptions) {
    try {
      return { v3ChatId: await this.#names.chat(chatId, options), migrated: true };
    } catch (error) {
      if (isPartnerApiError(error) && error.code === 'not_in_v3') return { v3ChatId: null, migrated: false };
      throw error;
    }
  }

  #chatRecord(
    chat: V3Chat,
    line?: { id: number; phoneNumber: string },
    ids: V3LocalIds = this.#store.remoteIds,
  ): ListedChat {
    const facts = v3ChatToDomain(chat, ids, line?.phoneNumber);
    const updatedAt = Date.parse(chat.updated_at ?? '');
    return {
      id: facts.id,
      lineId: facts.lineId || (line?.id ?? 0),
      displayName: facts.displayName,
      service: facts.service,
      isGroup: facts.isGroup,
      handles: facts.handles.map((h) => ({
        id: h.id,
        identifier: h.identifier,
        service: h.service,
        joinedAt: h.joinedAt,
        isMe: h.isMe,
      })),
      v3ChatId: chat.id,
      ...(facts.health ? { health: facts.health } : {}),
      ...(Number.isFinite(updatedAt) ? { revision: updatedAt } : {}),
    };
  }

  /**
   * A page whose records are mapped when first read (see MessagesPage): the sync engine reads them
   * inside the transaction that writes them, so a page's ids and its messages commit together.
   */
  #page(v3ChatId: string, messages: readonly V3Message[], complete: boolean): MessagesPage {
    let records: MessageRecord[] | undefined;
    const read = () => (records ??= this.#records(v3ChatId, messages));
    return {
      complete,
      get messages() {
        return read();
      },
    };
  }

  /**
   * Records of one chat's messages; a message V2 stored before is recognised and keeps its id
   * (v3-names.ts). The page's ids are mapped in one go.
   */
  #records(v3ChatId: string, messages: readonly V3Message[]): MessageRecord[] {
    return this.#store.transaction(() => {
      const remote = this.#store.remoteIds;
      const chatId = remote.chat(v3ChatId);
      this.#names.recogniseV2Era(chatId, messages);
      return v3MessageRecords(
        v3ChatId,
        messages,
        remote.prefetch(v3PageIds(v3ChatId, messages), v3ChatId, chatId),
      );
    });
  }

  async #parts(content: OutgoingContent, options: CallOptions): Promise<V3OutgoingPart[]> {
    const parts: V3OutgoingPart[] = [];
    if (content.text.trim() !== '') parts.push({ type: 'text', value: content.text });
    for (const file of content.files) {
      const { attachmentId } = await this.#v3.attachments.upload(
        { path: file.path, filename: file.filename, contentType: file.mimeType },
        options,
      );
      parts.push({ type: 'media', attachment_id: attachmentId });
    }
    for (const url of content.attachmentUrls) parts.push({ type: 'media', url });
    return parts;
  }
}

/** The V3 options of an outgoing message, as the V3 client takes them. */
function sendOptionsOf(content: OutgoingContent) {
  return {
    ...(content.idempotencyKey ? { idempotencyKey: content.idempotencyKey } : {}),
    ...(content.replyTo ? { replyTo: content.replyTo } : {}),
    ...(content.effect ? { effect: content.effect as { type: 'screen' | 'bubble'; name: string } } : {}),
    ...(content.preferredService ? { preferredService: content.preferredService } : {}),
  };
}

function ignoreNotFound(error: unknown): void {
  if (isPartnerApiError(error) && error.status === 404) return;
  throw error;
}

function rethrow(error: unknown): never {
  throw error;
}
