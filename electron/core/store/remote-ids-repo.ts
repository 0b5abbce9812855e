import type { Database } from './database.ts';

/**
 * Local integer ids for V3 ids; the same V3 id must always give the same local id. A message or
 * reaction is named with its chat when the caller knows it (the store keeps a chat's together).
 */
export interface V3LocalIds {
  chat(v3ChatId: string): number;
  message(v3MessageId: string, v3ChatId?: string): number;
  handle(v3HandleId: string): number;
  /** Lines are matched by their number: V2 and V3 name the same lines. */
  line(phoneNumber: string): number;
  /** Reactions have no id in V3; `key` names one (message, part, reacting handle, type, emoji). */
  reaction(key: string, v3ChatId?: string): number;
}

export type RemoteIdKind = 'chat' | 'message' | 'handle' | 'line' | 'reaction';

/**
 * Kinds kept by chat (`scope`: the chat's local id, migration 12): a page names fifty new message
 * UUIDs at once, and keyed by the UUID alone each lands on its own page of the index, so every page's
 * commit wrote about fifty scattered pages (a microbenchmark of 250,000 ids in pages of 50: 45 s
 * against 7 s kept by chat). Scope 0 holds those first named without their chat.
 */
const SCOPED: ReadonlySet<RemoteIdKind> = new Set(['message', 'reaction']);

/**
 * `remote_ids.id` (migration 13) is an entity's kind and local id in one integer, local id × 8 + its
 * kind's code, so the table is keyed by what the store names, and the V3 ids a page adds append
 * (an exact JavaScript number for local ids up to 2^50). In SQL the kind of a row is `id & 7`
 * (two's complement: right for negative local ids too).
 */
const KIND_CODES: Readonly<Record<RemoteIdKind, number>> = {
  chat: 1,
  message: 2,
  handle: 3,
  line: 4,
  reaction: 5,
};
const KIND_SLOTS = 8;

const rowIdOf = (kind: RemoteIdKind, localId: number): number => localId * KIND_SLOTS + KIND_CODES[kind];
const localIdOf = (rowId: number): number => Math.floor(rowId / KIND_SLOTS);
const localIdOrUndefined = (row: { id: number } | undefined): number | undefined =>
  row === undefined ? undefined : localIdOf(row.id);

/**
 * Rows of kind ?1 named by remote id ?3 within scopes (?2, 0): found through the index of an id's
 * first 8 characters (`remote_ids_named`; the full id is kept once, in the row), which the planner,
 * without statistics, might pass over for a scan.
 */
const NAMED_IN_SCOPE = `remote_ids INDEXED BY remote_ids_named
  WHERE scope IN (?2, 0) AND substr(remote_id, 1, 8) = substr(?3, 1, 8) AND remote_id = ?3 AND (id & 7) = ?1`;

/** As NAMED_IN_SCOPE, for every remote id of the JSON list ?3. */
const LISTED_IN_SCOPE = `remote_ids INDEXED BY remote_ids_named
  WHERE scope IN (?2, 0)
    AND substr(remote_id, 1, 8) IN (SELECT substr(value, 1, 8) FROM json_each(?3))
    AND remote_id IN (SELECT value FROM json_each(?3)) AND (id & 7) = ?1`;

/**
 * Local ids of entities first seen through V3 start here: far above any V2 id the service hands out
 * and below the provisional (negative) ids of chats being created, so the three never meet.
 */
const V3_LOCAL_ID_BASE = 2 ** 40;

/**
 * The store keys chats, messages, handles, lines and reactions by local integers (V2's ids). This
 * maps the service's other ids (V3 UUIDs) to them (`remote_ids`, migrations 11–13): an entity V2
 * already stored keeps its id (`bind`, from migrate_to_v3 or a matched message), a new one gets the
 * next free id (numbered on from the newest of any kind). The same remote id always gives the same local id, across restarts. A
 * page of messages is mapped in a few statements for the whole page (`prefetch`), not a few per row,
 * and a chat's messages and reactions are kept together (see SCOPED): named with their chat
 * (`inChat`, a page's `prefetch`), they are found and added beside the chat's others.
 */
export class RemoteIdsRepo implements V3LocalIds {
  readonly #db: Database;
  /**
   * Chats known to have no message or reaction ids (asked once, forgotten when one is added): a
   * first sync's pages name only new ids, and looking each page's fifty up in an empty chat was the
   * dearest lookup of a V3 first sync. Only ever "empty" when the store said so; an id added (even
   * in a transaction that then rolls back) makes it "may have some" again.
   */
  readonly #emptyScopes = new Set<number>();
  /** Whether message or reaction ids were ever named without their chat (scope 0); undefined: not asked. */
  #unscopedNamed: boolean | undefined;

  constructor(db: Database) {
    this.#db = db;
  }

  chat(v3ChatId: string): number {
    return this.localId('chat', v3ChatId);
  }

  /** Without its chat a message is looked for among all of them (a scan): name the chat when known. */
  message(v3MessageId: string, v3ChatId?: string): number {
    return this.localId('message', v3MessageId, this.#scopeOf(v3ChatId));
  }

  handle(v3HandleId: string): number {
    return this.localId('handle', v3HandleId);
  }

  reaction(key: string, v3ChatId?: string): number {
    return this.localId('reaction', key, this.#scopeOf(v3ChatId));
  }

  /** A line is the same line under both versions: its V2 id when the store has it. */
  line(phoneNumber: string): number {
    const known = this.find('line', phoneNumber);
    if (known !== undefined) return known;
    const v2 = this.#db.get<{ id: number }>('SELECT id FROM lines WHERE phone_number = ?', phoneNumber);
    if (v2) {
      this.bind('line', phoneNumber, v2.id);
      return v2.id;
    }
    return this.localId('line', phoneNumber);
  }

  /** The ids of one chat's messages and reactions (events and sends name their chat). */
  inChat(v3ChatId: string): V3LocalIds {
    return this.#inScope(this.chat(v3ChatId));
  }

  #inScope(scope: number): V3LocalIds {
    return {
      chat: (id) => this.chat(id),
      message: (id) => this.localId('message', id, scope),
      reaction: (key) => this.localId('reaction', key, scope),
      handle: (id) => this.handle(id),
      line: (phoneNumber) => this.line(phoneNumber),
    };
  }

  /**
   * The local id of a remote id, given one if it has none yet. `scope`: the chat's local id for a
   * message or reaction (undefined: not known, looked for in every chat, and a new one kept in 0).
   */
  localId(kind: RemoteIdKind, remoteId: string, scope?: number): number {
    return (
      this.find(kind, remoteId, scope) ?? (this.many(kind, [remoteId], scope ?? 0).get(remoteId) as number)
    );
  }

  /**
   * The local ids of many remote ids of one kind (and chat, for a scoped kind), those without one
   * given the next free ids, in a few statements however many there are: one reads those known (ids
   * first named without their chat, scope 0, too), and when some are not, one reads the top local id
   * of any kind (the table's last row: new ids of every kind are numbered on from one another, so a
   * page's append) and one inserts them all, numbered on from it here (cheaper than in SQL).
   */
  many(kind: RemoteIdKind, remoteIds: readonly string[], scope = 0): Map<string, number> {
    if (remoteIds.length === 0) return new Map();
    const inScope = SCOPED.has(kind) ? scope : 0;
    const found = new Map<string, number>();
    if (this.#mayName(kind, inScope))
      for (const row of this.#db.all<{ remote_id: string; id: number }>(
        `SELECT remote_id, id FROM ${LISTED_IN_SCOPE}`,
        KIND_CODES[kind],
        inScope,
        JSON.stringify(remoteIds),
      ))
        found.set(row.remote_id, localIdOf(row.id));
    const missing = [...new Set(remoteIds)].filter((remoteId) => !found.has(remoteId));
    if (missing.length === 0) return found;
    const last = this.#db.get<{ id: number | null }>('SELECT max(id) AS id FROM remote_ids')?.id ?? 0;
    let top = Math.max(localIdOf(last), V3_LOCAL_ID_BASE);
    const fresh = missing.map((remoteId): [string, number] => [remoteId, ++top]);
    for (const [remoteId, localId] of fresh) found.set(remoteId, localId);
    this.#adding(kind, inScope);
    this.#db.run(
      `INSERT INTO remote_ids (id, scope, remote_id)
       SELECT value ->> 1, ?, value ->> 0 FROM json_each(?)`,
      inScope,
      JSON.stringify(fresh.map(([remoteId, localId]) => [remoteId, rowIdOf(kind, localId)])),
    );
    return found;
  }

  /**
   * Local ids for what one chat's page names, mapped up front (`many` per kind); the mapping
   * functions then read them from memory, and anything not named here is looked up one by one, its
   * messages and reactions in the page's chat.
   */
  prefetch(
    wanted: Partial<Record<'chat' | 'message' | 'reaction' | 'handle', string[]>>,
    v3ChatId?: string,
    /** The page's chat's local id, when the caller has it already. */
    chatId?: number,
  ): V3LocalIds {
    // The page's own chat is looked up once, as the scope of its messages and reactions.
    const scope = v3ChatId === undefined ? 0 : (chatId ?? this.chat(v3ChatId));
    const chats = this.many(
      'chat',
      (wanted.chat ?? []).filter((id) => id !== v3ChatId),
    );
    if (v3ChatId !== undefined) chats.set(v3ChatId, scope);
    const messages = this.many('message', wanted.message ?? [], scope);
    const reactions = this.many('reaction', wanted.reaction ?? [], scope);
    const handles = this.many('handle', wanted.handle ?? []);
    const ids = v3ChatId === undefined ? this : this.#inScope(scope);
    return {
      chat: (id) => chats.get(id) ?? this.chat(id),
      message: (id) => messages.get(id) ?? ids.message(id),
      reaction: (key) => reactions.get(key) ?? ids.reaction(key),
      handle: (id) => handles.get(id) ?? this.handle(id),
      line: (phoneNumber) => this.line(phoneNumber),
    };
  }

  /** `scope` as for `localId`; for the kinds not kept by chat it is always 0. */
  find(kind: RemoteIdKind, remoteId: string, scope?: number): number | undefined {
    if (!SCOPED.has(kind) || scope !== undefined)
      return localIdOrUndefined(
        this.#db.get<{ id: number }>(
          `SELECT id FROM ${NAMED_IN_SCOPE}`,
          KIND_CODES[kind],
          SCOPED.has(kind) ? (scope as number) : 0,
          remoteId,
        ),
      );
    return localIdOrUndefined(
      this.#db.get<{ id: number }>(
        'SELECT id FROM remote_ids WHERE (id & 7) = ? AND remote_id = ?',
        KIND_CODES[kind],
        remoteId,
      ),
    );
  }

  /** Which of these remote ids have a local id already. */
  known(kind: RemoteIdKind, remoteIds: readonly string[], scope = 0): Set<string> {
    if (!this.#mayName(kind, SCOPED.has(kind) ? scope : 0)) return new Set();
    return new Set(
      this.#db
        .all<{ remote_id: string }>(
          `SELECT remote_id FROM ${LISTED_IN_SCOPE}`,
          KIND_CODES[kind],
          SCOPED.has(kind) ? scope : 0,
          JSON.stringify(remoteIds),
        )
        .map((row) => row.remote_id),
    );
  }

  /** The remote id a local id stands for (undefined: never seen through V3). */
  remoteId(kind: RemoteIdKind, localId: number): string | undefined {
    return this.#db.get<{ remote_id: string }>(
      'SELECT remote_id FROM remote_ids WHERE id = ?',
      rowIdOf(kind, localId),
    )?.remote_id;
  }

  /** The remote ids of many local ids of one kind (those never seen through V3 are absent). */
  remoteIdsOf(kind: RemoteIdKind, localIds: readonly number[]): Map<number, string> {
    const found = new Map<number, string>();
    if (localIds.length === 0) return found;
    for (const row of this.#db.all<{ id: number; remote_id: string }>(
      'SELECT id, remote_id FROM remote_ids WHERE id IN (SELECT value FROM json_each(?))',
      JSON.stringify(localIds.map((localId) => rowIdOf(kind, localId))),
    ))
      found.set(localIdOf(row.id), row.remote_id);
    return found;
  }

  /**
   * Names an entity the store already has (a V2 chat or message) by its remote id. A remote id bound
   * before to another local id is moved: the V2 entity is the one the user's state hangs on. A chat
   * moved so takes its messages' and reactions' ids along (they are kept by their chat's local id).
   */
  bind(kind: RemoteIdKind, remoteId: string, localId: number, scope = 0): void {
    const inScope = SCOPED.has(kind) ? scope : 0;
    this.#adding(kind, inScope);
    // A chat's ids may move to this local id (below).
    if (kind === 'chat') this.#emptyScopes.delete(localId);
    const before = kind === 'chat' ? this.find('chat', remoteId) : undefined;
    this.#db.run(`DELETE FROM ${NAMED_IN_SCOPE}`, KIND_CODES[kind], inScope, remoteId);
    this.#db.run('DELETE FROM remote_ids WHERE id = ?', rowIdOf(kind, localId));
    this.#db.run(
      'INSERT INTO remote_ids (id, scope, remote_id) VALUES (?, ?, ?)',
      rowIdOf(kind, localId),
      inScope,
      remoteId,
    );
    if (before !== undefined && before !== localId)
      this.#db.run(
        'UPDATE remote_ids SET scope = ? WHERE scope = ? AND (id & 7) IN (?, ?)',
        localId,
        before,
        KIND_CODES.message,
        KIND_CODES.reaction,
      );
  }

  /** Whether the chat holds a stored message no remote id names yet (a V2 past V3 may list again). */
  hasUnnamedMessages(chatId: number): boolean {
    return (
      this.#db.get(
        `SELECT 1 AS x FROM messages m
         WHERE m.chat_id = ? AND m.id IS NOT NULL AND m.deleted = 0
           AND NOT EXISTS (SELECT 1 FROM remote_ids r WHERE r.id = m.id * 8 + ?) LIMIT 1`,
        chatId,
        KIND_CODES.message,
      ) !== undefined
    );
  }

  /**
   * A stored message (of a V2 past) that is this V3 message: same chat and direction, same text,
   * sent within `toleranceMs`, and not yet named by another remote id. The nearest in time wins.
   */
  matchStoredMessage(
    chatId: number,
    message: { sentAt: number; text: string; fromMe: boolean },
    toleranceMs = 2_000,
  ): number | undefined {
    return this.#db.get<{ id: number }>(
      `SELECT m.id FROM messages m
       WHERE m.chat_id = ? AND m.from_me = ? AND m.text = ? AND m.id IS NOT NULL AND m.deleted = 0
         AND m.sent_at BETWEEN ? AND ?
         AND NOT EXISTS (SELECT 1 FROM remote_ids r WHERE r.id = m.id * 8 + ?)
       ORDER BY abs(m.sent_at - ?) LIMIT 1`,
      chatId,
      message.fromMe ? 1 : 0,
      message.text,
      message.sentAt - toleranceMs,
      message.sentAt + toleranceMs,
      KIND_CODES.message,
      message.sentAt,
    )?.id;
  }

  /** Whether ids of `kind` in `scope` (or, for a scoped kind, first named without it) may exist. */
  #mayName(kind: RemoteIdKind, scope: number): boolean {
    if (!SCOPED.has(kind) || scope === 0) return true;
    if (!this.#emptyScopes.has(scope)) {
      const any = this.#db.get(
        'SELECT 1 AS x FROM remote_ids INDEXED BY remote_ids_named WHERE scope = ? LIMIT 1',
        scope,
      );
      if (any !== undefined) return true;
      this.#emptyScopes.add(scope);
    }
    this.#unscopedNamed ??=
      this.#db.get(
        'SELECT 1 AS x FROM remote_ids WHERE scope = 0 AND (id & 7) IN (?, ?) LIMIT 1',
        KIND_CODES.message,
        KIND_CODES.reaction,
      ) !== undefined;
    return this.#unscopedNamed;
  }

  /** Ids of `kind` are being added to `scope`: no longer known empty. */
  #adding(kind: RemoteIdKind, scope: number): void {
    if (!SCOPED.has(kind)) return;
    if (scope === 0) this.#unscopedNamed = true;
    else this.#emptyScopes.delete(scope);
  }

  #scopeOf(v3ChatId: string | undefined): number | undefined {
    return v3ChatId === undefined ? undefined : this.chat(v3ChatId);
  }
}
