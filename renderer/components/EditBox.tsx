import { useEffect, useRef, useState } from 'react';

/** Editing a sent message's text in place: Enter saves (an unchanged or empty text cancels), Esc cancels. */
export function EditBox({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave(text: string): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const save = () => {
    const trimmed = text.trim();
    if (trimmed && trimmed !== initial.trim()) onSave(trimmed);
    else onCancel();
  };
  return (
    <div className="edit-box">
      <textarea
        ref={ref}
        aria-label="Edit message"
        value={text}
        rows={Math.min(8, text.split('\n').length + 1)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') {
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="edit-box-actions">
        <span className="hint">Enter to save · Esc to cancel</span>
        <button type="button" className="button small" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button primary small" onClick={save}>
          Save
        </button>
      </div>
    </div>
  );
}
