import { MessageSquareText, Paperclip } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { CannedReply } from '../../../shared/contract/views.ts';
import { insertCanned } from '../../actions/workbench.ts';
import { useFuzzyFilter } from '../../lib/use-fuzzy.ts';
import { getState, useStore } from '../../store/index.ts';
import type { TeamCannedReply } from '../../../shared/contract/team-views.ts';

/** A reply the picker offers: the agent's own, or (on a team's workspace) the team's. */
interface PickerItem {
  key: string;
  source: 'mine' | 'team';
  reply: CannedReply;
}

const NO_TEAM_REPLIES: readonly TeamCannedReply[] = [];

/** A team reply in the shape insertCanned takes (no group, no files). */
function asCanned(reply: TeamCannedReply): CannedReply {
  return {
    id: 0,
    title: reply.title,
    body: reply.body,
    group: '',
    attachments: [],
    updatedAt: reply.updatedAt,
  };
}

/** `/` then letters at the start of the composer: the query that finds a canned reply. */
const SLASH = /^\/(\S*)$/;

export interface CannedPickerState {
  open: boolean;
  listId: string;
  activeId: string | undefined;
  /** Handles arrows, Enter and Escape while open; true when it did. */
  onKeyDown(event: KeyboardEvent): boolean;
  /** Opens the picker without a slash (the shortcut or the button). */
  show(): void;
  list: ReactNode;
}

/**
 * The composer's canned-reply picker, like the quick switcher: typed letters match fuzzily, arrows
 * move, Enter inserts (variables filled), Escape closes.
 */
export function useCannedPicker(chatId: number, text: string): CannedPickerState {
  const mine = useStore((s) => s.canned);
  const onTeam = useStore((s) => s.team !== null);
  const teamReplies = useStore((s) => (s.team ? s.teamReplies : NO_TEAM_REPLIES));
  const canned = useMemo<PickerItem[]>(
    () => [
      ...mine.map((reply) => ({ key: `mine-${reply.id}`, source: 'mine' as const, reply })),
      ...teamReplies.map((r) => ({ key: `team-${r.id}`, source: 'team' as const, reply: asCanned(r) })),
    ],
    [mine, teamReplies],
  );
  const [shown, setShown] = useState(false);
  const [active, setActive] = useState(0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const listId = useId();
  const slash = SLASH.exec(text);
  const query = slash ? (slash[1] ?? '') : '';
  const open = (shown || slash !== null) && dismissedFor !== text;
  const fuzzyFilter = useFuzzyFilter(open);

  const matches = useMemo(
    () => fuzzyFilter(canned, query, ({ reply: r }) => `${r.title} ${r.group} ${r.body}`).slice(0, 8),
    [canned, query, fuzzyFilter],
  );
  const current = Math.min(active, Math.max(0, matches.length - 1));

  const close = () => {
    setShown(false);
    setActive(0);
    setDismissedFor(text);
  };
  const choose = (item: PickerItem | undefined) => {
    if (!item) return;
    close();
    void insertCanned(chatId, item.reply, slash ? text : '');
  };

  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + delta + matches.length) % Math.max(1, matches.length));
      return true;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      if (matches.length > 0) choose(matches[current]);
      else close();
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
      return true;
    }
    return false;
  };

  const list = open ? (
    <div className="canned-picker">
      <ul id={listId} role="listbox" className="quick-list" aria-label="Canned replies">
        {matches.length === 0 && (
          <li className="quick-empty">
            {canned.length === 0 ? (
              <>
                No canned replies yet.{' '}
                <button type="button" className="link-button" onClick={() => getState().setView('canned')}>
                  Create one
                </button>
              </>
            ) : (
              <>Nothing matches “{query}”.</>
            )}
          </li>
        )}
        {matches.map(({ key, source, reply }, i) => (
          <li
            key={key}
            id={`${listId}-${key}`}
            role="option"
            aria-selected={i === current}
            className={`quick-item${i === current ? ' is-active' : ''}`}
            onMouseMove={() => setActive(i)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(matches[i])}
          >
            <MessageSquareText size={15} aria-hidden="true" />
            <span className="quick-label">{reply.title}</span>
            <span className="quick-detail">
              {reply.attachments.length > 0 && <Paperclip size={12} aria-label="With attachments" />}
              {reply.group}
              {onTeam && (
                <span className={`canned-owner is-${source}`}>{source === 'team' ? 'Team' : 'Mine'}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
      <p className="canned-picker-hint">↑↓ to choose · Enter to insert · Esc to close</p>
    </div>
  ) : null;

  return {
    open,
    listId,
    activeId: open && matches[current] ? `${listId}-${matches[current].key}` : undefined,
    onKeyDown,
    show: () => {
      setDismissedFor(null);
      setShown(true);
      setActive(0);
    },
    list,
  };
}
