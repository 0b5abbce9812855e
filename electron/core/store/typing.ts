/**
 * Who is typing in which chat. In memory only: an indicator is meaningless after a restart. Each
 * indicator expires after 60 s unless renewed or removed (the service may never send the removal).
 */
export class TypingState {
  readonly #byChat = new Map<number, Map<string, ReturnType<typeof setTimeout>>>();
  readonly #changed: (chatId: number, identifiers: string[]) => void;
  readonly #timeoutMs: number;

  constructor(changed: (chatId: number, identifiers: string[]) => void, timeoutMs = 60_000) {
    this.#changed = changed;
    this.#timeoutMs = timeoutMs;
  }

  set(chatId: number, identifier: string, display: boolean): void {
    const chat = this.#byChat.get(chatId) ?? new Map<string, ReturnType<typeof setTimeout>>();
    const existing = chat.get(identifier);
    if (existing) clearTimeout(existing);
    if (!display) {
      if (!existing) return;
      chat.delete(identifier);
    } else {
      const timer = setTimeout(() => this.set(chatId, identifier, false), this.#timeoutMs);
      timer.unref?.();
      chat.set(identifier, timer);
      if (existing) return; // renewed, nothing visible changed
    }
    this.#byChat.set(chatId, chat);
    this.#changed(chatId, this.of(chatId));
  }

  /** Everyone in the chat stops (a message arrived from them, or the chat was refreshed). */
  clear(chatId: number, identifier?: string): void {
    const chat = this.#byChat.get(chatId);
    if (!chat) return;
    for (const [id, timer] of chat) {
      if (identifier !== undefined && id !== identifier) continue;
      clearTimeout(timer);
      chat.delete(id);
    }
    this.#changed(chatId, this.of(chatId));
  }

  of(chatId: number): string[] {
    return [...(this.#byChat.get(chatId)?.keys() ?? [])];
  }

  dispose(): void {
    for (const chat of this.#byChat.values()) for (const timer of chat.values()) clearTimeout(timer);
    this.#byChat.clear();
  }
}
