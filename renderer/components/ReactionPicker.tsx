import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Message, ReactionKind } from '../../shared/domain.ts';
import { isSingleEmoji } from '../lib/reactions.ts';
import { REACTIONS } from './reactions.ts';

/**
 * The reaction menu: the six tapbacks (arrow keys move between them) and, where the workspace takes
 * them (`customEmoji`), a field for any one emoji.
 */
export function ReactionPicker({
  message,
  customEmoji,
  onPick,
  onPickEmoji,
  onClose,
}: {
  message: Message;
  /** The workspace takes any emoji as a reaction (capability `customReactions`). */
  customEmoji: boolean;
  onPick(kind: ReactionKind): void;
  onPickEmoji(emoji: string): void;
  onClose(): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [emoji, setEmoji] = useState('');
  const emojiOk = isSingleEmoji(emoji);
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const onDocument = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', onDocument);
    return () => document.removeEventListener('mousedown', onDocument);
  }, [onClose]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      if (event.target instanceof HTMLInputElement) return;
      const buttons = [
        ...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitemcheckbox"]') ?? []),
      ];
      const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
      buttons[(index + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
    }
  };
  return (
    <div ref={ref} className="reaction-picker" onKeyDown={onKeyDown}>
      <div className="reaction-picker-menu" role="menu" aria-label="Reactions">
        {REACTIONS.map((r) => {
          const mine = message.reactions.some((x) => x.fromMe && x.kind === r.kind);
          return (
            <button
              key={r.kind}
              type="button"
              role="menuitemcheckbox"
              aria-checked={mine}
              aria-label={mine ? `Remove ${r.label}` : r.label}
              title={r.label}
              className={mine ? 'is-mine' : ''}
              onClick={() => onPick(r.kind)}
            >
              {r.emoji}
            </button>
          );
        })}
      </div>
      {customEmoji && (
        <form
          className="reaction-custom"
          title="Any emoji"
          onSubmit={(e) => {
            e.preventDefault();
            if (emojiOk) onPickEmoji(emoji.trim());
          }}
        >
          <input
            aria-label="Any emoji as a reaction"
            placeholder="Any emoji"
            value={emoji}
            aria-invalid={emoji.trim() !== '' && !emojiOk}
            onChange={(e) => setEmoji(e.target.value)}
          />
          <button type="submit" className="button small" disabled={!emojiOk}>
            React
          </button>
          {emoji.trim() !== '' && !emojiOk && (
            <span className="field-error" role="status">
              One emoji only
            </span>
          )}
        </form>
      )}
    </div>
  );
}
