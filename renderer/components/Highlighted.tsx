import { parseSnippet } from '../lib/highlight.ts';

/** Text with the core's \u0002…\u0003 match markers shown as <mark>. */
export function Highlighted({ snippet }: { snippet: string }) {
  return (
    <>
      {parseSnippet(snippet).map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </>
  );
}
