/** V3 phone numbers, capability check, webhook subscriptions, errors and the version probe. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApiV3Client } from '../../../../../electron/core/api/v3/client.ts';
import { probeApiVersions } from '../../../../../electron/core/api/v3/probe.ts';
import { startTestSandbox, type TestSandbox, v3TestClient } from './helpers.ts';

let sandbox: TestSandbox;
let api: PartnerApiV3Client;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = v3TestClient(sandbox).api;
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('V3 phone numbers', () => {
  it('lists lines with their reputation, and sets then clears forwarding', async () => {
    const lines = await api.lines.list();
    expect(lines.length).toBeGreaterThan(0);
    const [line] = lines;
    expect(line?.reputation?.status).toMatch(/^(HEALTHY|AT_RISK|CRITICAL)$/);
    const set = await api.lines.setForwarding(line!.id, '(415) 555-0199');
    expect(set.forwarding_number).toBe('+14155550199');
    const cleared = await api.lines.setForwarding(line!.id, null);
    expect(cleared.forwarding_number).toBeNull();
  });

  it('checks iMessage capability of an address', async () => {
    const result = await api.lines.checkIMessage('+14155550123');
    expect(result.address).toBe('+14155550123');
    expect(typeof result.available).toBe('boolean');
  });
});

describe('V3 webhook subscriptions', () => {
  it('creates (with a whsec_ secret, shown once), lists, gets, deactivates and deletes', async () => {
    const created = await api.webhooks.create({
      targetUrl: 'http://127.0.0.1:9/hooks/parley',
      events: ['message.sent', 'message.failed'],
    });
    expect(created.signing_secret).toMatch(/^whsec_/);
    const listed = await api.webhooks.list();
    const mine = listed.find((s) => s.id === created.id);
    expect(mine).toMatchObject({ target_url: 'http://127.0.0.1:9/hooks/parley', is_active: true });
    expect(mine).not.toHaveProperty('signing_secret');
    expect((await api.webhooks.get(created.id)).subscribed_events).toEqual([
      'message.sent',
      'message.failed',
    ]);
    expect((await api.webhooks.update(created.id, { active: false })).is_active).toBe(false);
    await api.webhooks.delete(created.id);
    await expect(api.webhooks.get(created.id)).rejects.toMatchObject({ status: 404, code: '2010' });
  });

  it('refuses a plain-http target that is not loopback', async () => {
    await expect(
      api.webhooks.create({ targetUrl: 'http://hooks.example.com/p', events: ['message.sent'] }),
    ).rejects.toMatchObject({ kind: 'validation', status: 400 });
  });
});

describe('V3 errors and probe', () => {
  it('a wrong token is 401 code 2004 with a trace id, not retried', async () => {
    const { api: wrong, attempts } = v3TestClient(sandbox, { token: 'not-a-token-of-this-sandbox' });
    const error = await wrong.lines.list().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, code: '2004' });
    expect((error as { traceId?: string }).traceId).toBeTruthy();
    expect(attempts).toHaveLength(1);
  });

  it('a 429 is waited out (Retry-After) and the call succeeds', async () => {
    const { api: counted, attempts } = v3TestClient(sandbox);
    await sandbox.control.addFault({
      kind: 'rate_limit',
      path: '/api/partner/v3/phone_numbers',
      retryAfterSeconds: 1,
      times: 1,
    });
    try {
      expect((await counted.lines.list()).length).toBeGreaterThan(0);
    } finally {
      await sandbox.control.clearFaults();
    }
    expect(attempts.map((a) => a.status)).toEqual([429, 200]);
  });

  it('the same token works on V2 and V3; V3 is preferred', async () => {
    const probe = await probeApiVersions({ baseUrl: sandbox.url, token: sandbox.token });
    expect(probe.v2).toMatchObject({ ok: true });
    expect(probe.v3).toMatchObject({ ok: true });
    expect(probe.preferred).toBe('v3');
  });

  it('an address where nothing listens throws the transport error instead of two failed outcomes', async () => {
    await expect(
      probeApiVersions({ baseUrl: 'http://127.0.0.1:1', token: sandbox.token }),
    ).rejects.toMatchObject({ kind: 'network', status: 0 });
  });

  it('a token neither version knows fails both, with a V3 message naming the 401', async () => {
    const probe = await probeApiVersions({ baseUrl: sandbox.url, token: 'not-a-token-of-this-sandbox' });
    expect(probe.preferred).toBeNull();
    expect(probe.v3.ok ? null : probe.v3.error.message).toMatch(/refused this token for the V3 API/);
  });
});
