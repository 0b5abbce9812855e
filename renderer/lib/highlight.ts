/**
 * Search snippets from the core mark matches between \u0002 and \u0003 (control characters that
 * cannot occur in message text). This splits them into parts the UI renders with <mark>.
 */
export interface SnippetPart {
  text: string;
  match: boolean;
}

const START = '\u0002';
const END = '\u0003';

export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let buffer = '';
  const flush = (): void => {
    if (buffer === '') return;
    const last = parts[parts.length - 1];
    // Adjacent parts of the same kind merge (e.g. an empty marked run between two texts).
    if (last && last.match === match) last.text += buffer;
    else parts.push({ text: buffer, match });
    buffer = '';
  };
  for (const ch of snippet) {
    if (ch === START || ch === END) {
      flush();
      match = ch === START;
      continue;
    }
    buffer += ch;
  }
  flush();
  return parts;
}

/** The snippet as plain text (for titles and accessible names). */
export function snippetText(snippet: string): string {
  return snippet.replaceAll(START, '').replaceAll(END, '');
}

/** Marks occurrences of `query`'s words in `text` the same way, for local lists (chats, contacts). */
export function markQuery(text: string, query: string): string {
  const words = query
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return text;
  return text.replace(new RegExp(`(${words.join('|')})`, 'gi'), `${START}$1${END}`);
}
