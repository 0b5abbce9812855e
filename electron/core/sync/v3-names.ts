/**
 * Which V3 id names a stored chat or message. V3 names everything by UUID; the store's remote ids
 * give each a local integer, and what V2 stored keeps its V2 id: a V2-era chat is named to V3 through
 * `GET /v2/chats/{id}/migrate_to_v3` (with its drafts, pins, archive and read state), a V2-era message
 * is recognised by its chat, direction, text and time the first time V3 lists it, so nothing is shown
 * twice.
 */
import { parseServiceTime } from '../../../shared/time.ts';
import type { PartnerApiClient } from '../api/client.ts';
import { isPartnerApiError, PartnerApiError } from '../api/errors.ts';
import type { CallOptions } from '../api/http.ts';
import { v3PartsToDomain } from '../api/v3/domain-map.ts';
import type { V3Message } from '../api/v3/schemas.ts';
import type { LocalStore } from '../store/local-store.ts';
import { forEachLimited } from '../util.ts';

export class V3Names {
  /** V2, only to name V2-era chats in V3 (migrate_to_v3). */
  readonly #v2: PartnerApiClient;
  readonly #store: LocalStore;

  constructor(v2: PartnerApiClient, store: LocalStore) {
    this.#v2 = v2;
    this.#store = store;
  }

  /**
   * A workspace that moves from V2 keeps its chats: each stored chat is named by its V3 id (through
   * migrate_to_v3) before V3 lists it, so V3 finds it under its local id. Chats V3 does not have
   * (SMS groups) stay as they are.
   */
  async nameStoredChats(options: CallOptions): Promise<void> {
    const ids = this.#store.remoteIds;
    const unnamed = this.#store.chats.ids().filter((id) => id > 0 && ids.remoteId('chat', id) === undefined);
    await forEachLimited(unnamed, 4, async (chatId) => {
      try {
        await this.chat(chatId, options);
      } catch (error) {
        if (isPartnerApiError(error) && !error.retryable) return;
        throw error;
      }
    });
  }

  /**
   * The V3 id of a stored chat. A chat stored under V2 is asked for by its V2 id (migrate_to_v3) the
   * first time, and keeps its local id.
   */
  async chat(chatId: number, options: CallOptions = {}): Promise<string> {
    const known = this.#store.remoteIds.remoteId('chat', chatId);
    if (known) return known;
    const v3ChatId =
      this.#store.chats.get(chatId)?.v3ChatId ??
      (await this.#v2.chats.migrateToV3(chatId, options)).v3_chat_id;
    if (!v3ChatId) throw notInV3('chat');
    this.#store.transaction(() => this.#store.remoteIds.bind('chat', v3ChatId, chatId));
    return v3ChatId;
  }

  message(messageId: number): string {
    const v3Id = this.#store.remoteIds.remoteId('message', messageId);
    if (v3Id === undefined) throw notInV3('message');
    return v3Id;
  }

  /**
   * Binds the messages of a V3 page that V2 stored before to their stored ids (looked for only
   * while the chat has messages no V3 id names). Inside the caller's transaction.
   */
  recogniseV2Era(chatId: number, messages: readonly V3Message[]): void {
    const remote = this.#store.remoteIds;
    if (!remote.hasUnnamedMessages(chatId)) return;
    const known = remote.known(
      'message',
      messages.map((m) => m.id),
      chatId,
    );
    for (const message of messages) {
      if (known.has(message.id)) continue;
      const stored = remote.matchStoredMessage(chatId, {
        sentAt: parseServiceTime(message.sent_at ?? message.created_at) ?? 0,
        text: v3PartsToDomain(message.id, message.parts).text,
        fromMe: message.is_from_me,
      });
      if (stored !== undefined) remote.bind('message', message.id, stored, chatId);
    }
  }
}

export function notInV3(what: 'chat' | 'message' | 'line'): PartnerApiError {
  return new PartnerApiError({
    kind: 'not_found',
    code: 'not_in_v3',
    retryable: false,
    message: `This ${what} has no V3 id yet; sync the workspace and try again`,
  });
}
