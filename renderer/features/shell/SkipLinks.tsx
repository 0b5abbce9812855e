import type { MouseEvent } from 'react';
import { selectChat } from '../../actions/chats.ts';
import { getState, useStore } from '../../store/index.ts';

/** Focuses the open conversation's row (else the first row shown): where arrow keys go on from. */
function focusConversationList(): boolean {
  const rows = [...document.querySelectorAll<HTMLElement>('.chat-row')].filter(
    (row) => row.offsetParent !== null,
  );
  const row = rows.find((r) => r.getAttribute('aria-current') === 'true') ?? rows[0];
  row?.focus();
  return row !== undefined;
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
