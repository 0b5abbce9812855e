import type { ReactNode } from 'react';

/**
 * A small inline form's two buttons (a note, a hand-off, a link, a custom time): its submit and a
 * quiet Cancel. `variant` adds to the submit's classes (`primary`, `note-save`).
 */
export function SubmitOrCancel({
  label,
  variant,
  disabled,
  onCancel,
}: {
  label: ReactNode;
  variant?: string;
  disabled?: boolean;
  onCancel(): void;
}) {
  return (
    <>
      <button
        type="submit"
        className={variant ? `button small ${variant}` : 'button small'}
        disabled={disabled}
      >
        {label}
      </button>
      <button type="button" className="button small ghost" onClick={onCancel}>
        Cancel
      </button>
    </>
  );
}
