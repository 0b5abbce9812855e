import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  V3_SIGNATURE_TOLERANCE_SECONDS,
  verifyV3Webhook,
} from '../../../../electron/core/realtime/v3-signature.ts';
import { signV3Delivery } from '../../../webhook-signing.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const OTHER_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const NOW = Date.parse('2026-11-23T21:00:00Z');
const EVENT_ID = '2f0e1b6c-5a4d-4c3b-9a8e-7d6c5b4a3f21';
const BODY = JSON.stringify({
  api_version: 'v3',
  event_type: 'message.received',
  event_id: EVENT_ID,
  data: { id: 'm1', parts: [{ type: 'text', value: 'Hi ☕' }] },
});

/** Headers the way the service sends them, signed by the Standard Webhooks reference library. */
function signedByLibrary(secret: string, body: string, atMs: number) {
  const signature = new Webhook(secret).sign(EVENT_ID, new Date(atMs), body);
  return {
    'webhook-id': EVENT_ID,
    'webhook-timestamp': String(Math.floor(atMs / 1000)),
    'webhook-signature': signature,
  };
}

describe('V3 webhook signature (Standard Webhooks)', () => {
  it('given a delivery signed by the reference library, when verified over the raw bytes, then it is accepted', () => {
    const result = verifyV3Webhook(SECRET, Buffer.from(BODY), signedByLibrary(SECRET, BODY, NOW), NOW);
    expect(result).toEqual({ ok: true, id: EVENT_ID, timestamp: Math.floor(NOW / 1000) });
  });

  it("the tests' signer (which signs raw bytes) agrees with the reference library", () => {
    const ours = signV3Delivery(SECRET, EVENT_ID, BODY, NOW);
    expect(ours).toEqual(signedByLibrary(SECRET, BODY, NOW));
  });

  it('a forged body (one byte changed) is refused', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW);
    const forged = Buffer.from(BODY.replace('Hi', 'Ho'));
    expect(verifyV3Webhook(SECRET, forged, headers, NOW)).toEqual({ ok: false, reason: 'no_match' });
  });

  it('a forged id or timestamp (signature copied from another delivery) is refused', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW);
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), { ...headers, 'webhook-id': 'other' }, NOW).ok).toBe(
      false,
    );
    const shifted = { ...headers, 'webhook-timestamp': String(Math.floor(NOW / 1000) + 1) };
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), shifted, NOW)).toEqual({
      ok: false,
      reason: 'no_match',
    });
  });

  it('a delivery replayed more than 5 minutes later is refused as stale', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW);
    const later = NOW + (V3_SIGNATURE_TOLERANCE_SECONDS + 1) * 1000;
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), headers, later)).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), headers, NOW + 299_000).ok).toBe(true);
  });

  it('a timestamp more than 5 minutes in the future is refused', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW + 301_000);
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), headers, NOW)).toEqual({ ok: false, reason: 'future' });
  });

  it('several signatures in one header: any match accepts (secret rotation), unknown versions are skipped', () => {
    const good = signedByLibrary(SECRET, BODY, NOW)['webhook-signature'];
    const stale = signedByLibrary(OTHER_SECRET, BODY, NOW)['webhook-signature'];
    const headers = {
      ...signedByLibrary(SECRET, BODY, NOW),
      'webhook-signature': `v2,${good.slice(3)} ${stale}  ${good}`,
    };
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), headers, NOW).ok).toBe(true);
    const onlyWrong = { ...headers, 'webhook-signature': `${stale} v1a,${good.slice(3)}` };
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), onlyWrong, NOW)).toEqual({
      ok: false,
      reason: 'no_match',
    });
  });

  it('the wrong secret is refused; a secret that is not base64 is reported as such', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW);
    expect(verifyV3Webhook(OTHER_SECRET, Buffer.from(BODY), headers, NOW)).toEqual({
      ok: false,
      reason: 'no_match',
    });
    expect(verifyV3Webhook('whsec_not base64!', Buffer.from(BODY), headers, NOW)).toEqual({
      ok: false,
      reason: 'bad_secret',
    });
  });

  it('missing, repeated or malformed headers are refused without throwing', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW);
    const body = Buffer.from(BODY);
    expect(verifyV3Webhook(SECRET, body, { ...headers, 'webhook-id': undefined }, NOW)).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
    expect(
      verifyV3Webhook(SECRET, body, { ...headers, 'webhook-signature': [headers['webhook-signature']] }, NOW)
        .ok,
    ).toBe(false);
    expect(verifyV3Webhook(SECRET, body, { ...headers, 'webhook-timestamp': '17e8' }, NOW)).toEqual({
      ok: false,
      reason: 'bad_timestamp',
    });
    expect(verifyV3Webhook(SECRET, body, { ...headers, 'webhook-signature': 'v1,' }, NOW)).toEqual({
      ok: false,
      reason: 'no_match',
    });
  });

  it('header names are matched case-insensitively', () => {
    const headers = signedByLibrary(SECRET, BODY, NOW);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyV3Webhook(SECRET, Buffer.from(BODY), upper, NOW).ok).toBe(true);
  });

  it('bytes that are not valid UTF-8 are verified as they are, not as re-encoded text', () => {
    const raw = Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const headers = signV3Delivery(SECRET, EVENT_ID, raw, NOW);
    expect(verifyV3Webhook(SECRET, raw, headers, NOW).ok).toBe(true);
    const reencoded = Buffer.from(raw.toString('utf8'));
    expect(verifyV3Webhook(SECRET, reencoded, headers, NOW).ok).toBe(false);
  });
});
