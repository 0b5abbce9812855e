import { smsSegments, segmentWarning } from '../lib/segments.ts';

/** Live SMS length: encoding, parts and what is left in this part; warns on Unicode and long texts. */
export function SegmentCounter({ text }: { text: string }) {
  const info = smsSegments(text);
  if (info.segments === 0) return null;
  const warning = segmentWarning(info, text);
  return (
    <span
      className={`segment-counter${warning ? ' has-warning' : ''}`}
      title={warning ?? undefined}
      aria-live="polite"
    >
      <span>{info.encoding === 'GSM-7' ? 'GSM-7' : 'Unicode'}</span>
      <span>
        {info.remaining} left · {info.segments} {info.segments === 1 ? 'part' : 'parts'}
      </span>
      {warning && <span className="segment-warning">{warning}</span>}
    </span>
  );
}
