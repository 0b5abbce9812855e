import type { Message, ReactionKind } from '../../shared/domain.ts';
import type { MessageHandlers } from './message-handlers.ts';
import { reactionLook } from './reactions.ts';

/** The reactions on a message, one chip per kind (or custom emoji) with who reacted. */
export function ReactionSummary({
  message,
  nameOf,
  handlers,
}: {
  message: Message;
  nameOf(identifier: string): string;
  handlers: Pick<MessageHandlers, 'onReact' | 'onCustomReact'>;
}) {
  const groups = new Map<string, { mine: boolean; who: string[] }>();
  for (const r of message.reactions) {
    // A custom reaction is grouped by its emoji; the six tapbacks by their kind.
    const id = r.kind === 'custom' && r.customEmoji ? `custom:${r.customEmoji}` : r.kind;
    const group = groups.get(id) ?? { mine: false, who: [] };
    group.mine ||= r.fromMe;
    group.who.push(r.fromMe ? 'You' : nameOf(r.from));
    groups.set(id, group);
  }
  return (
    <div className="message-reactions">
      {[...groups].map(([kind, group]) => {
        const custom = kind.startsWith('custom:') ? kind.slice('custom:'.length) : null;
        const look = custom ? { emoji: custom, verb: `Reacted ${custom}` } : reactionLook(kind);
        const label = `${look.verb} by ${group.who.join(', ')}`;
        return (
          <button
            key={kind}
            type="button"
            className={`reaction-chip${group.mine ? ' is-mine' : ''}`}
            title={label}
            aria-label={`${label}.${group.mine ? ' Click to remove yours.' : ''}`}
            aria-pressed={group.mine}
            disabled={message.id === null}
            onClick={() =>
              custom
                ? handlers.onCustomReact(message, custom)
                : handlers.onReact(message, kind as ReactionKind)
            }
          >
            <span aria-hidden="true">{look.emoji}</span>
            {group.who.length > 1 && <span className="reaction-count">{group.who.length}</span>}
            {custom && <span className="reaction-who">{group.who.join(', ')}</span>}
          </button>
        );
      })}
    </div>
  );
}
