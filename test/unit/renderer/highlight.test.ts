import { describe, expect, it } from 'vitest';
import { markQuery, parseSnippet, snippetText } from '../../../renderer/lib/highlight.ts';

describe('parseSnippet', () => {
  it('splits marked matches from plain text', () => {
    expect(parseSnippet('Send the \u0002invoice\u0003 to \u0002me\u0003')).toEqual([
      { text: 'Send the ', match: false },
      { text: 'invoice', match: true },
      { text: ' to ', match: false },
      { text: 'me', match: true },
    ]);
  });

  it('tolerates empty and unterminated markers', () => {
    expect(parseSnippet('a\u0002\u0003b')).toEqual([{ text: 'ab', match: false }]);
    expect(parseSnippet('a\u0002b')).toEqual([
      { text: 'a', match: false },
      { text: 'b', match: true },
    ]);
    expect(parseSnippet('')).toEqual([]);
  });
});

describe('snippetText and markQuery', () => {
  it('strips markers', () => {
    expect(snippetText('x\u0002y\u0003z')).toBe('xyz');
  });

  it('marks each query word, case-insensitively, escaping regex characters', () => {
    expect(parseSnippet(markQuery('Ana Lima (VIP)', 'lima (vip'))).toEqual([
      { text: 'Ana ', match: false },
      { text: 'Lima', match: true },
      { text: ' ', match: false },
      { text: '(VIP', match: true },
      { text: ')', match: false },
    ]);
    expect(markQuery('abc', '  ')).toBe('abc');
  });
});
