import { useState, type ReactNode } from 'react';

/** A form's one error: the field it names (marked invalid and described by it), or none. */
export type FieldError<Field extends string> = { field: Field | null; text: string };

/**
 * The error state of a form whose fields are `FormField`s: `field(name, id, label)` gives a field the
 * props that mark it invalid and point it at the error when the error names it, so every field of
 * the form is wired the same way.
 */
export function useFieldError<Field extends string>(errorId: string) {
  const [error, setError] = useState<FieldError<Field> | null>(null);
  const field = (name: Field, id: string, label: string) => ({
    id,
    label,
    invalid: error?.field === name,
    errorId,
  });
  return { error, setError, field };
}

/**
 * The frame of a form that adds a workspace (connecting an organization, joining a team): a heading
 * and a line of help, the fields, the error announced under them, Cancel and the submit button. The
 * browser's own validation is off: the form says what is missing in its own words.
 */
export function WorkspaceForm({
  title,
  intro,
  errorId,
  error,
  busy,
  submitLabel,
  onSubmit,
  onCancel,
  children,
}: {
  title: string;
  intro: string;
  /** The id of the error's paragraph, which the invalid field names in `aria-describedby`. */
  errorId: string;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  onSubmit(): void;
  onCancel(): void;
  children: ReactNode;
}) {
  return (
    <form
      className="form connect-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h3>{title}</h3>
      <p className="muted small">{intro}</p>
      {children}
      {error && (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
