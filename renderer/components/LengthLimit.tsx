import { formatCount, tooLongText } from '../../shared/contract/input-words.ts';

/**
 * A text field's length against its limit (from shared/contract/limits.ts): the count, and past the
 * limit the refusal in the same words the core would use. It replaces `maxLength`, which cuts pasted
 * text without a word; the form refuses to save while `lengthProblem` names one.
 */
export function LengthLimit({
  id,
  label,
  length,
  max,
  from = 0,
}: {
  /** For the field's `aria-describedby`. */
  id: string;
  /** The field as the agent calls it ("the note"), to start the refusal. */
  label: string;
  length: number;
  max: number;
  /** Show the count only from this length on (a long limit need not count every word). */
  from?: number;
}) {
  const over = length > max;
  // Only the refusal is announced: a count read out at every keystroke would drown the typing.
  return (
    <span id={id} className={over ? 'field-error' : 'field-hint'}>
      {!over && length >= from ? `${formatCount(length)} / ${formatCount(max)}` : ''}
      <span aria-live="polite">{over ? tooLongText(label, max, length) : ''}</span>
    </span>
  );
}

/** The refusal for a field over its limit, or null. */
export function lengthProblem(label: string, length: number, max: number): string | null {
  return length > max ? tooLongText(label, max, length) : null;
}
