import type { MouseEvent } from 'react';
import { selectChat } from '../../actions/chats.ts';
import { getState, useStore } from '../../store/index.ts';

/**
 * Focuses the list's one Tab stop: the open conversation's row, else the row arrow keys last left
 * (the first at start). When that row is scrolled out of the DOM, the list takes the focus and
 * brings it back (features/inbox/use-roving-row.ts).
 */
function focusConversationList(): boolean {
  const list = [
    ...document.querySelectorAll<HTMLElement>('[role="listbox"][aria-label="Conversations"]'),
  ].find((element) => element.offsetParent !== null);
  const stop =
    list?.querySelector<HTMLElement>('.chat-row[tabindex="0"]') ?? (list?.tabIndex === 0 ? list : null);
  stop?.focus();
  return stop !== null && stop !== undefined;
}

function toConversations(event: MouseEvent) {
  event.preventDefault();
  if (focusConversationList()) return;
  // One pane at a time (a narrow window) and a conversation in it: go back to the list first.
  if (getState().selectedChatId !== null) selectChat(null);
  requestAnimationFrame(() => focusConversationList());
}

function toComposer(event: MouseEvent) {
  event.preventDefault();
  document.querySelector<HTMLElement>('.composer textarea')?.focus();
}

/**
 * The first Tab stops: jump past the sidebar and the list to what an agent types into, or to the
 * list itself. Hidden until focused.
 */
export function SkipLinks() {
  const inbox = useStore((s) => s.view === 'inbox');
  const chatOpen = useStore((s) => s.view === 'inbox' && s.selectedChatId !== null);
  if (!inbox) return null;
  return (
    <div className="skip-links">
      <a className="skip-link" href="#conversations" onClick={toConversations}>
        Skip to conversations
      </a>
      {chatOpen && (
        <a className="skip-link" href="#composer" onClick={toComposer}>
          Skip to message composer
        </a>
      )}
    </div>
  );
}
