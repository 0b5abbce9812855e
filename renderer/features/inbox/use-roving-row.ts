/**
 * The inbox as one Tab stop (a roving tabindex over a virtualized listbox): one row, the active
 * one, has tabIndex 0 and the others -1; arrow keys, Home and End move the active row and the
 * focus, scrolling it into view first, since a row far from the screen is not in the DOM. The
 * active row follows the open conversation (a click, Alt+↑/↓, the quick switcher) and the focus.
 * While the active row is scrolled out of the DOM, the list itself is the Tab stop and hands the
 * focus on to it.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { ListItem, VirtuosoHandle } from 'react-virtuoso';

export interface RovingRows {
  /** The row that is the list's Tab stop. */
  activeId: number | null;
  /** Whether that row is in the DOM now (else the list itself takes the Tab stop). */
  activeRendered: boolean;
  onKeyDown(event: KeyboardEvent): void;
  /** The focus entered a row (or the list itself, which passes it on to the active row). */
  onFocus(event: FocusEvent): void;
  /** Virtuoso's `itemsRendered`: which rows are in the DOM. */
  noteRendered(items: readonly ListItem<number>[]): void;
}

function rowElement(chatId: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.chat-row[data-chat-id="${chatId}"]`);
}

/** The row for `chatId` once it is in the DOM (a scroll renders it within a frame or two). */
function focusRowSoon(chatId: number, triesLeft = 10): void {
  const row = rowElement(chatId);
  if (row) row.focus();
  else if (triesLeft > 0) requestAnimationFrame(() => focusRowSoon(chatId, triesLeft - 1));
}

export function useRovingRows(
  chatIds: readonly number[],
  selectedChatId: number | null,
  list: RefObject<VirtuosoHandle | null>,
): RovingRows {
  const [chosen, setChosen] = useState<number | null>(null);
  const [rendered, setRendered] = useState<ReadonlySet<number>>(new Set());

  // Opening a conversation by any means makes its row the one Tab comes back to.
  useEffect(() => {
    if (selectedChatId !== null) setChosen(selectedChatId);
  }, [selectedChatId]);

  const activeId =
    chosen !== null && chatIds.includes(chosen)
      ? chosen
      : selectedChatId !== null && chatIds.includes(selectedChatId)
        ? selectedChatId
        : (chatIds[0] ?? null);
  const latest = useRef({ activeId, chatIds });
  latest.current = { activeId, chatIds };

  const moveTo = useCallback(
    (index: number) => {
      const id = latest.current.chatIds[index];
      if (id === undefined) return;
      setChosen(id);
      list.current?.scrollIntoView({ index });
      focusRowSoon(id);
    },
    [list],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      // Alt+↑/↓ (open the previous or next conversation) and other shortcuts stay the app's.
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const { activeId: current, chatIds: ids } = latest.current;
      const index = current === null ? -1 : ids.indexOf(current);
      let next: number;
      if (event.key === 'ArrowDown') next = Math.min(ids.length - 1, index + 1);
      else if (event.key === 'ArrowUp') next = Math.max(0, index - 1);
      else if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = ids.length - 1;
      else return;
      event.preventDefault();
      moveTo(next);
    },
    [moveTo],
  );

  const onFocus = useCallback(
    (event: FocusEvent) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.chat-row');
      if (row) {
        setChosen(Number(row.dataset.chatId));
        return;
      }
      // The list itself got the focus (its row is not in the DOM): bring the row and the focus there.
      const { activeId: current, chatIds: ids } = latest.current;
      if (event.target === event.currentTarget.querySelector('[role="listbox"]') && current !== null)
        moveTo(ids.indexOf(current));
    },
    [moveTo],
  );

  const noteRendered = useCallback((items: readonly ListItem<number>[]) => {
    const ids = new Set(items.flatMap((item) => (item.data === undefined ? [] : [item.data])));
    setRendered((before) =>
      before.size === ids.size && [...ids].every((id) => before.has(id)) ? before : ids,
    );
  }, []);

  return {
    activeId,
    activeRendered: activeId !== null && rendered.has(activeId),
    onKeyDown,
    onFocus,
    noteRendered,
  };
}
