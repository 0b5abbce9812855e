import { CallRecord } from '../../components/CallRecord.tsx';
import { MessageBubble } from '../../components/MessageBubble.tsx';
import type { Capabilities } from '../../lib/capabilities.ts';
import { formatDayLabel } from '../../lib/format.ts';
import type { ReplyIndex, TimelineItem } from '../../lib/timeline.ts';
import { NoteItem } from '../workbench/Notes.tsx';
import { TeamNoteItem } from '../team/TeamNoteItem.tsx';
import { TIMELINE_MESSAGE_HANDLERS } from './timeline-handlers.ts';

/** What every row of one conversation's timeline is drawn with. */
export interface TimelineRowContext {
  service: string;
  isGroup: boolean;
  now: number;
  offline: boolean;
  editingKey: string | null;
  highlightKey: string | null;
  nameOf(identifier: string): string;
  capabilities: Capabilities;
  threads: ReplyIndex;
}

/**
 * One row of the timeline: a day separator, the "new messages" marker, a call, a private note or a
 * message. A plain function, not a component, so the list's row holds the memoized bubble directly.
 */
export function timelineRow(item: TimelineItem, context: TimelineRowContext) {
  const { now, highlightKey, threads } = context;
  switch (item.kind) {
    case 'day':
      return (
        <div className="day-separator" role="separator" aria-label={formatDayLabel(item.at, now)}>
          <span>{formatDayLabel(item.at, now)}</span>
        </div>
      );
    case 'new-marker':
      return (
        <div className="new-marker" role="separator" aria-label="New messages">
          <span>New messages</span>
        </div>
      );
    case 'call':
      return <CallRecord call={item.call} />;
    case 'note':
      return <NoteItem note={item.note} now={now} highlighted={highlightKey === item.key} />;
    case 'teamNote':
      return <TeamNoteItem note={item.note} now={now} highlighted={highlightKey === item.key} />;
    case 'message':
      return (
        <MessageBubble
          message={item.message}
          service={context.service}
          isGroup={context.isGroup}
          startsRun={item.startsRun}
          endsRun={item.endsRun}
          now={now}
          offline={context.offline}
          editing={context.editingKey === item.message.key}
          highlighted={highlightKey === item.message.key}
          nameOf={context.nameOf}
          handlers={TIMELINE_MESSAGE_HANDLERS}
          capabilities={context.capabilities}
          quoted={item.message.replyTo ? (threads.byV3Id.get(item.message.replyTo.messageId) ?? null) : null}
          replies={item.message.v3Id ? (threads.replies.get(item.message.v3Id) ?? 0) : 0}
        />
      );
  }
}
