/** What a bubble shows besides its words: a link's card and the reactions it can take. */
import { describe, expect, it } from 'vitest';
import { linkCard } from '../../../renderer/lib/link-card.ts';
import { canReact, isSingleEmoji } from '../../../renderer/lib/reactions.ts';
import { message } from './fixtures.ts';

describe('link cards', () => {
  it('come from a link part or a text that is only a URL, with the host', () => {
    expect(linkCard(message({ text: 'https://www.example.com/a?b=1' }))).toEqual({
      url: 'https://www.example.com/a?b=1',
      host: 'example.com',
    });
    expect(linkCard(message({ text: '', parts: [{ type: 'link', url: 'https://shop.test/x' }] }))).toEqual({
      url: 'https://shop.test/x',
      host: 'shop.test',
    });
  });

  it('not from text around a URL, nor from other schemes', () => {
    expect(linkCard(message({ text: 'see https://example.com' }))).toBeNull();
    expect(linkCard(message({ text: 'javascript:alert(1)' }))).toBeNull();
    expect(linkCard(message({ text: 'ftp://example.com/x' }))).toBeNull();
  });
});

describe('reactions', () => {
  it('only to messages the service knows', () => {
    const sent = message({ fromMe: true, id: 5 });
    expect(canReact(sent)).toEqual({ allowed: true });
    expect(canReact({ ...sent, id: null })).toMatchObject({ allowed: false });
  });

  it('a custom one takes exactly one emoji, modifiers and joiners included', () => {
    for (const emoji of ['🦄', '👍🏽', '👩‍💻', '❤️']) expect(isSingleEmoji(emoji), emoji).toBe(true);
    for (const other of ['', 'a', '🦄🦄', 'ok 👍']) expect(isSingleEmoji(other), other).toBe(false);
  });
});
