/** `@name` in a team note reaches the agent it names, and nothing else looks like a mention. */
import { describe, expect, it } from 'vitest';
import { parseMentions } from '../../../electron/core/team/mentions.ts';

const team = [
  { id: 'dana-1a2b3c', name: 'Dana Lee' },
  { id: 'dan-4d5e6f', name: 'Dan Park' },
  { id: 'eli-777777', name: 'Eli' },
];

describe('parseMentions', () => {
  it('finds an agent by full name, first name or id, whatever the case', () => {
    expect(parseMentions('@dana lee can you check?', team)).toEqual(['dana-1a2b3c']);
    expect(parseMentions('ping @ELI', team)).toEqual(['eli-777777']);
    expect(parseMentions('cc @dan-4d5e6f', team)).toEqual(['dan-4d5e6f']);
  });

  it('prefers the longest name, so "@Dana" is not "@Dan"', () => {
    expect(parseMentions('@Dana, then @Dan.', team)).toEqual(['dana-1a2b3c', 'dan-4d5e6f']);
  });

  it('ignores an @ inside a word (an email address) and a name that runs on', () => {
    expect(parseMentions('mail eli@example.com or @Elias', team)).toEqual([]);
  });

  it('names each agent once however often mentioned', () => {
    expect(parseMentions('@Eli @eli @Eli!', team)).toEqual(['eli-777777']);
  });

  it('does not use a first name two agents share', () => {
    const twins = [
      { id: 'sam-1', name: 'Sam Ray' },
      { id: 'sam-2', name: 'Sam Cole' },
    ];
    expect(parseMentions('@sam help', twins)).toEqual([]);
    expect(parseMentions('@Sam Cole help', twins)).toEqual(['sam-2']);
  });
});
