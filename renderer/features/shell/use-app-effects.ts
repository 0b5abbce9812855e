/**
 * App-wide effects that follow the store: the theme on <html>, the unread total in the title, and
 * the global keyboard shortcuts (one table in lib/keyboard.ts, shared with the shortcut sheet).
 */
import { useEffect } from 'react';
import { selectChat } from '../../actions/chats.ts';
import { updateDocumentTitle } from '../../actions/notifications.ts';
import { isUnread } from '../../lib/chat-presentation.ts';
import { isMac, matchShortcut, neighbourId } from '../../lib/keyboard.ts';
import { getState, useStore } from '../../store/index.ts';
import { unreadTotal } from '../../store/lines-slice.ts';

export function useTheme(): void {
  const theme = useStore((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = theme === 'dark' || (theme === 'system' && media.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
      document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}

export function useDocumentTitle(): void {
  const total = useStore((s) => unreadTotal(s.lines));
  const workspace = useStore((s) => s.workspaces.find((w) => w.id === s.activeWorkspaceId)?.name ?? null);
  useEffect(() => updateDocumentTitle(total, workspace), [total, workspace]);
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useShortcuts(): void {
  useEffect(() => {
    const mac = isMac(navigator.platform || navigator.userAgent);
    const onKeyDown = (event: KeyboardEvent) => {
      const id = matchShortcut(event, mac, isTextField(event.target));
      if (!id) return;
      const s = getState();
      const dialogOpen = s.overlay !== null || s.viewer !== null;
      switch (id) {
        case 'closePanel':
          // Dialogs handle Esc themselves; this closes what is left, innermost first.
          if (s.viewer) s.setViewer(null);
          else if (s.overlay) s.setOverlay(null);
          else if (s.editing) s.setEditing(null);
          else if (s.detailsOpen) s.setDetailsOpen(false);
          else return;
          break;
        case 'quickSwitcher':
          s.setOverlay(s.overlay === 'quickSwitcher' ? null : 'quickSwitcher');
          break;
        case 'newChat':
          s.setOverlay('newChat');
          break;
        case 'shortcuts':
          s.setOverlay('shortcuts');
          break;
        case 'search':
          if (dialogOpen) return;
          s.setView('inbox');
          s.requestSearchFocus();
          break;
        case 'details':
          if (s.selectedChatId === null) return;
          s.setDetailsOpen(!s.detailsOpen);
          break;
        case 'previousChat':
        case 'nextChat':
        case 'previousUnread':
        case 'nextUnread': {
          if (dialogOpen) return;
          const direction = id === 'previousChat' || id === 'previousUnread' ? -1 : 1;
          const unreadOnly = id === 'previousUnread' || id === 'nextUnread';
          const next = neighbourId(s.chatIds, s.selectedChatId, direction, (chatId) => {
            const chat = getState().chatsById[chatId];
            return !unreadOnly || (chat !== undefined && isUnread(chat));
          });
          if (next === null) return;
          selectChat(next);
          requestAnimationFrame(() =>
            document
              .querySelector<HTMLElement>(`.chat-row[data-chat-id="${next}"]`)
              ?.scrollIntoView({ block: 'nearest' }),
          );
          break;
        }
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
