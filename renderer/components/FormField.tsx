import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

/**
 * A labelled input in the form's field layout; `children` stand under it (a hint, a length limit).
 * Its own aria attributes are the caller's: FormField below wires them to the form's error.
 */
export function LabeledInput({
  id,
  label,
  wide = false,
  children,
  ...input
}: {
  id: string;
  label: string;
  /** Spans both columns of a `form-grid`. */
  wide?: boolean;
  children?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'children'>) {
  return (
    <div className={wide ? 'field span-2' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" {...input} />
      {children}
    </div>
  );
}

/** LabeledInput's counterpart for text of several lines; `className` adds to `input` (e.g. `canned-body`). */
export function LabeledTextarea({
  id,
  label,
  wide = false,
  className,
  children,
  ...textarea
}: {
  id: string;
  label: string;
  /** Spans both columns of a `form-grid`. */
  wide?: boolean;
  children?: ReactNode;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'children'>) {
  return (
    <div className={wide ? 'field span-2' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className={className ? `input ${className}` : 'input'} {...textarea} />
      {children}
    </div>
  );
}

/**
 * One labelled input of a form, wired for assistive technology: when the form's error names this
 * field, the input is marked invalid and described by the error (`errorId`), so a screen reader
 * reads why with the field. `hint` is a line under it.
 */
export function FormField({
  invalid,
  errorId,
  hint,
  ...input
}: {
  id: string;
  label: string;
  invalid: boolean;
  errorId: string;
  hint?: ReactNode;
  /** Spans both columns of a `form-grid`. */
  wide?: boolean;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'aria-invalid' | 'aria-describedby'>) {
  return (
    <LabeledInput aria-invalid={invalid} aria-describedby={invalid ? errorId : undefined} {...input}>
      {hint && <span className="field-hint">{hint}</span>}
    </LabeledInput>
  );
}

/** A secret (a token, a join code): hidden as typed, never autofilled, and said where it is kept. */
export function SecretField(props: Omit<Parameters<typeof FormField>[0], 'type' | 'autoComplete' | 'hint'>) {
  return (
    <FormField
      {...props}
      type="password"
      autoComplete="off"
      hint="Stored in your system keychain; Parley never shows it again."
    />
  );
}
