import type { ButtonHTMLAttributes } from 'react';

/**
 * A button that shows only an icon (`children`): `label` is its name for a screen reader, so no
 * icon button goes out unnamed. `className` adds to `icon-button` (e.g. `is-active`, `note-button`).
 */
export function IconButton({
  label,
  className,
  children,
  ...button
}: { label: string } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'aria-label'>) {
  return (
    <button
      type="button"
      className={className ? `icon-button ${className}` : 'icon-button'}
      aria-label={label}
      {...button}
    >
      {children}
    </button>
  );
}
