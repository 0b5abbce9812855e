/** The malformed cases themselves: each starts from an accepted input and breaks exactly one thing. */
import { describe, expect, it } from 'vitest';
import { methods, METHOD_NAMES } from '../../../shared/contract/methods.ts';
import { ALL_MALFORMED, VALID_INPUTS } from './malformed.ts';

describe('the malformed-input cases', () => {
  it.each(METHOD_NAMES)('start from an input %s accepts', (method) => {
    expect(methods[method].input.safeParse(VALID_INPUTS[method]).success).toBe(true);
  });

  it('cover every method, with wrong types, missing required fields and unknown fields', () => {
    const kinds = (suffix: string) =>
      new Set(ALL_MALFORMED.filter((c) => c.what.endsWith(suffix)).map((c) => c.method));
    expect(kinds('an unknown field').size).toBe(METHOD_NAMES.length);
    // Every method with fields has a wrong-type case; every method with a required field, a missing one.
    const withFields = METHOD_NAMES.filter((m) => Object.keys(VALID_INPUTS[m]).length > 0);
    expect([...kinds('of the wrong type')].sort()).toEqual([...withFields].sort());
  });

  it('treat a field as required exactly when the schema does', () => {
    const missing = (method: string) =>
      ALL_MALFORMED.filter((c) => c.method === method && c.what.endsWith('missing')).map((c) => c.field);
    expect(missing('workspaces.add')).toEqual(['name', 'baseUrl', 'token']);
    expect(missing('chats.list')).toEqual([]); // every filter is optional or defaulted
    expect(missing('chats.open')).toEqual(['chatId', 'focused']); // nullable is not optional
    expect(missing('messages.send')).toEqual(['chatId', 'text']);
  });
});
