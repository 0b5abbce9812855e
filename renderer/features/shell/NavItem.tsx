import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** One entry of the left rail: an icon, a label, the current page marked, and an optional count. */
export function NavItem({
  icon: Icon,
  label,
  active,
  onClick,
  children,
}: {
  icon: LucideIcon;
  label: string;
  active: boolean;
  onClick: () => void;
  /** What follows the label: a count badge. */
  children?: ReactNode;
}) {
  return (
    <li>
      <button
        type="button"
        className={`nav-item${active ? ' is-active' : ''}`}
        aria-current={active ? 'page' : undefined}
        onClick={onClick}
      >
        <Icon size={16} aria-hidden="true" />
        <span>{label}</span>
        {children}
      </button>
    </li>
  );
}
