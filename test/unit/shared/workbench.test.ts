import { describe, expect, it } from 'vitest';
import { cannedFileSchema } from '../../../shared/canned-file.ts';
import { byLongestWait, isOverdue, renderTemplate, unfilledVariables } from '../../../shared/workbench.ts';

// 23:30 UTC on 21 November 2026: already the 22nd in Tokyo, still the 21st in New York.
const NOW = Date.UTC(2026, 10, 21, 23, 30);
const at = (timeZone: string) => ({ now: NOW, timeZone });

describe('canned-reply variables', () => {
  it('fills each variable from the conversation', () => {
    const result = renderTemplate(
      'Hi {first_name} {last_name} of {company}, {agent_name} here on {line_name} ({line_number}).',
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        company: 'Analytical Engines',
        agent_name: 'Sam',
        line_name: 'Support',
        line_number: '(415) 555-0100',
      },
      at('UTC'),
    );
    expect(result).toEqual({
      text: 'Hi Ada Lovelace of Analytical Engines, Sam here on Support ((415) 555-0100).',
      missing: [],
    });
  });

  it('uses the fallback when a value is missing or blank', () => {
    expect(renderTemplate('Hi {first_name|there}!', {}, at('UTC')).text).toBe('Hi there!');
    expect(renderTemplate('Hi {first_name|there}!', { first_name: '  ' }, at('UTC')).text).toBe('Hi there!');
    expect(renderTemplate('Hi {first_name|there}!', { first_name: 'Ada' }, at('UTC')).text).toBe('Hi Ada!');
  });

  it('leaves a variable with no value and no fallback in place, and reports it', () => {
    const result = renderTemplate('Thanks, {first_name}. Your {company} order', { company: null }, at('UTC'));
    expect(result.text).toBe('Thanks, {first_name}. Your {company} order');
    expect(result.missing).toEqual(['first_name', 'company']);
    expect(unfilledVariables(result.text)).toEqual(['first_name', 'company']);
    expect(unfilledVariables('Thanks, Ada. Your Acme order')).toEqual([]);
  });

  it('keeps braces that are not variables, and reads doubled braces as literal ones', () => {
    const result = renderTemplate(
      'Use code {SAVE10} or {{first_name}} {not a var} {}',
      { first_name: 'Ada' },
      at('UTC'),
    );
    expect(result.text).toBe('Use code {SAVE10} or {first_name} {not a var} {}');
    expect(result.missing).toEqual([]);
    expect(unfilledVariables('Use code {SAVE10} {price|5}')).toEqual([]);
  });

  it("writes today's date in the agent's time zone", () => {
    expect(renderTemplate('{date}', {}, at('Asia/Tokyo')).text).toBe('November 22, 2026');
    expect(renderTemplate('{date}', {}, at('America/New_York')).text).toBe('November 21, 2026');
  });
});

describe('waiting on you', () => {
  it('puts the longest wait first, ties in a stable order', () => {
    const entries = [
      { chatId: 3, since: 300 },
      { chatId: 2, since: 100 },
      { chatId: 1, since: 300 },
      { chatId: 4, since: 200 },
    ];
    expect(entries.sort(byLongestWait).map((e) => e.chatId)).toEqual([2, 4, 1, 3]);
  });

  it('marks waits over the threshold as overdue, and none when the threshold is 0', () => {
    expect(isOverdue(NOW - 15 * 60_000, NOW, 15)).toBe(true);
    expect(isOverdue(NOW - 14 * 60_000, NOW, 15)).toBe(false);
    expect(isOverdue(NOW - 10 * 3_600_000, NOW, 0)).toBe(false);
  });
});

describe('canned-reply set files', () => {
  it('accept a set and refuse anything else with the place at fault', () => {
    const good = { format: 'parley.canned-replies', version: 1, replies: [{ title: 'Hi', body: 'Hello' }] };
    expect(cannedFileSchema.parse(good).replies[0]).toEqual({
      title: 'Hi',
      body: 'Hello',
      group: '',
      attachments: [],
    });
    const noText = cannedFileSchema.safeParse({ ...good, replies: [{ title: 'Hi', body: ' ' }] });
    expect(noText.error?.issues[0]?.path).toEqual(['replies', 0, 'body']);
    expect(cannedFileSchema.safeParse({ ...good, format: 'other' }).success).toBe(false);
    expect(cannedFileSchema.safeParse({ ...good, extra: 1 }).success).toBe(false);
  });
});
