import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../../../electron/core/api/base-url.ts';
import { toE164, toHandle } from '../../../../electron/core/api/phone.ts';

describe('toE164', () => {
  it('normalizes national and formatted input', () => {
    expect(toE164('(415) 555-0123')).toBe('+14155550123');
    expect(toE164('415.555.0123')).toBe('+14155550123');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('0044 20 7946 0958')).toBe('+442079460958');
    expect(toE164('020 7946 0958', 'GB')).toBe('+442079460958');
  });

  it('refuses what cannot be a number, saying what to type', () => {
    expect(() => toE164('12')).toThrow(/international format/);
    expect(() => toE164('call me')).toThrow(
      expect.objectContaining({ kind: 'validation', code: 'invalid_phone_number' }),
    );
    expect(() => toE164('')).toThrow();
  });
});

describe('toHandle', () => {
  it('keeps iMessage email handles (lower case) and normalizes numbers', () => {
    expect(toHandle('Ana.Ruiz@Example.com')).toBe('ana.ruiz@example.com');
    expect(toHandle('4155550123')).toBe('+14155550123');
  });
});

describe('normalizeBaseUrl', () => {
  it('drops trailing slashes and a pasted API prefix', () => {
    expect(normalizeBaseUrl('https://svc.example/')).toBe('https://svc.example');
    expect(normalizeBaseUrl(' https://svc.example/api/partner/v2/ ')).toBe('https://svc.example');
    expect(normalizeBaseUrl('https://svc.example/base/api/partner/v3')).toBe('https://svc.example/base');
  });

  it('refuses what is not an http(s) address', () => {
    expect(() => normalizeBaseUrl('svc.example')).toThrow(/not a web address/);
    expect(() => normalizeBaseUrl('ftp://svc.example')).toThrow(/https:\/\//);
    expect(() => normalizeBaseUrl('https://user:pw@svc.example')).toThrow(/user name/);
  });
});
