import type { InputHTMLAttributes } from 'react';

/** A labelled on/off switch with an optional hint line (Settings' rows). */
export function Toggle({
  label,
  hint,
  checked,
  disabled = false,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className={`toggle-row${disabled ? ' is-disabled' : ''}`}>
      <span className="toggle-text">
        <span>{label}</span>
        {hint && <span className="muted small">{hint}</span>}
      </span>
      <input
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
    </label>
  );
}

/** One choice of a radio list, its hint under its label (the API version, the live panel's tunnel). */
export function RadioRow({
  label,
  hint,
  onSelect,
  ...input
}: {
  label: string;
  hint: string;
  onSelect(): void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'>) {
  return (
    <label className="radio-row">
      <input type="radio" {...input} onChange={onSelect} />
      <span className="toggle-text">
        <span>{label}</span>
        <span className="muted small">{hint}</span>
      </span>
    </label>
  );
}
