import { Search } from 'lucide-react';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/**
 * A list view's header: its title (with whatever stands beside it, a count or a New button) over its
 * search field, and anything that belongs under the search (`children`).
 */
export function ListHeader({
  title,
  beside,
  search,
  children,
}: {
  title: ReactNode;
  /** After the title in its row: a count, a filter pill, a spacer and a button. */
  beside?: ReactNode;
  search: Parameters<typeof SearchField>[0];
  children?: ReactNode;
}) {
  return (
    <div className="inbox-header">
      <div className="inbox-title-row">
        <h1 className="inbox-title">{title}</h1>
        {beside}
      </div>
      <SearchField {...search} />
      {children}
    </div>
  );
}

/** A search input with its magnifier; `label` names it for a screen reader and is its placeholder unless one is given. */
export function SearchField({
  label,
  inputRef,
  ...input
}: {
  label: string;
  inputRef?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'aria-label' | 'ref'>) {
  return (
    <div className="search-field">
      <Search size={15} aria-hidden="true" />
      <input ref={inputRef} type="search" aria-label={label} placeholder={label} {...input} />
    </div>
  );
}

/** A titled group of results: `label` names the section for a screen reader, `heading` is shown. */
export function ResultSection({
  label,
  heading,
  children,
}: {
  label: string;
  heading: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={label}>
      <h2 className="section-label">{heading}</h2>
      <ul className="result-list">{children}</ul>
    </section>
  );
}

/**
 * One result: a button with a title over a second line, between an optional leading icon or avatar
 * and a trailing badge. `active` is given where the list has a selection (the open one is marked
 * current); `snippet` makes the second line a found text, with its matches, rather than a plain line.
 */
export function ResultRow({
  variant,
  active,
  onClick,
  leading,
  title,
  sub,
  snippet = false,
  trailing,
}: {
  /** More classes for the row: `is-message`, `is-note`. */
  variant?: string;
  active?: boolean;
  onClick(): void;
  leading?: ReactNode;
  title: ReactNode;
  sub: ReactNode;
  snippet?: boolean;
  trailing?: ReactNode;
}) {
  const className = ['result-row', variant, active && 'is-active'].filter(Boolean).join(' ');
  return (
    <li>
      <button type="button" className={className} aria-current={active || undefined} onClick={onClick}>
        {leading}
        <span className="result-text">
          <span className="result-title">{title}</span>
          <span className={snippet ? 'result-snippet' : 'result-sub'}>{sub}</span>
        </span>
        {trailing}
      </button>
    </li>
  );
}
