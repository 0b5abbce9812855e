import { describe, expect, it } from 'vitest';
import { PartnerApiClient } from '../../../../../electron/core/api/client.ts';
import { PartnerApiV3Client } from '../../../../../electron/core/api/v3/client.ts';

describe('V3 client beside V2', () => {
  it('given one token, when V2 and V3 clients are made, then they draw from one budget (the service limits per token)', () => {
    const options = { baseUrl: 'https://messaging.example.invalid/', token: 'shared-token-123456' };
    const v2 = new PartnerApiClient(options);
    const v3 = new PartnerApiV3Client({
      ...options,
      baseUrl: 'https://messaging.example.invalid/api/partner/v3',
    });
    expect(v3.http.budget).toBe(v2.http.budget);
    expect(v3.http.baseUrl).toBe('https://messaging.example.invalid');
  });

  it('another token gets its own budget', () => {
    const a = new PartnerApiV3Client({
      baseUrl: 'https://messaging.example.invalid',
      token: 'token-a-123456',
    });
    const b = new PartnerApiV3Client({
      baseUrl: 'https://messaging.example.invalid',
      token: 'token-b-123456',
    });
    expect(a.http.budget).not.toBe(b.http.budget);
  });
});
