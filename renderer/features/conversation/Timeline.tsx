import { ArrowDown } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type FlatIndexLocationWithAlign, type VirtuosoHandle } from 'react-virtuoso';
import { loadOlder } from '../../actions/messages.ts';
import { notePlace } from '../../actions/place.ts';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { useClock } from '../../hooks/use-clock.ts';
import { plural } from '../../lib/format.ts';
import { markNextFrame } from '../../lib/perf.ts';
import { usePhoneFormat } from '../../lib/phone-format.ts';
import { createTimelineBuilder, replyIndex, type TimelineItem } from '../../lib/timeline.ts';
import { getState, useStore } from '../../store/index.ts';
import { EMPTY_TIMELINE } from '../../store/messages-slice.ts';
import { reachabilityOf } from '../../store/workspace-slice.ts';
import { chatCapabilities } from '../../store/capabilities.ts';
import { TIMELINE_COMPONENTS } from './TimelineEdges.tsx';
import { placeKey, startOf } from './timeline-place.ts';
import { timelineRow } from './timeline-row.tsx';
import { useFirstItemIndex } from './use-first-item-index.ts';

const NONE: readonly never[] = [];

/**
 * One conversation's messages, calls and notes, virtualized: opens at the newest (or a marker, a
 * search hit, a kept place), loads older history at the top, counts arrivals while the agent reads above.
 */
export function Timeline({ chatId }: { chatId: number }) {
  const timeline = useStore((s) => s.timelines[chatId] ?? EMPTY_TIMELINE);
  const chat = useStore((s) => s.chatsById[chatId]);
  const formatHandle = usePhoneFormat();
  const capabilities = useStore(chatCapabilities(chatId));
  // Replies among the loaded messages: whom each quotes, and how many answer each.
  const threads = useMemo(() => replyIndex(timeline.messages), [timeline.messages]);
  const calls = useStore((s) => s.details[chatId]?.calls);
  const notes = useStore((s) => s.chatContexts[chatId]?.notes);
  const teamNotes = useStore((s) => s.teamNotes[chatId]);
  const editingKey = useStore((s) => (s.editing?.chatId === chatId ? s.editing.key : null));
  const offline = useStore((s) => reachabilityOf(s) === 'offline');
  const reveal = useStore((s) => (s.reveal?.chatId === chatId ? s.reveal : null));
  const now = useClock();
  const virtuoso = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  // What the list last said of it, null until it says (it may not, opened at a kept place or a marker).
  const atBottomNow = useRef<boolean | null>(null);
  const [unseen, setUnseen] = useState(0);
  const [highlightKey, setHighlightKey] = useState<string | null>(null);
  const painted = useRef(false);
  // Virtuoso draws its header a frame before the first rows: until rows are there, no "Beginning".
  const [rowsShown, setRowsShown] = useState(false);

  // One builder per conversation: a changed message rebuilds its row (and its neighbours'), and
  // every other row keeps its object, so only that bubble renders again.
  const builder = useRef({ chatId, build: createTimelineBuilder() });
  if (builder.current.chatId !== chatId) builder.current = { chatId, build: createTimelineBuilder() };
  const build = builder.current.build;
  const items = useMemo(
    () =>
      build({
        messages: timeline.messages,
        calls: calls ?? NONE,
        notes: notes ?? NONE,
        teamNotes: teamNotes ?? NONE,
        newMarkerKey: timeline.newMarkerKey,
      }),
    [build, timeline.messages, calls, notes, teamNotes, timeline.newMarkerKey],
  );
  const firstItemIndex = useFirstItemIndex(items, chatId);

  // New rows at the bottom while the agent reads above: count the inbound ones for "jump to latest";
  // the agent's own new message always brings the view down.
  const lastKey = useRef<string | null>(null);
  useEffect(() => {
    const previous = lastKey.current;
    const last = items[items.length - 1];
    lastKey.current = last?.key ?? null;
    if (!last || previous === null || last.key === previous) return;
    const start = items.findLastIndex((item) => item.key === previous);
    const added = start >= 0 ? items.slice(start + 1) : [];
    if (added.some((item) => item.kind === 'message' && item.message.fromMe && item.message.id === null)) {
      // Known to be at the newest, the list follows by itself (followOutput): a second scroll would
      // only measure the list again inside the send's frame. Opened at a kept place or a marker, the
      // list may never have said where it is: then it is brought down.
      if (atBottomNow.current !== true) virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
      return;
    }
    if (!atBottom)
      setUnseen((n) => n + added.filter((i) => i.kind === 'message' && !i.message.fromMe).length);
  }, [items, atBottom]);

  // A search hit: once its row is loaded, bring it into view and highlight it for a moment. A list
  // mounting with the hit already in it starts there (initialTopMostItemIndex); one already on screen
  // scrolls to it.
  const revealIndex = reveal ? items.findIndex((item) => item.key === reveal.key) : -1;
  const listShown = useRef(false);
  const startAt = useRef<FlatIndexLocationWithAlign | null>(null);
  const scroller = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!reveal || revealIndex < 0) return;
    if (listShown.current)
      virtuoso.current?.scrollToIndex({ index: revealIndex, align: reveal.highlight ? 'center' : 'start' });
    if (reveal.highlight) setHighlightKey(reveal.key);
    getState().clearReveal(reveal.id);
  }, [reveal, revealIndex]);
  useEffect(() => {
    listShown.current = virtuoso.current !== null;
  });
  useEffect(() => {
    if (highlightKey === null) return;
    const timer = setTimeout(() => setHighlightKey(null), 2500);
    return () => clearTimeout(timer);
  }, [highlightKey]);

  // Where the agent is, noted once the page is idle: reading the rows' positions right after a
  // change would force a layout of the whole list inside that change's frame (a send, a scroll).
  const placeNote = useRef<number | undefined>(undefined);
  const notePlaceSoon = useCallback(() => {
    if (placeNote.current !== undefined) cancelIdleCallback(placeNote.current);
    placeNote.current = requestIdleCallback(
      () => {
        placeNote.current = undefined;
        notePlace({ chatId, topKey: atBottomNow.current === true ? null : placeKey(scroller.current) });
      },
      { timeout: 1_000 },
    );
  }, [chatId]);
  // A note still waiting belongs to this conversation: never to the one opened next.
  useEffect(
    () => () => {
      if (placeNote.current !== undefined) cancelIdleCallback(placeNote.current);
      placeNote.current = undefined;
    },
    [chatId],
  );

  // A conversation on screen is the agent's place, even before any scrolling refines where in it
  // (it starts at the newest, a marker, a hit or a kept place).
  useEffect(() => {
    if (rowsShown) notePlaceSoon();
  }, [rowsShown, notePlaceSoon]);

  // Nothing stored yet while the service may hold history (a chat the first sync has not filled):
  // fetch it instead of calling the conversation empty.
  const historyUnknown =
    chatId > 0 &&
    timeline.status === 'ready' &&
    timeline.messages.length === 0 &&
    !timeline.hasMoreLocal &&
    !timeline.historyComplete;
  useEffect(() => {
    if (historyUnknown) void loadOlder(chatId);
  }, [historyUnknown, chatId]);

  // Every change to the chat (each arrival moves its last activity) brings a new handles array: only
  // a change of the names themselves may render the bubbles again.
  const names = useMemo(
    () =>
      JSON.stringify(
        (chat?.handles ?? []).map((h) => [h.identifier, h.contactName ?? formatHandle(h.identifier)]),
      ),
    [chat?.handles, formatHandle],
  );
  const nameOf = useMemo(() => {
    const named = new Map(JSON.parse(names) as Array<[string, string]>);
    return (identifier: string) => named.get(identifier) ?? formatHandle(identifier);
  }, [names, formatHandle]);

  const renderItem = useCallback(
    (_index: number, item: TimelineItem) =>
      timelineRow(item, {
        service: chat?.service ?? 'SMS',
        isGroup: chat?.isGroup ?? false,
        now,
        offline,
        editingKey,
        highlightKey,
        nameOf,
        capabilities,
        threads,
      }),
    [chat?.service, chat?.isGroup, now, offline, editingKey, highlightKey, nameOf, capabilities, threads],
  );

  if (timeline.status === 'loading' && timeline.messages.length === 0)
    return (
      <div className="timeline-placeholder">
        <Spinner label="Loading messages" />
      </div>
    );
  if (timeline.status === 'error')
    return (
      <div className="timeline-placeholder">
        <EmptyState tone="error" title="Messages could not be loaded">
          {timeline.error}
        </EmptyState>
      </div>
    );
  if (items.length === 0 && (timeline.loadingOlder || (historyUnknown && !timeline.olderError)))
    return (
      <div className="timeline-placeholder">
        <Spinner label="Loading messages" />
      </div>
    );
  if (items.length === 0)
    return (
      <div className="timeline-placeholder">
        <EmptyState title="No messages yet">
          Say hello: your first message starts the conversation.
        </EmptyState>
      </div>
    );

  // Where the list starts, fixed when it first shows (Virtuoso scrolls again if this changes): a
  // search hit, else the "new messages" marker, else the newest message.
  startAt.current ??= startOf(items, reveal && revealIndex >= 0 ? { index: revealIndex, ...reveal } : null);
  // The first frame with this conversation's rows in it (bench:ui's "switch to first paint").
  const onRowsRendered = (rendered: readonly { size: number }[]) => {
    // Virtuoso's first pass renders one invisible row to measure it; rows with a size are on screen.
    if (!rowsShown && rendered.some((row) => row.size > 0)) setRowsShown(true);
    if (painted.current || rendered.length === 0) return;
    painted.current = true;
    markNextFrame('timeline-painted', chatId);
  };
  return (
    <div className="timeline">
      <Virtuoso
        key={chatId}
        ref={virtuoso}
        className="timeline-scroller"
        data={items}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={startAt.current}
        computeItemKey={(_i, item) => item.key}
        itemContent={renderItem}
        components={TIMELINE_COMPONENTS}
        context={{
          chatId,
          loadingOlder: timeline.loadingOlder,
          // Never "Beginning of the conversation" while the messages are still on their way.
          complete:
            rowsShown && timeline.status === 'ready' && !timeline.hasMoreLocal && timeline.historyComplete,
          olderError: timeline.olderError,
        }}
        alignToBottom
        followOutput={(isAtBottom) => (isAtBottom ? 'auto' : false)}
        atBottomThreshold={48}
        atBottomStateChange={(bottom) => {
          atBottomNow.current = bottom;
          setAtBottom(bottom);
          if (bottom) setUnseen(0);
          if (bottom) notePlace({ chatId, topKey: null });
        }}
        isScrolling={(scrolling) => {
          if (!scrolling) notePlaceSoon();
        }}
        scrollerRef={(element) => {
          scroller.current = element instanceof HTMLElement ? element : null;
        }}
        startReached={() => void loadOlder(chatId)}
        itemsRendered={onRowsRendered}
        increaseViewportBy={{ top: 600, bottom: 300 }}
        tabIndex={-1}
      />
      {!atBottom && (
        <button
          type="button"
          className="jump-latest"
          onClick={() => {
            virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' });
            setUnseen(0);
          }}
        >
          <ArrowDown size={14} aria-hidden="true" />
          {unseen > 0 ? plural(unseen, 'new message') : 'Jump to latest'}
        </button>
      )}
    </div>
  );
}
