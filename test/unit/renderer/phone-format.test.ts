/**
 * Numbers on the boot path: a stand-in formatter until libphonenumber-js has loaded on demand, then
 * the full one. The stand-in must write US numbers exactly as the full formatter does, so the rows
 * the inbox draws first do not change when it arrives.
 */
import { describe, expect, it } from 'vitest';
import { formatHandle as fullFormat } from '../../../shared/phone.ts';
import { formatHandle, interimFormat, loadPhoneFormat } from '../../../renderer/lib/phone-format.ts';

const US = ['+14155550142', '+16285550177', '+12125551234', '+13105550199', '+18005550100', '+12015550123'];

describe('phone numbers before and after the full formatter loads', () => {
  it('writes US numbers as the full formatter does, and leaves the rest as their handle', () => {
    for (const number of US) expect(interimFormat(number)).toBe(fullFormat(number));
    expect(interimFormat('+447700900123')).toBe('+447700900123');
    expect(interimFormat('ana@example.com')).toBe('ana@example.com');
    expect(interimFormat('+1415555014')).toBe('+1415555014');
  });

  it('uses the stand-in until the full formatter is in, then the full one', async () => {
    expect(formatHandle('+447700900123')).toBe('+447700900123');
    await loadPhoneFormat();
    expect(formatHandle('+447700900123')).toBe('+44 7700 900123');
    expect(formatHandle('+14165550100')).toBe('+1 416 555 0100');
    expect(formatHandle('+14155550142')).toBe('(415) 555-0142');
  });
});
